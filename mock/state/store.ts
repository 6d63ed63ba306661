// The state store: records by collection and id, within limits, behind an interface so other backends can follow.
import { useRecent } from '../memo/use-recent.js';

/** A stored record: a JSON object. */
export type StoredRecord = Record<string, unknown>;

/** Everything a store holds, as plain JSON: collection path → records in insertion order. */
export type StoreSnapshot = Record<string, StoredRecord[]>;

/** How much a store may hold: records in one collection, and places in the whole store (see {@link Store.count}). */
export interface StoreLimits {
  collection: number;
  state: number;
}

/** What a store is, for health: its kind, its file, and the last write that failed (if any did). */
export interface StoreInfo {
  kind: 'memory' | 'sqlite';
  file?: string;
  lastError?: { message: string; at: string };
  /** The last write failed: changes are being refused (answered with a problem) until one succeeds. */
  failing?: boolean;
  /** Records of the file kept parsed in memory (at most 20,000): what the state costs the heap. */
  cached?: number;
}

/** What became of a write: stored, or refused (nothing changed) because a collection or the store is full. */
export type StoreOutcome = 'stored' | 'collection-full' | 'state-full';

/**
 * Where state lives. A collection is named by its concrete path (`/members/m1/passes`), so every
 * member's data is apart. A collection that exists, even empty, has been initialised.
 *
 * A store is bounded by its {@link StoreLimits}. A collection that holds only what {@link Store.seed} put there
 * (placeholders that can be made again, the same, at any time) is evictable: when a write needs room past the
 * state limit, evictable collections are dropped, least recently used first, before the write is refused.
 * Reading a collection (`has`, `get`, `list`) counts as using it.
 *
 * A store that keeps state in a file has every change (`put`, `delete`, `restore`) on disk when it returns; when
 * the file cannot take it, the change throws (a `StateWriteError`) and nothing changed.
 */
export interface Store {
  readonly limits: Readonly<StoreLimits>;
  /** A record, read-only. */
  get(collection: string, id: string): StoredRecord | undefined;
  /** Records in insertion order (oldest first), read-only. */
  list(collection: string): StoredRecord[];
  /**
   * Stores a record the caller hands over: it must not change it afterwards (the memory store freezes it).
   * A new record in a collection at the collection limit, or one that needs room past the state limit (after
   * evicting what it can), is refused and nothing changes; replacing a record is never refused.
   */
  put(collection: string, id: string, record: StoredRecord): StoreOutcome;
  /**
   * Initialises a collection with records that can be made again the same at any time (placeholders, or none),
   * as evictable; refused (`state-full`, nothing stored) when there is no room even after evicting. Placeholders
   * are not held to the collection limit (a create past it is). A collection that exists already is left as it is.
   */
  seed(collection: string, records: ReadonlyArray<readonly [id: string, record: StoredRecord]>): StoreOutcome;
  /** Removes a record; `false` when there was none. The collection is no longer evictable once it loses one. */
  delete(collection: string, id: string): boolean;
  /** Whether the collection was initialised (created, seeded or restored). */
  has(collection: string): boolean;
  /**
   * The records of a collection; without one, the places the whole store holds against its state limit: every
   * record, and one for each empty collection (it keeps that its records were deleted).
   */
  count(collection?: string): number;
  /**
   * A number that changes whenever the collection changes (put, delete, seed, restore): answers made from it can
   * be kept until then.
   */
  version(collection: string): number;
  snapshot(): StoreSnapshot;
  /**
   * Replaces everything with the snapshot, whatever the limits (fixtures are never refused, but count); `idOf`
   * names each record's key. Restored collections are not evictable.
   */
  restore(snapshot: StoreSnapshot, idOf: (collection: string, record: StoredRecord) => string): void;
  /** What the store is, for health. */
  info(): StoreInfo;
  /** Lets go of what the store holds open (a database file); a closed store is not used again. */
  close(): void;
}

/**
 * The in-memory store. Records are frozen when they go in, so reads hand them out without copying: a list
 * of fifty records costs no clone on every request, and no caller can change the store by accident.
 * A put takes the record as it is (the mock made it for the store); a restore copies the snapshot first.
 * Every operation costs the same however many collections the store holds (an eviction is paid for by the seed
 * that put the collection there): counts are kept as they change, and evictable collections wait in a map in
 * order of use.
 * @example
 * const store = new MemoryStore({ collection: 1000, state: 2000 });
 * store.put('/members/m1/passes', 'pas_1', { id: 'pas_1' }); // 'stored'
 */
export class MemoryStore implements Store {
  readonly limits: Readonly<StoreLimits>;
  #collections = new Map<string, Map<string, StoredRecord>>();
  /** Counts every change of the store; a collection's version is the count at its last change. */
  #changes = 0;
  #versions = new Map<string, number>();
  /** Places held (see {@link Store.count}). */
  #places = 0;
  /** Evictable collections, least recently used first, and the places they hold between them. */
  #evictable = new Map<string, true>();
  #evictablePlaces = 0;

