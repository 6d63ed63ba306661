// Least-recently-used order kept by a Map's insertion order, for small maps (the sessions').

/**
 * The entry of `key`, moved to the most recently used end of `map` (its insertion order); `undefined`, and
 * nothing moved, when there is none. For small maps only (the sessions, 100 by default): in V8 a key deleted
 * and set again lengthens its bucket's chain until the table is rebuilt, so a move costs in proportion to the
 * map's size (36 µs at 10,000 entries). Large caches are a `WeightedLru` (weighted-lru.ts).
 * @example const lru = new Map([['a', 1], ['b', 2]]); useRecent(lru, 'a'); [...lru.keys()] // ['b', 'a']
 */
export function useRecent<K, V>(map: Map<K, V>, key: K): V | undefined {
  const value = map.get(key);
  if (value === undefined) return undefined;
  map.delete(key);
  map.set(key, value);
  return value;
}
