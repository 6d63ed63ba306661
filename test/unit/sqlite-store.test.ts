import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import { createStateTables, openStateFile } from '../../mock/node/open-state-file.js';
import { SqliteStore, StateWriteError } from '../../mock/node/sqlite-store.js';
import type { StoredRecord, StoreLimits, StoreSnapshot } from '../../mock/state/store.js';

// What every store does is in store.test.ts (run against both); here, what the database adds.

const PASSES = '/members/m1/passes';
const opened: SqliteStore[] = [];
afterEach(() => opened.splice(0).forEach((store) => store.close()));

function inMemory(limits: Partial<StoreLimits> = {}): { store: SqliteStore; db: Database.Database } {
  const db = new Database(':memory:');
  createStateTables(db);
  const store = new SqliteStore(db, limits);
  opened.push(store);
  return { store, db };
}

async function onDisk(file: string, initial: StoreSnapshot = {}): Promise<SqliteStore> {
  const { store } = await openStateFile(file, {
    limits: {},
    initial,
    accept: (state) => state as StoreSnapshot,
    idOf: (_, record: StoredRecord) => String(record.id),
  });
  opened.push(store);
  return store;
}

/** Placeholders `a` and `b` in every collection. */
function placeholders(store: SqliteStore): SqliteStore {
  store.usePlaceholders(
    () =>
      new Map(
        [
          ['a', { id: 'a' }],
          ['b', { id: 'b' }],
        ].map(([id, r]) => [id as string, r as StoredRecord]),
      ),
  );
  return store;
}

/** The rows of each table of a state file. */
function rowsOf(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
    return { records: count('records'), removed: count('removed'), collections: count('collections') };
  } finally {
    db.close();
  }
}

const tempFile = async () => join(await mkdtemp(join(tmpdir(), 'sqlite-store-')), 'state.db');

