// How deep a parsed body may nest before the mock refuses it (and keeps it out of the journal).

/** The deepest nesting followed: deeper bodies could exhaust the stack when copied or validated later. */
export const MAX_DEPTH = 64;

/** The problem's words for such a body. */
export const TOO_DEEP = `The body nests deeper than ${MAX_DEPTH} levels.`;

/** What the journal records instead of such a body. */
export const TOO_DEEP_BODY = `[not recorded: the body nests deeper than ${MAX_DEPTH} levels]`;

/**
 * Whether a JSON value nests deeper than `limit`, found without recursion (the value may be hostile).
 * @example nestsTooDeep(JSON.parse('[[[]]]'), 2) // true
 */
export function nestsTooDeep(value: unknown, limit = MAX_DEPTH): boolean {
  // Two stacks side by side: a pair per value would make a wide body cost an allocation per value.
  const nodes: unknown[] = [value];
  const depths: number[] = [0];
  while (nodes.length) {
    const node = nodes.pop();
    const depth = depths.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= limit) return true;
    for (const key in node) {
      nodes.push((node as Record<string, unknown>)[key]);
      depths.push(depth + 1);
    }
  }
  return false;
}

/**
 * Whether JSON text nests deeper than `limit`, read byte by byte before it is parsed: a body of 100,000
 * brackets is refused without building 100,000 arrays. Brackets inside strings do not count.
 * @example textNestsTooDeep(Buffer.from('[[["]]]]"]]]'), 2) // true
 */
export function textNestsTooDeep(text: Uint8Array, limit = MAX_DEPTH): boolean {
  // Nesting deeper than `limit` takes more opening brackets than that: most bodies have a few, found by
  // `indexOf` far faster than the scan reads every byte in JavaScript (a twentieth of a small create).
  if (opensAtMost(text, limit)) return false;
  return depthScanner(limit)(text);
}

/** Whether `text` has at most `limit` opening brackets, in strings or not. */
function opensAtMost(text: Uint8Array, limit: number): boolean {
  let opens = 0;
  for (const bracket of OPENING)
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1))
      if (++opens > limit) return false;
  return true;
}

/**
 * {@link textNestsTooDeep} for text that arrives in pieces: each call reads the next piece, and says whether the
 * text so far nests deeper than `limit` (a string or an escape may run across pieces).
 * @example const tooDeep = depthScanner(2); tooDeep(Buffer.from('[[')); tooDeep(Buffer.from('[')) // true
 */
export function depthScanner(limit = MAX_DEPTH): (piece: Uint8Array) => boolean {
  let depth = 0;
  let inString = false;
  let escaped = false;
  return (piece) => {
    for (let i = 0; i < piece.length; i++) {
      const byte = piece[i];
      if (escaped) escaped = false;
      else if (inString) {
        if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
        if (++depth > limit) return true;
      } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
    }
    return false;
  };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPENING = [OPEN_OBJECT, OPEN_ARRAY];
