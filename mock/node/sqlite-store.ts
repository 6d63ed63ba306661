// The state store kept in a SQLite database: every change is committed before it returns, so a change a
// client was told about survives the process being killed.
import type { Database, Statement } from 'better-sqlite3';
import { WeightedLru } from '../lib/weighted-lru.js';
import { deepFreeze, jsonText } from '../lib/frozen-json.js';
import {
  ENTRY_COST,
  newOverlay,
  NO_PLACEHOLDERS,
  OVERLAY_COST,
  overlayCost,
  planDelete,
  planPut,
  recordCost,
  visibleCount,
  countChanged,
  forgetCounts,
  visibleRecord,
  visibleRecords,
  visiblePosition,
  writeRecord,
  dropRecord,
  type Overlay,
  type Placeholders,
} from '../state/overlay.js';
import { StateBudget } from '../state/state-budget.js';
import {
  type DeleteOutcome,
  type DerivePlaceholders,
  type Store,
  type StoreInfo,
  type StoreLimits,
  type StoreOutcome,
  type StoreSnapshot,
  type StoredRecord,
} from '../state/store.js';
import { keepWrapper, prepareKept } from './sqlite-wrappers.js';

/** Records (written and removed) of collections kept parsed in memory, least recently used dropped first. */
const CACHE_RECORDS = 20_000;

/**
 * A change the database refused (disk full, I/O error, a file made read-only), or one refused because the file
 * was deleted or replaced while the mock ran: nothing changed.
 */
export class StateWriteError extends Error {
  override name = 'StateWriteError';
  /**
   * For problems: `state.unsaved`, `state.disk.full` when the disk (or the database's page limit) is full, or
   * `state.file.gone` when the file at the path is no longer the one opened.
   */
  readonly type: string;
  constructor(
    message: string,
    readonly code: string | undefined,
    gone = false,
  ) {
    super(message);
    this.type = gone ? 'state.file.gone' : code === 'SQLITE_FULL' ? 'state.disk.full' : 'state.unsaved';
  }
}

/**
 * A store whose overlays live in SQLite: a `collections` row for each collection clients changed (`derived`:
 * over its placeholders, else restored whole), what was written as JSON texts in `records` in insertion order,
 * and the placeholders removed in `removed`. Placeholders are never written: they come from the seed. The
 * database is the only truth; the overlays read lately are kept parsed and frozen in memory (a bounded cache,
 * collections nobody changed included), so reads cost what the memory store's do.
 * @example
 * const { store } = await openStateFile('state.db', { limits: { budget }, initial: {}, accept, idOf });
 * store.put('/members/m1/passes', 'pas_1', { id: 'pas_1' }); // 'stored', committed when it returns
 */
export class SqliteStore implements Store {
  readonly limits: Readonly<StoreLimits>;
  #db: Database;
  #sql: ReturnType<typeof prepare>;
  #derive: DerivePlaceholders = () => NO_PLACEHOLDERS;
  /** Overlays read lately (`NO_OVERLAY`: the collection has none), past 20,000 records the least recently used go. */
  readonly #cache = new WeightedLru<string, Cached>(CACHE_RECORDS, (cached) => weightOf(overlayOf(cached)));
  #changes = 0;
  #records: number;
  #charged: number;
  #seq: number;
  #lastError: StoreInfo['lastError'];
  #failing = false;
  /** Writes that failed or were refused since the file was opened (metrics count them). */
  #errors = 0;
  /** Why the file at its path is no longer the one opened (see {@link SqliteStore.guardFile}). */
  #lost: () => string | undefined = () => undefined;

