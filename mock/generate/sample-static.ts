// Static bodies as Prism's static mode makes them: @stoplight/json-schema-sampler, the sampler Prism itself uses.
import { prism } from '../prism/prism-modules.js';
import { eachSchemaNode, isObject, type JsonObject } from '../schema/schema-facts.js';

/** How much work a sample may take, as Prism allows it: past it, the schema is too complex to sample. */
const TICKS = 2500;

/** A schema the sampler gave up on (an array of 3000 items, say): answered as a 500 problem, as Prism does. */
export class SchemaTooComplexError extends Error {
  override name = 'SchemaTooComplexError';
}

const copies = new WeakMap<object, unknown>();
const sampled = new WeakMap<object, unknown>();

/**
 * The schema as objects of its own, apart from the bundle's (made once per schema). The loader shares one
 * object per named schema, so a schema that contains itself is, at its first level, the very object its
 * bundle entry is; the sampler tells recursion by object, and would stop one level above where Prism's copy
 * (inline first, then the bundle's) stops. Its tuples are written as the sampler can draw them (see
 * listedTuple).
 */
function apart(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  let copy = copies.get(schema);
  if (copy === undefined) copies.set(schema, (copy = withListedTuples(structuredClone(schema))));
  return copy;
}

/**
 * The schema (or, `bundle`, each schema of a bundle), or a copy with its tuples listed when it has any the
 * sampler draws wrong (made once per schema).
 */
function forSampler(schema: unknown, bundle = false): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  let ready = sampled.get(schema);
  if (ready === undefined) {
    const roots = bundle ? Object.values(schema) : [schema];
    let wrong = false;
    for (const root of roots) eachSchemaNode(root, (node) => (wrong ||= listedTuple(node) !== undefined));
    sampled.set(schema, (ready = wrong ? withListedTuples(structuredClone(schema), bundle) : schema));
  }
  return ready;
}

function withListedTuples(copy: unknown, bundle = false): unknown {
  const seen = new Set<object>();
  for (const root of bundle && isObject(copy) ? Object.values(copy) : [copy]) eachSchemaNode(root, listTuple, seen);
  return copy;
}

function listTuple(node: JsonObject): void {
  const listed = listedTuple(node);
  if (listed === undefined) return;
  delete node.prefixItems;
  delete node.additionalItems;
  if (listed === false) delete node.items;
  else node.items = listed;
}

/**
 * How the sampler must see a tuple to draw one that fits: the list of the schemas of the items it draws, or
 * `false` for none; `undefined` when it draws the node right as it is. The sampler knows draft 4's `items: [a,
 * b]` but not 2020-12's `prefixItems` (nor `items` after it: it would draw every item from `items`), and draws
 * a tuple whole past `maxItems`, or `{}`'s null past the tuple for `minItems` whatever `additionalItems` says.
 * Listed, the tuple has every item of its own up to `maxItems`, then items of what follows up to `minItems`.
 */
function listedTuple(node: JsonObject): unknown[] | false | undefined {
  const draft4 = Array.isArray(node.items);
  const tuple = draft4 ? (node.items as unknown[]) : Array.isArray(node.prefixItems) ? node.prefixItems : undefined;
  if (!tuple) return undefined;
  const rest = draft4 ? node.additionalItems : node.items;
  const min = typeof node.minItems === 'number' ? node.minItems : 0;
  const max = typeof node.maxItems === 'number' ? node.maxItems : Infinity;
  if (draft4 && tuple.length <= max && min <= tuple.length && tuple.length > 0) return undefined;
  const length = Math.min(max, Math.max(min, tuple.length));
  const listed = tuple.slice(0, length);
  // What follows the tuple (`true`, or nothing said: anything) is drawn as the sampler draws `{}`.
  const next = isObject(rest) ? rest : rest === false ? undefined : {};
  while (listed.length < length && next) listed.push(next);
  return listed.length === 0 ? false : listed;
}

/**
 * The body Prism's static mode answers for a schema: a property's `example`, `default`, first of `examples`
 * or `const` when it has one, else "string", 0, false, `[]`-free arrays of one item and every property,
 * optional ones too. `bundle` is the operation's `__bundled__` (where Prism's loader keeps the recursive
 * parts of its schemas, reached by `$ref: '#/__bundled__/…'`).
 * @throws SchemaTooComplexError when the sample would be too large
 * @example sampleStatic({ type: 'object', properties: { name: { type: 'string' } } }) // { name: 'string' }
 */
export function sampleStatic(schema: unknown, bundle?: unknown): unknown {
  // Prism's own copy of the sampler (a dependency of @stoplight/prism-http), so static bodies stay Prism's.
  const { sampler } = prism();
  try {
    const root = bundle === undefined ? forSampler(schema) : apart(schema);
    const spec = bundle === undefined ? {} : { __bundled__: forSampler(bundle, true) };
    // A copy: the sampler hands back the contract's own example objects, and bodies are changed later.
    return structuredClone(sampler.sample(root, { ticks: TICKS }, spec));
  } catch (error) {
    if (error instanceof sampler.SchemaSizeExceededError) {
      throw new SchemaTooComplexError('The schema is too complex to generate a body from.', { cause: error });
    }
    throw error;
  }
}