  constructor(limits: Partial<StoreLimits> = {}) {
    this.limits = Object.freeze({ collection: Infinity, state: Infinity, ...limits });
  }

  get(collection: string, id: string): StoredRecord | undefined {
    this.#use(collection);
    return this.#collections.get(collection)?.get(id);
  }

  list(collection: string): StoredRecord[] {
    this.#use(collection);
    return [...(this.#collections.get(collection)?.values() ?? [])];
  }

  put(collection: string, id: string, record: StoredRecord): StoreOutcome {
    const records = this.#collections.get(collection);
    if (!records?.has(id)) {
      if ((records?.size ?? 0) >= this.limits.collection) return 'collection-full';
      // The first record of an empty collection takes the place the collection held already.
      const places = records?.size === 0 ? 0 : 1;
      if (places > 0 && !this.#makeRoom(places, collection)) return 'state-full';
      this.#places += places;
    }
    this.#keep(collection);
    this.#open(collection).set(id, deepFreeze(record));
    this.#versions.set(collection, ++this.#changes);
    return 'stored';
  }

  seed(collection: string, records: ReadonlyArray<readonly [id: string, record: StoredRecord]>): StoreOutcome {
    if (this.#collections.has(collection)) return 'stored';
    // Counted by distinct id, as the collection holds them (two placeholders may draw one id).
    const places = placesOf(new Set(records.map(([id]) => id)).size);
    if (!this.#makeRoom(places)) return 'state-full';
    const map = this.#open(collection);
    for (const [id, record] of records) map.set(id, deepFreeze(record));
    this.#places += places;
    this.#evictable.set(collection, true);
    this.#evictablePlaces += places;
    this.#versions.set(collection, ++this.#changes);
    return 'stored';
  }

  delete(collection: string, id: string): boolean {
    const records = this.#collections.get(collection);
    if (!records?.has(id)) return false;
    this.#keep(collection);
    records.delete(id);
    // The last record's place stays with the now empty collection.
    if (records.size > 0) this.#places--;
    this.#versions.set(collection, ++this.#changes);
    return true;
  }

  version(collection: string): number {
    return this.#versions.get(collection) ?? 0;
  }

  has(collection: string): boolean {
    this.#use(collection);
    return this.#collections.has(collection);
  }

  count(collection?: string): number {
    return collection === undefined ? this.#places : (this.#collections.get(collection)?.size ?? 0);
  }

  snapshot(): StoreSnapshot {
    const out: StoreSnapshot = {};
    for (const [name, records] of this.#collections) out[name] = [...records.values()].map((r) => structuredClone(r));
    return out;
  }

  restore(snapshot: StoreSnapshot, idOf: (collection: string, record: StoredRecord) => string): void {
    this.#collections = new Map();
    this.#evictable = new Map();
    this.#evictablePlaces = 0;
    this.#places = 0;
    // Versions go on counting from where they were, so nothing kept from before a restore is taken as current.
    this.#versions = new Map(Object.keys(snapshot).map((name) => [name, ++this.#changes]));
    for (const [name, records] of Object.entries(snapshot)) {
      const map = this.#open(name);
      for (const record of records) map.set(idOf(name, record), deepFreeze(structuredClone(record)));
      this.#places += placesOf(map.size);
    }
  }

  info(): StoreInfo {
    return { kind: 'memory' };
  }

  close(): void {}

  #open(collection: string): Map<string, StoredRecord> {
    let records = this.#collections.get(collection);
    if (!records) this.#collections.set(collection, (records = new Map()));
    return records;
  }

  /** Moves an evictable collection to the most recently used end. */
  #use(collection: string): void {
    useRecent(this.#evictable, collection);
  }

  /** The collection is about to change: it can no longer be made again from the seed, so it is kept. */
  #keep(collection: string): void {
    if (this.#evictable.delete(collection)) this.#evictablePlaces -= placesOf(this.#collections.get(collection)!.size);
  }

  /**
   * Makes room for `places` more within the state limit, evicting least recently used collections (never `spare`,
   * the one being written to); `false`, with nothing evicted, when even evicting every other one would not do.
   */
  #makeRoom(places: number, spare?: string): boolean {
    const { state } = this.limits;
    if (this.#places + places <= state) return true;
    const spared = spare !== undefined && this.#evictable.has(spare) ? placesOf(this.count(spare)) : 0;
    if (this.#places - (this.#evictablePlaces - spared) + places > state) return false;
    for (const name of this.#evictable.keys()) {
      if (this.#places + places <= state) break;
      if (name !== spare) this.#evict(name);
    }
    return true;
  }

  #evict(collection: string): void {
    const places = placesOf(this.#collections.get(collection)!.size);
    this.#evictable.delete(collection);
    this.#evictablePlaces -= places;
    this.#places -= places;
    this.#collections.delete(collection);
    this.#versions.delete(collection);
  }
}

/** The places a collection of `size` records holds: its records, or one when it is empty. */
export function placesOf(size: number): number {
  return Math.max(size, 1);
}

/** Freezes a JSON value and everything in it (what is already frozen is taken as frozen through). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
