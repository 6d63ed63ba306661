// What a client sent, as a record keeps it: without the write-only fields the request's schema marks, at any
// depth. A `password` inside an `owner` is sent and never shown.
import { hasWriteOnly, mergedSchema } from '../prism/schema-check.js';
import { bundledSchema, declaredProperties } from '../schema/operation-bundle.js';
import { isObject, type JsonObject } from '../schema/schema-facts.js';

/** How deep a value is followed: bodies are bounded deeper than this before they are parsed. */
const MAX_DEPTH = 64;

/**
 * The value without the fields its schema marks `writeOnly`, in objects, their kinds (`oneOf`/`anyOf`) and
 * array items, following `$ref`s into the operation's `__bundled__`. Copies only what it changes; the value
 * itself when nothing is write-only.
 * @example withoutWriteOnly({ owner: { user: 'a', password: 'p' } }, accountSchema) // { owner: { user: 'a' } }
 */
export function withoutWriteOnly(value: unknown, schema: unknown, bundle?: Record<string, unknown>): unknown {
  // Most request schemas mark nothing write-only: one look per schema, and the value goes through untouched.
  return isObject(schema) && marksWriteOnly(schema, bundle) ? stripped(value, schema, bundle, 0) : value;
}

const marks = new WeakMap<object, boolean>();

function marksWriteOnly(schema: JsonObject, bundle: Record<string, unknown> | undefined): boolean {
  let known = marks.get(schema);
  if (known === undefined) {
    known = hasWriteOnly(schema) || Object.values(bundle ?? {}).some((part) => isObject(part) && hasWriteOnly(part));
    marks.set(schema, known);
  }
  return known;
}

function stripped(
  value: unknown,
  schema: unknown,
  bundle: Record<string, unknown> | undefined,
  depth: number,
): unknown {
  const node = resolved(schema, bundle);
  if (node === undefined || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    const items = node.items;
    if (!isObject(items)) return value;
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const kept = stripped(item, items, bundle, depth + 1);
      if (kept !== item) (out ??= [...value])[i] = kept;
    });
    return out ?? value;
  }
  if (!isObject(value)) return value;
  const properties = declaredProperties(node, bundle);
  let out: JsonObject | undefined;
  for (const name of Object.keys(value)) {
    const field = resolved(properties.get(name), bundle);
    if (field === undefined) continue;
    if (field.writeOnly === true) {
      out ??= { ...value };
      delete out[name];
      continue;
    }
    const kept = stripped(value[name], field, bundle, depth + 1);
    if (kept !== value[name]) (out ??= { ...value })[name] = kept;
  }
  return out ?? value;
}

/** The schema a node stands for: its `$ref` into the bundle followed, its `allOf` merged. */
function resolved(schema: unknown, bundle: Record<string, unknown> | undefined): JsonObject | undefined {
  const node = bundledSchema(schema, bundle);
  return node === undefined ? undefined : mergedSchema(node);
}
