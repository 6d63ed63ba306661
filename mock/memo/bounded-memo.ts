// A memo with a bound on its entries and on its keys, owned by whoever made it (a plan, an instance).

/**
 * Remembers values by string key. When full it starts over (one `clear`, no bookkeeping per hit), and a
 * key longer than `keyLimit` is never stored: a stream of hostile, distinct requests cannot grow it.
 * @example const memo = new BoundedMemo<number>(100); memo.get('a') ?? memo.set('a', 1);
 */
export class BoundedMemo<V> {
  #entries = new Map<string, V>();

  constructor(
    readonly limit: number,
    readonly keyLimit = 4096,
  ) {}

  get(key: string): V | undefined {
    return this.#entries.get(key);
  }

  /** Stores and returns `value` (or only returns it, when the key is too long to keep). */
  set(key: string, value: V): V {
    if (key.length > this.keyLimit) return value;
    if (this.#entries.size >= this.limit && !this.#entries.has(key)) this.#entries.clear();
    this.#entries.set(key, value);
    return value;
  }

  /** Forgets every entry. */
  clear(): void {
    this.#entries.clear();
  }

  /** How many entries it holds now. */
  get size(): number {
    return this.#entries.size;
  }
}
