// Frozen JSON values, and the JSON text of the last one asked for: a created record's text is measured for the
// state budget and then sent as the reply, and writing it out twice was a twentieth of a create.

/** The values {@link deepFreeze} froze, everything in them included. */
const frozenThrough = new WeakSet<object>();

/**
 * Freezes a JSON value and everything in it. What it froze before is passed over; an object frozen by hand is
 * walked all the same (what is in it may not be frozen). Walked by index and by own keys of `for…in`, not
 * `Object.values`: an array made per object was 40% of freezing 100k records.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !frozenThrough.has(value)) {
    Object.freeze(value);
    // Marked before its contents: a value that holds itself is walked once.
    frozenThrough.add(value);
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
    else for (const key in value) if (Object.hasOwn(value, key)) deepFreeze(value[key]);
  }
  return value;
}

/** Whether {@link deepFreeze} froze the value, everything in it included (a value frozen by hand may not be). */
export function isFrozenThrough(value: unknown): boolean {
  return typeof value === 'object' && value !== null && frozenThrough.has(value);
}

/** The last frozen-through value written out and its text: one of each is all it keeps alive. */
let last: { value: object; text: string } | undefined;

/**
 * `JSON.stringify(value)`, written once for a value {@link deepFreeze} froze when it is asked for again next
 * (nothing in it can change, so neither can its text). Other values are written out every time.
 * @example const record = deepFreeze({ id: 'pas_1' }); jsonText(record) === jsonText(record) // written once
 */
export function jsonText(value: unknown): string {
  if (last !== undefined && value === last.value) return last.text;
  const text = JSON.stringify(value);
  if (isFrozenThrough(value)) last = { value: value as object, text };
  return text;
}
