// Least-recently-used order kept by a Map's insertion order: the one move every LRU here makes.

/**
 * The entry of `key`, moved to the most recently used end of `map` (its insertion order); `undefined`, and
 * nothing moved, when there is none.
 * @example const lru = new Map([['a', 1], ['b', 2]]); useRecent(lru, 'a'); [...lru.keys()] // ['b', 'a']
 */
export function useRecent<K, V>(map: Map<K, V>, key: K): V | undefined {
  const value = map.get(key);
  if (value === undefined) return undefined;
  map.delete(key);
  map.set(key, value);
  return value;
}
