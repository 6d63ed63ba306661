// A memo with a bound on its entries, on its keys and on the weight of what it holds, owned by whoever made it.

/**
 * Remembers values by string key. When full it starts over (one `clear`, no bookkeeping per hit), and a
 * key longer than `keyLimit` is never stored: a stream of hostile, distinct requests cannot grow it. With a
 * `weightLimit`, each value is set with a weight (a list page: its records) and the total is bounded too.
 * @example const memo = new BoundedMemo<number>(100); memo.get('a') ?? memo.set('a', 1);
 */
export class BoundedMemo<V> {
  #entries = new Map<string, V>();
  /** Weights by key, kept only when there is a weight limit. */
  #weights: Map<string, number> | undefined;
  #weight = 0;

  constructor(
    readonly limit: number,
    readonly keyLimit = 4096,
    readonly weightLimit = Infinity,
  ) {
    if (weightLimit !== Infinity) this.#weights = new Map();
  }

  get(key: string): V | undefined {
    return this.#entries.get(key);
  }

  /** Stores and returns `value` (or only returns it, when the key is too long, or the value too heavy, to keep). */
  set(key: string, value: V, weight = 1): V {
    if (key.length > this.keyLimit || weight > this.weightLimit) return value;
    const before = this.#weights?.get(key) ?? 0;
    const full = this.#entries.size >= this.limit && !this.#entries.has(key);
    if (full || this.#weight - before + weight > this.weightLimit) this.clear();
    else this.#weight -= before;
    this.#entries.set(key, value);
    if (this.#weights) {
      this.#weights.set(key, weight);
      this.#weight += weight;
    }
    return value;
  }

  /** Forgets every entry. */
  clear(): void {
    this.#entries.clear();
    this.#weights?.clear();
    this.#weight = 0;
  }

  /** The total weight it holds now (the number of entries without a weight limit). */
  get weight(): number {
    return this.#weights ? this.#weight : this.#entries.size;
  }

  /** How many entries it holds now. */
  get size(): number {
    return this.#entries.size;
  }
}
