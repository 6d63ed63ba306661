// The state store kept in a SQLite database: every change is committed before it returns, so a change a
// client was told about survives the process being killed.
import type { Database, Statement } from 'better-sqlite3';
import { useRecent } from '../memo/use-recent.js';
import {
  deepFreeze,
  placesOf,
  type Store,
  type StoreInfo,
  type StoreLimits,
  type StoreOutcome,
  type StoreSnapshot,
  type StoredRecord,
} from './store.js';

/** Records kept parsed in memory, by whole collections, least recently used dropped first. */
const CACHE_RECORDS = 20_000;
/** Places placeholders may hold in memory: they are never written, and come back the same when dropped. */
const PLACEHOLDER_PLACES = 1500;

/** A change the database refused (disk full, I/O error, a file made read-only): nothing changed. */
export class StateWriteError extends Error {
  override name = 'StateWriteError';
  /** For problems: `state.unsaved`, or `state.disk.full` when the disk (or the database's page limit) is full. */
  readonly type: string;
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.type = code === 'SQLITE_FULL' ? 'state.disk.full' : 'state.unsaved';
  }
}

/**
 * A store whose collections live in SQLite: records are JSON texts in a `records` table, in insertion
 * order, and a collection that exists (even emptied) has a row in `collections`. The database is the only
 * truth; what is read lately is kept parsed and frozen in memory (a bounded cache of whole collections), so
 * reads cost what the memory store's do.
 *
 * Placeholders ({@link Store.seed}) are never written: they come back the same from the seed, so they stay
 * in memory, evictable, until a change to their collection writes them all (with the change) in one
 * transaction. Limits count both, as the memory store does.
 * @example
 * const { store } = await openStateFile('state.db', { limits: { state: 1_000_000 }, initial: {}, accept, idOf });
 * store.put('/members/m1/passes', 'pas_1', { id: 'pas_1' }); // 'stored', committed when it returns
 */
export class SqliteStore implements Store {
  readonly limits: Readonly<StoreLimits>;
  #db: Database;
  #sql: ReturnType<typeof prepare>;
  /** Collections in the database and their sizes. */
  #sizes = new Map<string, number>();
  #durablePlaces = 0;
  /** Seeded collections (memory only), least recently used first, and the places they hold. */
  #placeholders = new Map<string, Map<string, StoredRecord>>();
  #placeholderPlaces = 0;
  /** Database collections read lately, least recently used first, and how many records they hold. */
  #cache = new Map<string, Map<string, StoredRecord>>();
  #cachedRecords = 0;
  #versions = new Map<string, number>();
  #changes = 0;
  #seq: number;
  #lastError: StoreInfo['lastError'];
  #failing = false;

  constructor(db: Database, limits: Partial<StoreLimits> = {}) {
    this.limits = Object.freeze({ collection: Infinity, state: Infinity, ...limits });
    this.#db = db;
    this.#sql = prepare(db);
    for (const { name, size } of this.#sql.sizes.all() as { name: string; size: number }[]) {
      this.#sizes.set(name, size);
      this.#durablePlaces += placesOf(size);
    }
    this.#seq = (this.#sql.lastSeq.pluck().get() as number | null) ?? 0;
  }

  get(collection: string, id: string): StoredRecord | undefined {
    return this.#records(collection)?.get(id);
  }

