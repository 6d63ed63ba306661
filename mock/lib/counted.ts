// A number with its noun in agreement, for every message that counts: "1 call", "3 calls".

/**
 * `n` and the noun, singular for exactly one; `plural` for a noun that does not just take an s.
 * @example counted(1, 'call') // '1 call'; counted(0, 'entry', 'entries') // '0 entries'
 */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
