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

/** A key part of a {@link BoundedTrieMemo}: `undefined` is a part of its own (a header not sent). */
export type KeyPart = string | number | undefined;

/** The characters of a key's string parts (a number is kept in a fixed size, and counts none). */
export function keyCharacters(parts: readonly KeyPart[]): number {
  let characters = 0;
  for (const part of parts) if (typeof part === 'string') characters += part.length;
  return characters;
}

/** A value a {@link BoundedTrieMemo} holds, with its weight. */
interface Held<V> {
  value: V;
  weight: number;
}

/**
 * Remembers values by key parts, always as many, looked up a part at a time in maps within maps: no key is
 * made by joining the parts (a long string made of parts is copied whole and hashed on every lookup), and a
 * part V8 has hashed before (a path an operation's memo of its paths hands out) is not hashed again; a number
 * costs little. Bounded as {@link BoundedMemo} is: by entries, by the characters of one key's string parts,
 * and by the weight of what it holds (each value set with its weight); when full it starts over. Put the part
 * that varies most last: each new value of an earlier part makes a map for every part after it (at most
 * entries × parts maps in all).
 * @example const memo = new BoundedTrieMemo<number>(2); memo.get(['/a', 'GET']) ?? memo.set(['/a', 'GET'], 1);
 */
export class BoundedTrieMemo<V> {
  #root = new Map<KeyPart, unknown>();
  #entries = 0;
  #weight = 0;

  constructor(
    readonly limit: number,
    readonly keyLimit = 4096,
    readonly weightLimit = Infinity,
  ) {}

  get(parts: readonly KeyPart[]): V | undefined {
    let node: Map<KeyPart, unknown> | undefined = this.#root;
    const last = parts.length - 1;
    for (let i = 0; i < last && node; i++) node = node.get(parts[i]) as Map<KeyPart, unknown> | undefined;
    return (node?.get(parts[last]) as Held<V> | undefined)?.value;
  }

  /** Stores and returns `value` (or only returns it, when its key is too long, or the value too heavy, to keep). */
  set(parts: readonly KeyPart[], value: V, weight = 1): V {
    if (keyCharacters(parts) > this.keyLimit || weight > this.weightLimit) return value;
    const last = parts.length - 1;
    const before = (this.#leaves(parts, false)?.get(parts[last]) as Held<V> | undefined)?.weight;
    const full = before === undefined && this.#entries >= this.limit;
    if (full || this.#weight - (before ?? 0) + weight > this.weightLimit) this.clear();
    else if (before !== undefined) {
      this.#weight -= before;
      this.#entries--;
    }
    this.#leaves(parts, true)!.set(parts[last], { value, weight });
    this.#entries++;
    this.#weight += weight;
    return value;
  }

  /** The map holding the last part of `parts`, made on the way when `make`. */
  #leaves(parts: readonly KeyPart[], make: boolean): Map<KeyPart, unknown> | undefined {
    let node = this.#root;
    for (let i = 0; i < parts.length - 1; i++) {
      let next = node.get(parts[i]) as Map<KeyPart, unknown> | undefined;
      if (!next) {
        if (!make) return undefined;
        node.set(parts[i], (next = new Map()));
      }
      node = next;
    }
    return node;
  }

  /** Forgets every entry. */
  clear(): void {
    this.#root = new Map();
    this.#entries = 0;
    this.#weight = 0;
  }

  /** The total weight it holds now (the number of entries when every value weighs one). */
  get weight(): number {
    return this.#weight;
  }

  /** How many entries it holds now. */
  get size(): number {
    return this.#entries;
  }
}
