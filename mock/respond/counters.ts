// A session's counters, which make answers differ and repeat: requests (each rolls its faults), creates per
// operation (each draws a new body). A reset restarts them all.

/** The counter of a session's requests that reached the contract's answer (fault rolls use it). */
export const REQUESTS = '\u0000requests';

/** A counter's value, 0 before its first count. */
export function countOf(session: { counters: ReadonlyMap<string, number> }, name: string): number {
  return session.counters.get(name) ?? 0;
}
