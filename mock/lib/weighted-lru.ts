// An LRU cache bounded by the weight (records, say) of what it holds, on lru-cache: a hit moves its entry in
// constant time. Moving an entry by deleting and setting it again in a Map cost time in proportion to the Map's
// size in V8 (each delete leaves the key's bucket a longer chain until the table is rebuilt): 36 µs a read with
// 10,000 collections' placeholders cached, more than the rest of the read.
import { LRUCache } from 'lru-cache';

/**
 * A least-recently-used cache bounded by the weight of what it holds. Past `limit`, the least recently used
 * entries go, but never the one just set (a single entry heavier than the limit stays alone). An entry may
 * grow in place: its holder says so with {@link WeightedLru.grew}.
 * @example
 * const cache = new WeightedLru<string, string[]>(4, (list) => list.length);
 * cache.set('a', ['1', '2']); cache.set('b', ['3', '4']); cache.get('a'); cache.set('c', ['5']);
 * [...cache.keys()] // ['c', 'a']: b was the least recently used
 */
export class WeightedLru<K extends {}, V extends {}> {
  readonly #entries: LRUCache<K, V>;
  #weight = 0;

  /** `weightOf` is read when an entry is set and when it goes: at least 1 (so the limit bounds their number). */
  constructor(
    readonly limit: number,
    readonly weightOf: (value: V) => number,
  ) {
    this.#entries = new LRUCache<K, V>({
      max: limit + 1,
      dispose: (value) => (this.#weight -= weightOf(value)),
    });
  }

  /** The entry of `key`, now the most recently used. */
  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  /** Keeps `value` as the most recently used entry, letting the least recently used others go past the limit. */
  set(key: K, value: V): V {
    // The same value again: lru-cache gives nothing back to dispose, so nothing is added either.
    if (this.#entries.get(key) === value) return value;
    this.#entries.set(key, value);
    this.#weight += this.weightOf(value);
    while (this.#weight > this.limit && this.#entries.size > 1) this.#entries.pop();
    return value;
  }

  /** An entry held gained `weight` (or lost it, when negative) in place. */
  grew(weight: number): void {
    this.#weight += weight;
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The weight held. */
  get weight(): number {
    return this.#weight;
  }

  /** The keys, most recently used first. */
  keys(): IterableIterator<K> {
    return this.#entries.keys();
  }

  /** The values, most recently used first. */
  values(): IterableIterator<V> {
    return this.#entries.values();
  }
}