  constructor(db: Database, limits: Partial<StoreLimits> = {}) {
    this.limits = Object.freeze({ collection: Infinity, budget: new StateBudget(Number.MAX_SAFE_INTEGER), ...limits });
    this.#db = keepWrapper(db);
    this.#sql = prepare(db);
    const usage = this.#sql.usage.get() as { records: number; bytes: number };
    this.#records = usage.records;
    this.#charged = usage.bytes;
    // What the file holds was answered as written: it is never refused, but counts.
    this.limits.budget.charge(this.#charged, true);
    this.#seq = (this.#sql.lastSeq.pluck().get() as number | null) ?? 0;
  }

  /**
   * From now on, `lost` is asked before every change and by {@link SqliteStore.info}: while it gives a reason (the
   * file at its path was deleted or replaced, see guardStateFile), changes are refused and health fails, instead
   * of being answered as saved into a file no later start will open.
   */
  guardFile(lost: () => string | undefined): void {
    this.#lost = lost;
  }

  usePlaceholders(derive: DerivePlaceholders): void {
    this.#derive = derive;
    forgetCounts(Array.from(this.#cache.values(), overlayOf));
  }

  get(collection: string, id: string): StoredRecord | undefined {
    const overlay = this.#overlay(collection);
    return visibleRecord(overlay, this.#base(overlay, collection), id);
  }

  list(collection: string): StoredRecord[] {
    const overlay = this.#overlay(collection);
    return visibleRecords(overlay, this.#base(overlay, collection));
  }

  count(collection: string): number {
    const overlay = this.#overlay(collection);
    return visibleCount(overlay, this.#base(overlay, collection));
  }

  position(collection: string, id: string): number | undefined {
    const overlay = this.#overlay(collection);
    return visiblePosition(overlay, this.#base(overlay, collection), id);
  }

  put(collection: string, id: string, record: StoredRecord): StoreOutcome {
    const overlay = this.#overlay(collection);
    // Frozen first: its text is written out once, for its charge, the file and the reply (see jsonText).
    const frozen = deepFreeze(record);
    const put = planPut(overlay, this.#base(overlay, collection), {
      collection,
      id,
      record,
      limit: this.limits.collection,
    });
    if ('refused' in put) return put.refused;
    if (!this.#fits(put.cost)) return 'state-full';
    this.#write(() => {
      if (!overlay) this.#sql.addCollection.run(collection, ++this.#seq, 1);
      this.#sql.upsert.run(collection, id, ++this.#seq, jsonText(frozen));
    });
    // Committed: only now does memory follow. A new row's seq is its position; a row written before keeps its own.
    const kept = overlay ?? this.#opened(collection);
    writeRecord(kept, id, frozen, this.#seq);
    countChanged(kept, put.shown ? 1 : 0);
    kept.version = ++this.#changes;
    if (put.added) {
      this.#records++;
      this.#cache.grew(1);
    }
    this.#charge(put.cost);
    return 'stored';
  }

  delete(collection: string, id: string): DeleteOutcome {
    const overlay = this.#overlay(collection);
    const plan = planDelete(overlay, this.#base(overlay, collection), collection, id);
    if (plan === 'missing') return plan;
    if (!this.#fits(plan.cost)) return 'state-full';
    this.#write(() => {
      if (!overlay) this.#sql.addCollection.run(collection, ++this.#seq, 1);
      if (plan.written) this.#sql.remove.run(collection, id);
      if (plan.hides) this.#sql.hide.run(collection, id);
    });
    const kept = overlay ?? this.#opened(collection);
    if (plan.written) {
      dropRecord(kept, id);
      this.#records--;
    }
    if (plan.hides) kept.removed.add(id);
    countChanged(kept, -1);
    this.#cache.grew((plan.hides ? 1 : 0) - (plan.written ? 1 : 0));
    kept.version = ++this.#changes;
    this.#charge(plan.cost);
    return 'deleted';
  }

  version(collection: string): number {
    return this.#overlay(collection)?.version ?? 0;
  }

  usage(): { records: number; bytes: number } {
    return { records: this.#records, bytes: this.#charged };
  }

  *collections(): Generator<string> {
    // A page at a time, each read whole: an open cursor would keep the connection busy between pieces.
    let after = 0;
    for (;;) {
      const page = this.#sql.collectionsAfter.all(after, 500) as { name: string; seq: number }[];
      for (const { name } of page) yield name;
      if (page.length < 500) return;
      after = page.at(-1)!.seq;
    }
  }

  snapshot(): StoreSnapshot {
    const out: StoreSnapshot = {};
    for (const { name } of this.#sql.collections.all() as { name: string }[]) {
      const cached = this.#cache.get(name);
      const overlay = cached === undefined || cached === NO_OVERLAY ? this.#read(name) : cached;
      out[name] = visibleRecords(overlay, this.#base(overlay, name)).map((r) => structuredClone(r));
    }
    return out;
  }

  restore(
    snapshot: StoreSnapshot,
    idOf: (collection: string, record: StoredRecord) => string,
    charged = false,
  ): 'stored' | 'state-full' {
    let cost = 0;
    let records = 0;
    const collections = Object.entries(snapshot).map(([name, list]) => {
      const map = new Map<string, StoredRecord>();
      for (const record of list) map.set(idOf(name, record), record);
      for (const [id, record] of map) cost += recordCost(id, record);
      cost += overlayCost(name);
      records += map.size;
      return [name, map] as const;
    });
    const { budget } = this.limits;
    if (charged && budget.used - this.#charged + cost > budget.bytes) return 'state-full';
    this.#write(() => {
      this.#sql.clearRecords.run();
      this.#sql.clearRemoved.run();
      this.#sql.clearCollections.run();
      for (const [name, map] of collections) {
        this.#sql.addCollection.run(name, ++this.#seq, 0);
        for (const [id, record] of map) this.#sql.upsert.run(name, id, ++this.#seq, JSON.stringify(record));
      }
    });
    budget.release(this.#charged);
    budget.charge(cost, true);
    this.#charged = cost;
    this.#records = records;
    this.#cache.clear();
    // Versions go on counting: nothing kept from before a restore is taken as current.
    this.#changes++;
    return 'stored';
  }

  info(): StoreInfo {
    const { name: file } = this.#db;
    const lost = this.#checkFile() !== undefined;
    const lastError = this.#lastError ? { lastError: this.#lastError } : {};
    const info = { kind: 'sqlite', file, failing: this.#failing, lost, errors: this.#errors } as const;
    return { ...info, cached: this.#cache.weight, ...lastError };
  }

  close(): void {
    this.limits.budget.release(this.#charged);
    this.#charged = 0;
    if (this.#db.open) this.#db.close();
  }

  #base(overlay: Overlay | null, collection: string): Placeholders {
    return overlay === null || overlay.derived ? this.#derive(collection) : NO_PLACEHOLDERS;
  }

  /** A collection's overlay, from the cache or read from the database (and cached); `null` when it has none. */
  #overlay(collection: string): Overlay | null {
    const hit = this.#cache.get(collection);
    if (hit !== undefined) return overlayOf(hit);
    const overlay = this.#read(collection);
    this.#cacheAdd(collection, overlay);
    return overlay;
  }

  /** A collection's overlay as the database holds it, `null` when it has none. */
  #read(collection: string): Overlay | null {
    const row = this.#sql.collection.get(collection) as { derived: number } | undefined;
    if (row === undefined) return null;
    const overlay = newOverlay(row.derived === 1, ++this.#changes);
    // `all`, not `iterate`: an iterator would be a wrapper left to the garbage collector (see sqlite-wrappers.ts).
    const rows = this.#sql.list.all(collection) as { id: string; seq: number; body: string }[];
    for (const { id, seq, body } of rows) writeRecord(overlay, id, deepFreeze(JSON.parse(body) as StoredRecord), seq);
    for (const id of this.#sql.removed.pluck().all(collection) as string[]) overlay.removed.add(id);
    return overlay;
  }

  /** A new overlay for a collection just written to the database for the first time. */
  #opened(collection: string): Overlay {
    const overlay = newOverlay(true, 0);
    this.#cacheAdd(collection, overlay);
    return overlay;
  }

  /** Keeps a collection's overlay in the cache, letting the least recently used others go past its size. */
  #cacheAdd(collection: string, overlay: Overlay | null): void {
    this.#cache.set(collection, overlay ?? NO_OVERLAY);
  }

  /** Whether the budget has room for `cost` (a change that gives back always fits). */
  #fits(cost: number): boolean {
    return cost <= 0 || this.limits.budget.used + cost <= this.limits.budget.bytes;
  }

  #charge(cost: number): void {
    if (cost >= 0) this.limits.budget.charge(cost, true);
    else this.limits.budget.release(-cost);
    this.#charged += cost;
  }

  /** The error for a file deleted or replaced while the mock ran (kept for health), or `undefined`. */
  #checkFile(): StateWriteError | undefined {
    const lost = this.#lost();
    if (lost === undefined) return undefined;
    const message = `${lost}: changes are refused, as they would be lost with it; restart the mock to use the file at that path`;
    this.#failing = true;
    if (this.#lastError?.message !== message) this.#lastError = { message, at: new Date().toISOString() };
    return new StateWriteError(message, undefined, true);
  }

  /** Runs the statements in one transaction, committed when it returns; a failure changes nothing and is kept. */
  #write(statements: () => void): void {
    const gone = this.#checkFile();
    if (gone) {
      this.#errors++;
      throw gone;
    }
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
      this.#errors++;
      if (own && this.#db.inTransaction) this.#sql.rollback.run();
      this.#seq = seq;
      const { message, code } = error as Error & { code?: string };
      this.#lastError = { message, at: new Date().toISOString() };
      throw new StateWriteError(`The state file ${this.#db.name} could not be written: ${message}`, code);
    }
  }
}

/** A collection the database holds no overlay of, as the cache keeps it (lru-cache keeps no `null`). */
const NO_OVERLAY = Symbol('no overlay');
type Cached = Overlay | typeof NO_OVERLAY;
const overlayOf = (cached: Cached): Overlay | null => (cached === NO_OVERLAY ? null : cached);

/** What an overlay weighs in the cache: its records and removed ids, and one for itself. */
function weightOf(overlay: Overlay | null): number {
  return overlay === null ? 1 : overlay.written.size + overlay.removed.size + 1;
}

function prepare(db: Database) {
  const statement = (sql: string): Statement => prepareKept(db, sql);
  // What the file holds is charged as the stores charge it (see overlay.ts): texts, ids and a share a row.
  const [entry, overlay] = [ENTRY_COST, OVERLAY_COST];
  return {
    usage: statement(
      `SELECT (SELECT count(*) FROM records) AS records, ` +
        `(SELECT coalesce(sum(length(body) + length(id) + ${entry}), 0) FROM records) + ` +
        `(SELECT coalesce(sum(length(id) + ${entry}), 0) FROM removed) + ` +
        `(SELECT coalesce(sum(length(name) + ${overlay}), 0) FROM collections) AS bytes`,
    ),
    lastSeq: statement(
      'SELECT max(seq) FROM (SELECT max(seq) AS seq FROM records UNION ALL SELECT max(seq) FROM collections)',
    ),
    collection: statement('SELECT derived FROM collections WHERE name = ?'),
    list: statement('SELECT id, seq, body FROM records WHERE collection = ? ORDER BY seq'),
    removed: statement('SELECT id FROM removed WHERE collection = ?'),
    collections: statement('SELECT name FROM collections ORDER BY seq'),
    collectionsAfter: statement('SELECT name, seq FROM collections WHERE seq > ? ORDER BY seq LIMIT ?'),
    addCollection: statement(
      'INSERT INTO collections (name, seq, derived) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
    ),
    upsert: statement(
      'INSERT INTO records (collection, id, seq, body) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (collection, id) DO UPDATE SET body = excluded.body',
    ),
    remove: statement('DELETE FROM records WHERE collection = ? AND id = ?'),
    hide: statement('INSERT INTO removed (collection, id) VALUES (?, ?) ON CONFLICT DO NOTHING'),
    begin: statement('BEGIN IMMEDIATE'),
    commit: statement('COMMIT'),
    rollback: statement('ROLLBACK'),
    clearRecords: statement('DELETE FROM records'),
    clearRemoved: statement('DELETE FROM removed'),
    clearCollections: statement('DELETE FROM collections'),
  };
}
