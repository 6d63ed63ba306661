// Keeps generated bodies bounded without cutting required values: past a depth, only what is required.
import { isObject, type JsonObject } from '../schema/schema-facts.js';
import { LISTS, MAPS, SCHEMA_KEYWORDS, SINGLE } from '../schema/schema-keywords.js';

/** From this many levels of objects and arrays down, only required properties and the fewest items are drawn. */
export const FULL_DEPTH = 5;

/**
 * A schema whose parts from `FULL_DEPTH` levels down (and every part reached through `$ref`, which is how
 * recursion comes back) keep only their required properties and at most one item beyond `minItems`. The
 * body stays small and recursion stops where the schema lets it, while json-schema-faker (given a large
 * `maxDepth`) still draws every required value whole, however deep: its own depth limit fills them with "",
 * 0 or {} instead. Required names listed beside an `allOf` count for every part of it.
 * @example pruneDeep(schema) // the same schema, with optional properties dropped from the 6th level down
 */
export function pruneDeep(schema: unknown): unknown {
  const memo = new WeakMap<object, unknown>();
  return walk(schema, 0, undefined, memo);
}

/** A schema reached by `$ref` (a recursive part): only its required properties, from its top. */
export function pruneAll(schema: unknown): unknown {
  return walk(schema, FULL_DEPTH, undefined, new WeakMap());
}

function walk(
  node: unknown,
  depth: number,
  inherited: Set<string> | undefined,
  memo: WeakMap<object, unknown>,
): unknown {
  if (!isObject(node)) return node;
  const deep = depth >= FULL_DEPTH;
  // Past the full depth a part is pruned the same way wherever it appears: once each.
  const memoable = deep && inherited === undefined;
  if (memoable && memo.has(node)) return memo.get(node);
  const required = new Set([...(inherited ?? []), ...namesOf(node.required)]);
  if (Array.isArray(node.allOf))
    for (const part of node.allOf) if (isObject(part)) namesOf(part.required).forEach((n) => required.add(n));
  const next = deep ? depth : depth + 1;
  const out: JsonObject = { ...node };
  for (const [key, value] of Object.entries(node)) {
    const keyword = SCHEMA_KEYWORDS[key];
    if (!keyword || keyword.applies === 'definitions' || typeof value !== 'object' || value === null) continue;
    // A part of the value is a level deeper; a schema alongside (allOf, anyOf…) is the same value, at its depth.
    const at = keyword.applies === 'inside' ? next : depth;
    // Required names beside an allOf count for each of its parts.
    const passed = key === 'allOf' ? required : undefined;
    if (Array.isArray(value)) {
      if (LISTS.has(key)) out[key] = value.map((child) => walk(child, at, passed, memo));
    } else if (MAPS.has(key)) {
      const kept = Object.entries(value).filter(([name]) => !deep || key !== 'properties' || required.has(name));
      out[key] = Object.fromEntries(kept.map(([name, child]) => [name, walk(child, at, undefined, memo)]));
    } else if (SINGLE.has(key)) out[key] = walk(value, at, passed, memo);
  }
  if (deep && out.items !== undefined) {
    const min = typeof node.minItems === 'number' ? node.minItems : 0;
    if (typeof node.maxItems !== 'number' || node.maxItems > min + 1) out.maxItems = min + 1;
  }
  if (memoable) memo.set(node, out);
  return out;
}

function namesOf(required: unknown): string[] {
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
}
