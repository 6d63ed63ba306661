// A mistyped flag or key names the one the user most likely meant: `--contracts` → `--contract`, `prot` → `port`.

/**
 * The known flag nearest to `typed` by edit distance, when it is near enough to be a typo (at most a third of
 * its length, and 3 edits): `undefined` otherwise, rather than a guess that sends the user astray.
 * @example nearestFlag('--contracts', ['contract', 'port']) // '--contract'
 */
export function nearestFlag(typed: string, known: readonly string[]): string | undefined {
  const near = nearestName(typed.replace(/^-+/, '').split('=')[0]!, known);
  return near === undefined ? undefined : `--${near}`;
}

/**
 * The known name nearest to `typed`, case aside, when it is near enough to be a typo (as {@link nearestFlag}).
 * @example nearestName('prot', ['port', 'host']) // 'port'
 */
export function nearestName(typed: string, known: readonly string[]): string | undefined {
  const name = typed.toLowerCase();
  let best: { known: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { known: candidate, distance };
  }
  if (!best || best.distance > Math.min(3, Math.ceil(name.length / 3))) return undefined;
  return best.known;
}

/** Levenshtein distance, one row at a time. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}
