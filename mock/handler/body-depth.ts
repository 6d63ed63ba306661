// How deep a parsed body may nest before the mock refuses it (and keeps it out of the journal).

/** The deepest nesting followed: deeper bodies could exhaust the stack when copied or validated later. */
export const MAX_DEPTH = 64;

/**
 * Whether a JSON value nests deeper than `limit`, found without recursion (the value may be hostile).
 * @example nestsTooDeep(JSON.parse('[[[]]]'), 2) // true
 */
export function nestsTooDeep(value: unknown, limit = MAX_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