  list(collection: string): StoredRecord[] {
    return [...(this.#records(collection)?.values() ?? [])];
  }

  put(collection: string, id: string, record: StoredRecord): StoreOutcome {
    const seeded = this.#placeholders.get(collection);
    const cached = seeded ? undefined : useRecent(this.#cache, collection);
    const size = seeded ? seeded.size : this.#sizes.get(collection);
    const exists = (seeded ?? cached)?.has(id) ?? (size !== undefined && this.#has(collection, id));
    if (!exists) {
      if ((size ?? 0) >= this.limits.collection) return 'collection-full';
      const places = size === 0 ? 0 : 1;
      if (places > 0 && !this.#makeRoom(places, collection)) return 'state-full';
    }
    const frozen = deepFreeze(record);
    this.#write(() => {
      if (seeded) this.#insertCollection(collection, seeded);
      else if (size === undefined) this.#sql.addCollection.run(collection, ++this.#seq);
      this.#sql.upsert.run(collection, id, ++this.#seq, JSON.stringify(frozen));
    });
    // Committed: only now does memory follow.
    if (seeded) {
      this.#dropPlaceholders(collection);
      seeded.set(id, frozen);
      this.#cacheAdd(collection, seeded);
    } else if (cached) {
      cached.set(id, frozen);
      if (!exists) this.#cachedRecords++;
    }
    this.#settle(collection, (size ?? 0) + (exists ? 0 : 1));
    return 'stored';
  }

  seed(collection: string, records: ReadonlyArray<readonly [id: string, record: StoredRecord]>): StoreOutcome {
    if (this.has(collection)) return 'stored';
    const map = new Map<string, StoredRecord>();
    for (const [id, record] of records) map.set(id, deepFreeze(record));
    const places = placesOf(map.size);
    if (places > PLACEHOLDER_PLACES || !this.#makeRoom(places)) return 'state-full';
    this.#placeholders.set(collection, map);
    this.#placeholderPlaces += places;
    this.#versions.set(collection, ++this.#changes);
    return 'stored';
  }

  delete(collection: string, id: string): boolean {
    const seeded = this.#placeholders.get(collection);
    const cached = seeded ? undefined : useRecent(this.#cache, collection);
    const size = seeded ? seeded.size : this.#sizes.get(collection);
    const exists = (seeded ?? cached)?.has(id) ?? (size !== undefined && this.#has(collection, id));
    if (!exists) return false;
    this.#write(() => {
      if (seeded) this.#insertCollection(collection, seeded, id);
      else this.#sql.remove.run(collection, id);
    });
    if (seeded) {
      this.#dropPlaceholders(collection);
      seeded.delete(id);
      this.#cacheAdd(collection, seeded);
    } else if (cached) {
      cached.delete(id);
      this.#cachedRecords--;
    }
    this.#settle(collection, size! - 1);
    return true;
  }

  has(collection: string): boolean {
    return useRecent(this.#placeholders, collection) !== undefined || this.#sizes.has(collection);
  }

  count(collection?: string): number {
    if (collection === undefined) return this.#durablePlaces + this.#placeholderPlaces;
    return this.#placeholders.get(collection)?.size ?? this.#sizes.get(collection) ?? 0;
  }

  version(collection: string): number {
    return this.#versions.get(collection) ?? 0;
  }

  snapshot(): StoreSnapshot {
    const out: StoreSnapshot = {};
    for (const { name } of this.#sql.collections.all() as { name: string }[]) out[name] = [];
    for (const { collection, body } of this.#sql.all.iterate() as Iterable<{ collection: string; body: string }>)
      out[collection]!.push(JSON.parse(body) as StoredRecord);
    for (const [name, records] of this.#placeholders) out[name] = [...records.values()].map((r) => structuredClone(r));
    return out;
  }

  restore(snapshot: StoreSnapshot, idOf: (collection: string, record: StoredRecord) => string): void {
    const collections = Object.entries(snapshot).map(([name, records]) => {
      const map = new Map<string, StoredRecord>();
      for (const record of records) map.set(idOf(name, record), record);
      return [name, map] as const;
    });
    this.#write(() => {
      this.#sql.clearRecords.run();
      this.#sql.clearCollections.run();
      for (const [name, records] of collections) this.#insertCollection(name, records);
    });
    this.#sizes = new Map(collections.map(([name, records]) => [name, records.size]));
    this.#durablePlaces = collections.reduce((sum, [, records]) => sum + placesOf(records.size), 0);
    this.#placeholders = new Map();
    this.#placeholderPlaces = 0;
    this.#cache = new Map();
    this.#cachedRecords = 0;
    this.#versions = new Map(collections.map(([name]) => [name, ++this.#changes]));
  }

  info(): StoreInfo {
    const { name: file } = this.#db;
    const lastError = this.#lastError ? { lastError: this.#lastError } : {};
    return { kind: 'sqlite', file, failing: this.#failing, cached: this.#cachedRecords, ...lastError };
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }

  /** A collection's records: placeholders, or the database's (loaded into the cache when not there). */
  #records(collection: string): Map<string, StoredRecord> | undefined {
    return useRecent(this.#placeholders, collection) ?? this.#loaded(collection);
  }

  /** A database collection's records, from the cache or read whole (and cached); `undefined` when it has none. */
  #loaded(collection: string): Map<string, StoredRecord> | undefined {
    const hit = useRecent(this.#cache, collection);
    if (hit || !this.#sizes.has(collection)) return hit;
    const records = new Map<string, StoredRecord>();
    for (const { id, body } of this.#sql.list.iterate(collection) as Iterable<{ id: string; body: string }>)
      records.set(id, deepFreeze(JSON.parse(body) as StoredRecord));
    this.#cacheAdd(collection, records);
    return records;
  }

  /** Keeps a collection's records in the cache, letting the least recently used others go past its size. */
  #cacheAdd(collection: string, records: Map<string, StoredRecord>): void {
    this.#cache.set(collection, records);
    this.#cachedRecords += records.size;
    for (const [name, held] of this.#cache) {
      if (this.#cachedRecords <= CACHE_RECORDS || name === collection) break;
      this.#cache.delete(name);
      this.#cachedRecords -= held.size;
    }
  }

  /** Whether a database collection holds the id, asked of the database (the collection is not in the cache). */
  #has(collection: string, id: string): boolean {
    return this.#sql.exists.get(collection, id) !== undefined;
  }

  /** After a committed change: the collection's size, places and version. */
  #settle(collection: string, size: number): void {
    const before = this.#sizes.get(collection);
    this.#durablePlaces += placesOf(size) - (before === undefined ? 0 : placesOf(before));
    this.#sizes.set(collection, size);
    this.#versions.set(collection, ++this.#changes);
  }

  /** Writes a collection and its records (but `except`). */
  #insertCollection(collection: string, records: Map<string, StoredRecord>, except?: string): void {
    this.#sql.addCollection.run(collection, ++this.#seq);
    for (const [id, record] of records)
      if (id !== except) this.#sql.upsert.run(collection, id, ++this.#seq, JSON.stringify(record));
  }

  #dropPlaceholders(collection: string): void {
    const records = this.#placeholders.get(collection);
    if (!records) return;
    this.#placeholders.delete(collection);
    this.#placeholderPlaces -= placesOf(records.size);
  }

  /** Runs the statements in one transaction, committed when it returns; a failure changes nothing and is kept. */
  #write(statements: () => void): void {
    const seq = this.#seq;
    // Within a transaction of the caller's (a new file's first state), the caller commits.
    const own = !this.#db.inTransaction;
    try {
      if (own) this.#sql.begin.run();
      statements();
      if (own) this.#sql.commit.run();
      this.#failing = false;
    } catch (error) {
      this.#failing = true;
      if (own && this.#db.inTransaction) this.#sql.rollback.run();
      this.#seq = seq;
      const { message, code } = error as Error & { code?: string };
      this.#lastError = { message, at: new Date().toISOString() };
      throw new StateWriteError(`The state file ${this.#db.name} could not be written: ${message}`, code);
    }
  }

  /**
   * Makes room for `places` more within the state limit by dropping placeholders (never `spare`'s), least
   * recently used first; `false`, with nothing dropped, when that would not do.
   */
  #makeRoom(places: number, spare?: string): boolean {
    const { state } = this.limits;
    const held = () => this.#durablePlaces + this.#placeholderPlaces;
    if (held() + places <= state) return true;
    const own = spare === undefined ? undefined : this.#placeholders.get(spare);
    const spared = own ? placesOf(own.size) : 0;
    if (held() - (this.#placeholderPlaces - spared) + places > state) return false;
    for (const name of this.#placeholders.keys()) {
      if (held() + places <= state) break;
      if (name === spare) continue;
      this.#dropPlaceholders(name);
      this.#versions.delete(name);
    }
    return true;
  }
}

function prepare(db: Database) {
  const statement = (sql: string): Statement => db.prepare(sql);
  return {
    sizes: statement(
      'SELECT c.name AS name, (SELECT count(*) FROM records r WHERE r.collection = c.name) AS size FROM collections c',
    ),
    lastSeq: statement(
      'SELECT max(seq) FROM (SELECT max(seq) AS seq FROM records UNION ALL SELECT max(seq) FROM collections)',
    ),
    list: statement('SELECT id, body FROM records WHERE collection = ? ORDER BY seq'),
    all: statement('SELECT collection, body FROM records ORDER BY collection, seq'),
    collections: statement('SELECT name FROM collections ORDER BY seq'),
    addCollection: statement('INSERT INTO collections (name, seq) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'),
    upsert: statement(
      'INSERT INTO records (collection, id, seq, body) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (collection, id) DO UPDATE SET body = excluded.body',
    ),
    remove: statement('DELETE FROM records WHERE collection = ? AND id = ?'),
    exists: statement('SELECT 1 FROM records WHERE collection = ? AND id = ?'),
    begin: statement('BEGIN IMMEDIATE'),
    commit: statement('COMMIT'),
    rollback: statement('ROLLBACK'),
    clearRecords: statement('DELETE FROM records'),
    clearCollections: statement('DELETE FROM collections'),
  };
}
