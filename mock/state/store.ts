// The state store: records by collection and id, behind an interface so other backends can follow.

/** A stored record: a JSON object. */
export type StoredRecord = Record<string, unknown>;

/** Everything a store holds, as plain JSON: collection path → records in insertion order. */
export type StoreSnapshot = Record<string, StoredRecord[]>;

/**
 * Where state lives. A collection is named by its concrete path (`/members/m1/passes`), so every
 * member's data is apart. A collection that exists, even empty, has been initialised.
 */
export interface Store {
  /** A record, read-only. */
  get(collection: string, id: string): StoredRecord | undefined;
  /** Records in insertion order (oldest first), read-only. */
  list(collection: string): StoredRecord[];
  /** Stores a record the caller hands over: it must not change it afterwards (the memory store freezes it). */
  put(collection: string, id: string, record: StoredRecord): void;
  /** Removes a record; `false` when there was none. */
  delete(collection: string, id: string): boolean;
  /** Whether the collection was initialised (created, seeded or restored). */
  has(collection: string): boolean;
  /** Marks a collection as initialised without records. */
  touch(collection: string): void;
  /**
   * A number that changes whenever the collection changes (put, delete, restore): answers made from it can be kept
   * until then.
   */
  version(collection: string): number;
  snapshot(): StoreSnapshot;
  /** Replaces everything with the snapshot; `idOf` names each record's key. */
  restore(snapshot: StoreSnapshot, idOf: (collection: string, record: StoredRecord) => string): void;
}

/**
 * The in-memory store. Records are frozen when they go in, so reads hand them out without copying: a list
 * of fifty records costs no clone on every request, and no caller can change the store by accident.
 * A put takes the record as it is (the mock made it for the store); a restore copies the snapshot first.
 */
export class MemoryStore implements Store {
  #collections = new Map<string, Map<string, StoredRecord>>();
  /** Counts every change of the store; a collection's version is the count at its last change. */
  #changes = 0;
  #versions = new Map<string, number>();

  get(collection: string, id: string): StoredRecord | undefined {
    return this.#collections.get(collection)?.get(id);
  }

  list(collection: string): StoredRecord[] {
    return [...(this.#collections.get(collection)?.values() ?? [])];
  }

  put(collection: string, id: string, record: StoredRecord): void {
    this.#open(collection).set(id, deepFreeze(record));
    this.#versions.set(collection, ++this.#changes);
  }

  delete(collection: string, id: string): boolean {
    const removed = this.#collections.get(collection)?.delete(id) ?? false;
    if (removed) this.#versions.set(collection, ++this.#changes);
    return removed;
  }

  version(collection: string): number {
    return this.#versions.get(collection) ?? 0;
  }

  has(collection: string): boolean {
    return this.#collections.has(collection);
  }

  touch(collection: string): void {
    this.#open(collection);
  }

  snapshot(): StoreSnapshot {
    const out: StoreSnapshot = {};
    for (const [name, records] of this.#collections) out[name] = [...records.values()].map((r) => structuredClone(r));
    return out;
  }

  restore(snapshot: StoreSnapshot, idOf: (collection: string, record: StoredRecord) => string): void {
    this.#collections = new Map();
    // Versions go on counting from where they were, so nothing kept from before a restore is taken as current.
    this.#versions = new Map(Object.keys(snapshot).map((name) => [name, ++this.#changes]));
    for (const [name, records] of Object.entries(snapshot)) {
      const map = this.#open(name);
      for (const record of records) map.set(idOf(name, record), deepFreeze(structuredClone(record)));
    }
  }

  #open(collection: string): Map<string, StoredRecord> {
    let records = this.#collections.get(collection);
    if (!records) this.#collections.set(collection, (records = new Map()));
    return records;
  }
}

/** Freezes a JSON value and everything in it (what is already frozen is taken as frozen through). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
