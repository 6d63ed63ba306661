import Database from 'better-sqlite3';
import { describe, expect, test, vi } from 'vitest';
import { createStateTables } from '../../mock/state/open-state-file.js';
import { SqliteStore } from '../../mock/state/sqlite-store.js';
import { deepFreeze, MemoryStore, type Store, type StoredRecord, type StoreLimits } from '../../mock/state/store.js';

const PASSES = '/members/m1/passes';
const byId = (_: string, record: StoredRecord) => String(record.id);

/** A SQLite store on a database in memory: the same tables and statements as a state file's. */
function sqliteStore(limits: Partial<StoreLimits> = {}): SqliteStore {
  const db = new Database(':memory:');
  createStateTables(db);
  return new SqliteStore(db, limits);
}

// Both stores keep the one contract of Store: every test below runs against each.
const STORES: [string, (limits?: Partial<StoreLimits>) => Store][] = [
  ['MemoryStore', (limits) => new MemoryStore(limits)],
  ['SqliteStore', sqliteStore],
];

describe.each(STORES)('%s', (_kind, make) => {
  describe('', () => {
    test('reads back a record it stored, by collection and id', () => {
      const store = make();
      store.put(PASSES, 'p1', { id: 'p1', kind: 'gym' });
      expect(store.get(PASSES, 'p1')).toEqual({ id: 'p1', kind: 'gym' });
      expect(store.get(PASSES, 'p2')).toBeUndefined();
      expect(store.get('/members/m2/passes', 'p1')).toBeUndefined();
    });

    test('lists records oldest first, a replaced one keeping its place', () => {
      const store = make();
      store.put(PASSES, 'p1', { id: 'p1' });
      store.put(PASSES, 'p2', { id: 'p2' });
      store.put(PASSES, 'p1', { id: 'p1', kind: 'pool' });
      expect(store.list(PASSES)).toEqual([{ id: 'p1', kind: 'pool' }, { id: 'p2' }]);
    });

    test('lists nothing for a collection it never saw', () => {
      expect(make().list(PASSES)).toEqual([]);
    });

    test('freezes a record, nested values included, so no reader can change the store', () => {
      const store = make();
      store.put(PASSES, 'p1', { id: 'p1', holder: { name: 'Ada' }, tags: ['a'] });
      const record = store.get(PASSES, 'p1')!;
      expect(Object.isFrozen(record)).toBe(true);
      expect(Object.isFrozen(record.holder)).toBe(true);
      expect(Object.isFrozen(record.tags)).toBe(true);
    });

    test('deletes a record, and says whether there was one', () => {
      const store = make();
      store.put(PASSES, 'p1', { id: 'p1' });
      expect(store.delete(PASSES, 'p1')).toBe(true);
      expect(store.get(PASSES, 'p1')).toBeUndefined();
      expect(store.delete(PASSES, 'p1')).toBe(false);
      expect(store.delete('/members/m2/passes', 'p1')).toBe(false);
    });

    test('knows a collection once it is seeded or written to, and keeps knowing it when emptied', () => {
      const store = make();
      expect(store.has(PASSES)).toBe(false);
      store.seed(PASSES, []);
      expect(store.has(PASSES)).toBe(true);
      store.put('/members/m2/passes', 'p1', { id: 'p1' });
      store.delete('/members/m2/passes', 'p1');
      expect(store.has('/members/m2/passes')).toBe(true);
    });

    test('seeding a collection that exists keeps its records', () => {
      const store = make();
      store.put(PASSES, 'p1', { id: 'p1' });
      expect(store.seed(PASSES, [['p2', { id: 'p2' }]])).toBe('stored');
      expect(store.list(PASSES)).toEqual([{ id: 'p1' }]);
    });

    test('snapshots every collection, empty ones included, as copies a caller may change', () => {
      const store = make();
      store.seed('/members/m2/passes', []);
      store.put(PASSES, 'p1', { id: 'p1', holder: { name: 'Ada' } });
      const snapshot = store.snapshot();
      expect(snapshot).toEqual({ '/members/m2/passes': [], [PASSES]: [{ id: 'p1', holder: { name: 'Ada' } }] });
      (snapshot[PASSES]![0]!.holder as { name: string }).name = 'Bob';
      expect(store.get(PASSES, 'p1')).toEqual({ id: 'p1', holder: { name: 'Ada' } });
    });

    test('restores a snapshot in place of everything it held, keying records with idOf', () => {
      const store = make();
      store.put('/members/m9/passes', 'old', { id: 'old' });
      store.restore({ [PASSES]: [{ number: 7, kind: 'gym' }], '/members/m2/passes': [] }, (collection, record) =>
        collection === PASSES ? `n${String(record.number)}` : 'none',
      );
      expect(store.has('/members/m9/passes')).toBe(false);
      expect(store.has('/members/m2/passes')).toBe(true);
      expect(store.get(PASSES, 'n7')).toEqual({ number: 7, kind: 'gym' });
    });

    test('restores a copy of the snapshot, frozen, leaving the caller’s objects as they were', () => {
      const store = make();
      const record = { id: 'p1', holder: { name: 'Ada' } };
      store.restore({ [PASSES]: [record] }, byId);
      record.holder.name = 'Bob';
      expect(store.get(PASSES, 'p1')).toEqual({ id: 'p1', holder: { name: 'Ada' } });
      expect(Object.isFrozen(record)).toBe(false);
      expect(Object.isFrozen(store.get(PASSES, 'p1')!.holder)).toBe(true);
    });
  });

  describe(' versions', () => {
    test('a collection’s version changes with each put and each delete of a record there, and only then', () => {
      const store = make();
      const seen = [store.version('/a')];
      store.put('/a', '1', { id: '1' });
      seen.push(store.version('/a'));
      store.put('/a', '1', { id: '1', name: 'again' });
      seen.push(store.version('/a'));
      expect(store.delete('/a', 'missing')).toBe(false);
      expect(store.version('/a')).toBe(seen[2]);
      store.seed('/a', [['2', { id: '2' }]]);
      expect(store.version('/a')).toBe(seen[2]);
      store.delete('/a', '1');
      seen.push(store.version('/a'));
      expect(new Set(seen).size).toBe(4);
    });

    test('a change to one collection leaves the version of another as it was', () => {
      const store = make();
      store.put('/a', '1', { id: '1' });
      const before = store.version('/b');
      store.put('/a', '2', { id: '2' });
      expect(store.version('/b')).toBe(before);
    });

    test('a restore gives each collection it holds a version none had before', () => {
      const store = make();
      store.put('/a', '1', { id: '1' });
      const versions = [store.version('/a'), store.version('/b')];
      store.restore({ '/a': [], '/b': [] }, (_, r) => String(r.id));
      expect(versions).not.toContain(store.version('/a'));
      expect(versions).not.toContain(store.version('/b'));
      expect(store.version('/a')).not.toBe(store.version('/b'));
    });
  });

  const rec = (id: string): [string, StoredRecord] => [id, { id }];
  const seeded = (store: Store, collection: string, size: number) =>
    store.seed(
      collection,
      Array.from({ length: size }, (_, i) => rec(`${collection}-${i}`)),
    );

  describe(' limits', () => {
    test('refuses a new record in a collection at the collection limit, and changes nothing', () => {
      const store = make({ collection: 2 });
      store.put(PASSES, 'p1', { id: 'p1' });
      store.put(PASSES, 'p2', { id: 'p2' });
      const version = store.version(PASSES);
      expect(store.put(PASSES, 'p3', { id: 'p3' })).toBe('collection-full');
      expect(store.list(PASSES).map((r) => r.id)).toEqual(['p1', 'p2']);
      expect(store.version(PASSES)).toBe(version);
      expect(store.count()).toBe(2);
    });

    test('replacing a record of a full collection or a full store is never refused', () => {
      const store = make({ collection: 1, state: 1 });
      store.put(PASSES, 'p1', { id: 'p1' });
      expect(store.put(PASSES, 'p1', { id: 'p1', name: 'again' })).toBe('stored');
      expect(store.get(PASSES, 'p1')).toEqual({ id: 'p1', name: 'again' });
    });

    test('refuses a new record past the state limit, counted across collections, and changes nothing', () => {
      const store = make({ state: 3 });
      store.put('/a', '1', { id: '1' });
      store.put('/a', '2', { id: '2' });
      store.put('/b', '1', { id: '1' });
      expect(store.put('/b', '2', { id: '2' })).toBe('state-full');
      expect(store.put('/c', '1', { id: '1' })).toBe('state-full');
      expect(store.count('/b')).toBe(1);
      expect(store.has('/c')).toBe(false);
      expect(store.count()).toBe(3);
    });

    test('counts every record, and a collection emptied by deletes as one', () => {
      const store = make();
      store.put('/a', '1', { id: '1' });
      store.put('/a', '2', { id: '2' });
      store.delete('/a', '1');
      expect(store.count()).toBe(1);
      store.delete('/a', '2');
      expect([store.count(), store.count('/a')]).toEqual([1, 0]);
      store.put('/a', '3', { id: '3' });
      expect(store.count()).toBe(1);
    });

    test('a record put into an emptied collection takes its place, so a full store takes it', () => {
      const store = make({ state: 1 });
      store.put('/a', '1', { id: '1' });
      store.delete('/a', '1');
      expect(store.put('/a', '2', { id: '2' })).toBe('stored');
    });

    test('holds seeded placeholders to the state limit but not to the collection limit', () => {
      const store = make({ collection: 1, state: 4 });
      expect(seeded(store, '/a', 3)).toBe('stored');
      expect(store.count('/a')).toBe(3);
      expect(seeded(store, '/b', 5)).toBe('state-full');
      expect([store.has('/a'), store.has('/b')]).toEqual([true, false]);
    });

    test('restores fixtures past both limits, and counts them', () => {
      const store = make({ collection: 1, state: 1 });
      store.restore({ '/a': [{ id: '1' }, { id: '2' }], '/b': [] }, byId);
      expect(store.count()).toBe(3);
      expect(store.put('/a', '3', { id: '3' })).toBe('collection-full');
      expect(store.put('/c', '1', { id: '1' })).toBe('state-full');
    });
  });

  describe(' eviction', () => {
    test('makes room by evicting seeded collections, least recently used first', () => {
      const store = make({ state: 6 });
      seeded(store, '/a', 2);
      seeded(store, '/b', 2);
      seeded(store, '/c', 2);
      store.list('/a');
      expect(seeded(store, '/d', 2)).toBe('stored');
      expect(['/a', '/b', '/c', '/d'].map((c) => store.has(c))).toEqual([true, false, true, true]);
      expect(store.count()).toBe(6);
    });

    test.each([
      ['has', (store: Store) => store.has('/a')],
      ['get', (store: Store) => store.get('/a', 'x')],
      ['list', (store: Store) => store.list('/a')],
    ])('%s counts as a use of the collection', (_, read) => {
      const store = make({ state: 2 });
      seeded(store, '/a', 1);
      seeded(store, '/b', 1);
      read(store);
      seeded(store, '/c', 1);
      expect([store.has('/a'), store.has('/b')]).toEqual([true, false]);
    });

    test('a put that needs room evicts seeded collections, never the one it writes to', () => {
      const store = make({ state: 4 });
      seeded(store, '/a', 2);
      seeded(store, '/b', 2);
      expect(store.put('/b', 'new', { id: 'new' })).toBe('stored');
      expect([store.has('/a'), store.count('/b'), store.count()]).toEqual([false, 3, 3]);
    });

    test('a put refused for room leaves its own seeded collection evictable', () => {
      const store = make({ state: 2 });
      seeded(store, '/a', 2);
      expect(store.put('/a', 'new', { id: 'new' })).toBe('state-full');
      expect(seeded(store, '/b', 1)).toBe('stored');
      expect(store.has('/a')).toBe(false);
    });

    test.each([
      ['a put', (store: Store) => store.put('/a', 'new', { id: 'new' })],
      ['a delete', (store: Store) => store.delete('/a', '/a-0')],
    ])('a collection changed by %s is kept, never evicted', (_, change) => {
      const store = make({ state: 3 });
      seeded(store, '/a', 2);
      change(store);
      expect(seeded(store, '/b', 3)).toBe('state-full');
      expect(store.has('/a')).toBe(true);
    });

    test('a delete of a record that is not there leaves a seeded collection evictable', () => {
      const store = make({ state: 2 });
      seeded(store, '/a', 2);
      expect(store.delete('/a', 'missing')).toBe(false);
      expect(seeded(store, '/b', 2)).toBe('stored');
    });

    test('restored collections are kept, never evicted', () => {
      const store = make({ state: 2 });
      store.restore({ '/a': [{ id: '1' }, { id: '2' }] }, byId);
      expect(seeded(store, '/b', 1)).toBe('state-full');
    });

    test('evicts nothing when evicting every evictable collection would still not make room', () => {
      const store = make({ state: 4 });
      store.put('/kept', '1', { id: '1' });
      store.put('/kept', '2', { id: '2' });
      seeded(store, '/a', 1);
      seeded(store, '/b', 1);
      expect(seeded(store, '/c', 3)).toBe('state-full');
      expect(['/a', '/b', '/c'].map((c) => store.has(c))).toEqual([true, true, false]);
      expect(store.count()).toBe(4);
    });

    test('an evicted collection is seeded afresh, with a version it never had', () => {
      const store = make({ state: 1 });
      seeded(store, '/a', 1);
      const before = store.version('/a');
      seeded(store, '/b', 1);
      expect(store.version('/a')).toBe(0);
      seeded(store, '/a', 1);
      expect(store.list('/a')).toEqual([{ id: '/a-0' }]);
      expect(store.version('/a')).not.toBe(before);
    });

    test('reads, writes, seeds with eviction and counts visit as many map entries with 10,000 collections as with 10', () => {
      // Every step of every Map iteration (for...of, spread, keys()) goes through this one method.
      const iterator = Object.getPrototypeOf(new Map().keys()) as { next(): unknown };
      const visits = (collections: number) => {
        const store = make({ state: collections + 1 });
        store.put('/kept', '1', { id: '1' });
        for (let i = 0; i < collections; i++) seeded(store, `/c${i}`, 1);
        const next = vi.spyOn(iterator, 'next');
        try {
          seeded(store, '/new', 1);
          store.put('/kept', '2', { id: '2' });
          store.put('/c5', 'x', { id: 'x' });
          store.delete('/kept', '1');
          store.get('/c7', '/c7-0');
          store.has('/c8');
          store.count();
          store.version('/c9');
          return next.mock.calls.length;
        } finally {
          next.mockRestore();
        }
      };
      expect(visits(10_000)).toBe(visits(10));
    });
  });

  describe('deepFreeze', () => {
    test('takes what is already frozen as frozen through, and leaves primitives alone', () => {
      const inner = { n: 1 };
      const outer = Object.freeze({ inner });
      expect(deepFreeze(outer)).toBe(outer);
      expect(Object.isFrozen(inner)).toBe(false);
      expect([deepFreeze(null), deepFreeze(3), deepFreeze('s')]).toEqual([null, 3, 's']);
    });
  });

  describe(' counts what it holds', () => {
    test('placeholders that drew the same id count once, as the collection holds them', () => {
      const store = make({ collection: 10, state: 10 });
      store.seed('/c', [
        ['a', { id: 'a' }],
        ['a', { id: 'a' }],
        ['b', { id: 'b' }],
      ]);
      expect(store.count()).toBe(store.list('/c').length);
      store.delete('/c', 'a');
      expect(store.count()).toBe(store.list('/c').length);
    });
  });
});
