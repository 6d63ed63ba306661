// What a JSON value is: the two questions every walk of a body, a document or a schema asks.

/** A JSON object: keys to values. */
export type JsonObject = Record<string, unknown>;

/**
 * A plain JSON object: not an array, not null.
 * @example isObject({}) // true; isObject([]) // false
 */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An object or an array: a value that holds others (what a walk goes into).
 * @example isContainer([]) // true; isContainer(null) // false
 */
export function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
