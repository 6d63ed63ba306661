// Whether records made from one schema can be served where another is documented: a collection's records are
// made from its create response, and its list and read answer them as they are.
import { isObject, propertiesOf, type JsonObject } from './schema-facts.js';
import { MAPS } from './schema-keywords.js';

/** Keywords that say nothing about which values fit (`default` and `readOnly` do not refuse any). */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'example',
  'examples',
  'default',
  'readOnly',
  'writeOnly',
  'externalDocs',
  'deprecated',
  '$comment',
  // The draft a schema is read in: the loader marks a response's root with it, not the same schema's use in a list.
  '$schema',
]);

/**
 * Whether every record made from `record` fits `target`: both are the same schema, or `target` is an object
 * schema whose properties are the record's own (the same schema each, annotations aside), that requires only
 * what the record requires, and that refuses no property the record has.
 * @example recordFits(passSummary, pass) // true when the summary lists some of the pass's fields unchanged
 */
export function recordFits(target: JsonObject, record: JsonObject): boolean {
  if (sameSchema(target, record)) return true;
  // The record's schema may require more than the contract's (the mock requires a record's id): otherwise the same,
  // its records fit. A list of `oneOf` kinds was not recognised as the records' list, and was answered bare.
  if (requiredOf(target).every((name) => requiredOf(record).includes(name))) {
    if (sameSchema({ ...target, required: [] }, { ...record, required: [] })) return true;
  }
  const wanted = propertiesOf(target);
  const made = propertiesOf(record);
  if (Object.keys(wanted).length === 0 || Object.keys(made).length === 0) return false;
  if (target.type !== undefined && target.type !== 'object') return false;
  if (['oneOf', 'anyOf', 'allOf', 'not', 'if'].some((keyword) => keyword in target)) return false;
  const required = new Set(requiredOf(record));
  if (!requiredOf(target).every((name) => required.has(name))) return false;
  if (!Object.entries(wanted).every(([name, schema]) => name in made && sameSchema(schema, made[name]!))) return false;
  const closed = target.additionalProperties === false || target.unevaluatedProperties === false;
  return !closed || Object.keys(made).every((name) => name in wanted);
}

/**
 * Whether two schemas accept the same values as far as their text says: equal once annotations (descriptions,
 * examples, `x-` extensions) are left out and keys sorted.
 * @example sameSchema({ type: 'string', description: 'a' }, { type: 'string' }) // true
 */
export function sameSchema(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  try {
    return canonical(a) === canonical(b);
  } catch {
    return false; // a cycle: not worth comparing
  }
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => {
    if (!isObject(v)) return v;
    // In a map of properties the keys are names (a property may be called `title`), not keywords.
    const names = MAPS.has(key);
    const kept = Object.keys(v)
      .filter((name) => names || (!ANNOTATIONS.has(name) && !name.startsWith('x-')))
      .sort();
    return Object.fromEntries(kept.map((name) => [name, v[name]]));
  });
}

function requiredOf(schema: JsonObject): string[] {
  return Array.isArray(schema.required) ? schema.required.filter((n): n is string => typeof n === 'string') : [];
}
