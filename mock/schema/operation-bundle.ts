// Where an operation keeps the parts of its schemas that contain themselves, and how a `$ref` reaches them.
import type { IHttpOperation } from '@stoplight/types';
import { isObject, propertiesOf, type JsonObject } from './schema-facts.js';

/** The prefix of a reference into an operation's `__bundled__`, as Prism's loader and ours write it. */
export const BUNDLED_REF = '#/__bundled__/';

/**
 * The operation's `__bundled__`: the schemas its `$ref: '#/__bundled__/<name>'` references name (the loader
 * puts it there, as Prism's does); `undefined` when none of its schemas contains itself.
 * @example generator.generate(schema, key, bundleOf(operation.spec))
 */
export function bundleOf(spec: IHttpOperation | undefined): Record<string, unknown> | undefined {
  return (spec as { __bundled__?: Record<string, unknown> } | undefined)?.__bundled__;
}

/** How many references in a row are followed: a bundle part names a schema, not another reference. */
const MAX_HOPS = 8;

/**
 * The schema a node stands for: its `$ref`s into the bundle followed (a few in a row at most). A reference that
 * leads nowhere, or anything but an object: `undefined`.
 * @example bundledSchema({ $ref: '#/__bundled__/Node' }, { Node: nodeSchema }) // nodeSchema
 */
export function bundledSchema(schema: unknown, bundle: Record<string, unknown> | undefined): JsonObject | undefined {
  let node = schema;
  for (let hops = 0; isObject(node) && typeof node.$ref === 'string' && hops < MAX_HOPS; hops++) {
    const ref: string = node.$ref;
    node = ref.startsWith(BUNDLED_REF) ? bundle?.[ref.slice(BUNDLED_REF.length)] : undefined;
  }
  return isObject(node) && typeof node.$ref !== 'string' ? node : undefined;
}

/**
 * The properties a value of this schema may have, by name, in the order they are declared: its own first, then
 * those of its `allOf`, `anyOf` and `oneOf` members (each followed into the bundle; the first to declare a name
 * gives its schema). The property schemas are as declared, references and all.
 * @example declaredProperties({ oneOf: [cat, dog], properties: { id } }) // id, then cat's and dog's fields
 */
export function declaredProperties(schema: unknown, bundle: Record<string, unknown> | undefined): Map<string, unknown> {
  const node = bundledSchema(schema, bundle);
  const names = new Map<string, unknown>(Object.entries(propertiesOf(node)));
  if (node === undefined) return names;
  for (const list of ['allOf', 'anyOf', 'oneOf'] as const) {
    const members = node[list];
    if (!Array.isArray(members)) continue;
    for (const member of members) {
      for (const [name, field] of Object.entries(propertiesOf(bundledSchema(member, bundle)))) {
        if (!names.has(name)) names.set(name, field);
      }
    }
  }
  return names;
}