describe('SqliteStore', () => {
  test('what it stored is in the file when it returns: a new store on the file reads it, in order', async () => {
    const file = await tempFile();
    const first = await onDisk(file);
    first.put(PASSES, 'p1', { id: 'p1', name: 'Gold' });
    first.put(PASSES, 'p2', { id: 'p2' });
    first.put(PASSES, 'p1', { id: 'p1', name: 'Silver' });
    first.put('/members/m2/passes', 'x', { id: 'x' });
    first.delete('/members/m2/passes', 'x');
    const usage = first.usage();
    first.close();

    const second = await onDisk(file);
    expect(second.list(PASSES)).toEqual([{ id: 'p1', name: 'Silver' }, { id: 'p2' }]);
    expect(second.snapshot()['/members/m2/passes']).toEqual([]);
    expect(second.usage()).toEqual(usage);
    expect(second.usage().records).toBe(2);
  });

  test('a record keeps its position in the file: a new store on the file places it where it was', async () => {
    const file = await tempFile();
    const first = await onDisk(file);
    for (const id of ['p1', 'p2', 'p3']) first.put(PASSES, id, { id });
    first.delete(PASSES, 'p2');
    const positions = ['p1', 'p3'].map((id) => first.position(PASSES, id));
    first.close();

    const second = await onDisk(file);
    expect(['p1', 'p3'].map((id) => second.position(PASSES, id))).toEqual(positions);
    second.put(PASSES, 'p4', { id: 'p4' });
    expect(second.position(PASSES, 'p4')).toBeGreaterThan(positions[1]!);
  });

  test('placeholders never go in the file: what clients changed does, and reads back over them', async () => {
    const file = await tempFile();
    const first = placeholders(await onDisk(file));
    first.list('/members/m2/passes');
    first.delete(PASSES, 'a');
    first.put(PASSES, 'n', { id: 'n' });
    first.close();
    expect(rowsOf(file)).toEqual({ records: 1, removed: 1, collections: 1 });

    const second = placeholders(await onDisk(file));
    expect(second.snapshot()).toEqual({ [PASSES]: [{ id: 'b' }, { id: 'n' }] });
    expect(second.list('/members/m2/passes')).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  test('a state file of layout 1 (collections written whole) opens as restored collections, and takes changes', async () => {
    const file = await tempFile();
    const old = new Database(file);
    old.exec(`
      CREATE TABLE collections (name TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE records (
        collection TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL,
        PRIMARY KEY (collection, id)
      ) WITHOUT ROWID;
      INSERT INTO collections VALUES ('${PASSES}', 1);
      INSERT INTO records VALUES ('${PASSES}', 'old', 2, '{"id":"old"}');
      PRAGMA application_id = ${0x4d4d434b}; PRAGMA user_version = 1;
    `);
    old.close();
    const store = placeholders(await onDisk(file));
    expect(store.list(PASSES)).toEqual([{ id: 'old' }]);
    expect(store.delete(PASSES, 'old')).toBe('deleted');
    store.close();
    expect(placeholders(await onDisk(file)).list(PASSES)).toEqual([]);
  });

  test('a write the database refuses throws, changes nothing, and health sees it until a write succeeds', () => {
    const { store, db } = inMemory();
    store.put(PASSES, 'p1', { id: 'p1' });
    const version = store.version(PASSES);
    db.pragma('query_only = ON');

    expect(() => store.put(PASSES, 'p2', { id: 'p2' })).toThrow(StateWriteError);
    expect(() => store.delete(PASSES, 'p1')).toThrow(expect.objectContaining({ type: 'state.unsaved' }));
    expect(store.list(PASSES)).toEqual([{ id: 'p1' }]);
    expect([store.usage().records, store.version(PASSES)]).toEqual([1, version]);
    expect(store.info()).toMatchObject({
      kind: 'sqlite',
      failing: true,
      errors: 2,
      lastError: { message: expect.stringContaining('readonly'), at: expect.any(String) },
    });

    db.pragma('query_only = OFF');
    expect(store.put(PASSES, 'p2', { id: 'p2' })).toBe('stored');
    // The failed writes stay counted (metrics read them as a counter) once writing works again.
    expect(store.info()).toMatchObject({ failing: false, errors: 2, lastError: expect.any(Object) });
  });

  /** Puts a copy of `path` in its place, as a restore from a backup does. */
  const replace = (path: string) => {
    copyFileSync(path, `${path}.copy`);
    renameSync(`${path}.copy`, path);
  };

  test.each([
    ['deleted', 'The state file FILE was deleted', (file: string) => rmSync(file)],
    ['replaced', 'The state file FILE was replaced by another file', replace],
    [
      'whose log is deleted',
      "The state file's write-ahead log FILE-wal was deleted",
      (file: string) => rmSync(`${file}-wal`),
    ],
    [
      'whose log is replaced',
      "The state file's write-ahead log FILE-wal was replaced by another file",
      (file: string) => replace(`${file}-wal`),
    ],
  ])('a file %s while open makes health fail at once, and refuses every change after', async (_, why, change) => {
    const file = await tempFile();
    const store = await onDisk(file);
    store.put(PASSES, 'p1', { id: 'p1' });
    change(file);
    const reason = `${why.replace('FILE', file)} while the mock ran`;

    expect(store.info()).toMatchObject({ failing: true, lastError: { message: expect.stringContaining(reason) } });
    const gone = expect.objectContaining({ type: 'state.file.gone', message: expect.stringContaining(reason) });
    expect(() => store.put(PASSES, 'p2', { id: 'p2' })).toThrow(gone);
    expect(() => store.delete(PASSES, 'p1')).toThrow(gone);
    expect(() => store.restore({}, (_, record) => String(record.id))).toThrow(gone);
    expect(store.list(PASSES)).toEqual([{ id: 'p1' }]);
    expect(store.info()).toMatchObject({ failing: true, errors: 3 });
  });

  test('a file put back where it was is written to again', async () => {
    const file = await tempFile();
    const store = await onDisk(file);
    renameSync(file, `${file}.moved`);
    expect(() => store.put(PASSES, 'p1', { id: 'p1' })).toThrow(StateWriteError);
    renameSync(`${file}.moved`, file);
    expect(store.put(PASSES, 'p1', { id: 'p1' })).toBe('stored');
    expect(store.info()).toMatchObject({ failing: false });
  });

  test('a full disk is told apart from other failures, so it can be answered 507', () => {
    const { store, db } = inMemory();
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const big = 'x'.repeat(100_000);
    expect(() => store.put(PASSES, 'p1', { id: 'p1', big })).toThrow(
      expect.objectContaining({ type: 'state.disk.full', code: 'SQLITE_FULL' }),
    );
    expect(store.snapshot()).toEqual({});
  });

  test('a change that fails leaves the collection its placeholders, in memory and in the file', () => {
    const { store, db } = inMemory();
    placeholders(store);
    db.pragma('query_only = ON');
    expect(() => store.put(PASSES, 'n', { id: 'n' })).toThrow(StateWriteError);
    expect(() => store.delete(PASSES, 'a')).toThrow(StateWriteError);
    db.pragma('query_only = OFF');
    expect(store.list(PASSES)).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect([store.snapshot(), store.usage()]).toEqual([{}, { records: 0, bytes: 0 }]);
    expect(db.prepare('SELECT count(*) FROM collections').pluck().get()).toBe(0);
  });

  test('collections read back after the cache let them go are the same records, writes included', () => {
    const { store } = inMemory();
    // 25 collections of 1000: more than the 20,000 records kept parsed, so the first ones are read again.
    const state = Object.fromEntries(
      Array.from({ length: 25 }, (_, c) => [
        `/members/m${c}/passes`,
        Array.from({ length: 1000 }, (_, i) => ({ id: `p${i}`, n: i })),
      ]),
    );
    store.restore(state, (_, record) => String(record.id));
    for (let c = 0; c < 25; c++) store.put(`/members/m${c}/passes`, `new${c}`, { id: `new${c}` });
    for (let c = 0; c < 25; c++) store.delete(`/members/m${c}/passes`, 'p0');
    for (let c = 0; c < 25; c++) expect(store.list(`/members/m${c}/passes`)).toHaveLength(1000);
    expect(store.get('/members/m0/passes', 'p999')).toEqual({ id: 'p999', n: 999 });
    expect(store.get('/members/m0/passes', 'new0')).toEqual({ id: 'new0' });
    expect(store.get('/members/m0/passes', 'p0')).toBeUndefined();
    expect(store.usage().records).toBe(25_000);
    expect(Object.isFrozen(store.get('/members/m0/passes', 'p1'))).toBe(true);
  });

  test('keeps at most 20,000 records parsed, counting what writes add and take away', () => {
    const { store } = inMemory();
    const collection = (c: number) => `/members/m${c}/passes`;
    const records = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `p${i}` }));
    store.restore(
      Object.fromEntries(Array.from({ length: 21 }, (_, c) => [collection(c), records(1000)])),
      (_, record) => String(record.id),
    );
    expect(store.info().cached).toBe(0);
    store.list(collection(0));
    store.put(collection(0), 'new', { id: 'new' });
    store.put(collection(0), 'new', { id: 'new', again: true });
    expect(store.info().cached).toBe(1002);
    store.delete(collection(0), 'p0');
    store.delete(collection(0), 'p1');
    // 1001 records and one for the collection.
    expect(store.info().cached).toBe(1000);
    for (let c = 1; c < 21; c++) store.list(collection(c));
    // 1000 + 20 × 1001 is past the bound: the least recently used collections (m0, then m1) went.
    expect(store.info().cached).toBe(19_019);
    store.put(collection(5), 'x', { id: 'x' });
    expect(store.info().cached).toBe(19_020);
    store.list(collection(0));
    expect(store.info().cached).toBeLessThanOrEqual(20_000);
  });

  test('a placeholder overwritten counts as a record held: the cache weighs what the overlay holds', () => {
    const { store } = inMemory();
    store.usePlaceholders(() => new Map([['p1', Object.freeze({ id: 'p1' })]]));
    store.list('/members/m1/passes');
    expect(store.info().cached).toBe(1);
    store.put('/members/m1/passes', 'p1', { id: 'p1', name: 'changed' });
    expect(store.info().cached).toBe(2);
    store.put('/members/m1/passes', 'p1', { id: 'p1', name: 'again' });
    expect(store.info().cached).toBe(2);
    store.delete('/members/m1/passes', 'p1');
    expect(store.info().cached).toBe(2);
  });

  test('reports its kind and file for health', async () => {
    const file = await tempFile();
    expect((await onDisk(file)).info()).toEqual({
      kind: 'sqlite',
      file,
      failing: false,
      lost: false,
      errors: 0,
      cached: 0,
    });
  });
});
