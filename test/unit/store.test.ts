import Database from 'better-sqlite3';
import { describe, expect, test, vi } from 'vitest';
import { createStateTables } from '../../mock/node/open-state-file.js';
import { overlayCost, recordCost } from '../../mock/state/overlay.js';
import { SqliteStore } from '../../mock/node/sqlite-store.js';
import { StateBudget } from '../../mock/state/state-budget.js';
import { deepFreeze } from '../../mock/lib/frozen-json.js';
import { MemoryStore, type Store, type StoredRecord, type StoreLimits } from '../../mock/state/store.js';

const PASSES = '/members/m1/passes';
const byId = (_: string, record: StoredRecord) => String(record.id);

/** A SQLite store on a database in memory: the same tables and statements as a state file's. */
function sqliteStore(limits: Partial<StoreLimits> = {}): SqliteStore {
  const db = new Database(':memory:');
  createStateTables(db);
  return new SqliteStore(db, limits);
}

/** Placeholders `<collection>-0` … of every collection whose path starts with `/p` (`/p1`, `/p2`): none elsewhere. */
function withPlaceholders(store: Store, count = 2): Store {
  store.usePlaceholders((collection) =>
    collection.startsWith('/p')
      ? new Map(
          Array.from({ length: count }, (_, i) => [`${collection}-${i}`, deepFreeze({ id: `${collection}-${i}` })]),
        )
      : new Map(),
  );
  return store;
}

const ids = (store: Store, collection: string) => store.list(collection).map((r) => r.id);

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

    test('lists nothing for a collection it never saw, without placeholders', () => {
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
      expect(store.delete(PASSES, 'p1')).toBe('deleted');
      expect(store.get(PASSES, 'p1')).toBeUndefined();
      expect(store.delete(PASSES, 'p1')).toBe('missing');
      expect(store.delete('/members/m2/passes', 'p1')).toBe('missing');
    });

    test('snapshots every collection written to, emptied ones included, as copies a caller may change', () => {
      const store = make();
      store.put('/members/m2/passes', 'p1', { id: 'p1' });
      store.delete('/members/m2/passes', 'p1');
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
      expect(store.snapshot()).toEqual({ [PASSES]: [{ number: 7, kind: 'gym' }], '/members/m2/passes': [] });
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

  describe(' placeholders', () => {
    test('a collection nobody changed is its placeholders, and the store keeps nothing of it', () => {
      const store = withPlaceholders(make());
      expect(ids(store, '/p1')).toEqual(['/p1-0', '/p1-1']);
      expect(store.get('/p1', '/p1-1')).toEqual({ id: '/p1-1' });
      expect(store.count('/p1')).toBe(2);
      expect([store.snapshot(), store.usage()]).toEqual([{}, { records: 0, bytes: 0 }]);
    });

    test('a create comes after the placeholders, and only it is charged', () => {
      const store = withPlaceholders(make());
      store.put('/p1', 'new', { id: 'new' });
      expect(ids(store, '/p1')).toEqual(['/p1-0', '/p1-1', 'new']);
      expect(store.usage().records).toBe(1);
      expect(store.snapshot()).toEqual({ '/p1': [{ id: '/p1-0' }, { id: '/p1-1' }, { id: 'new' }] });
    });

    test('a placeholder written again keeps its place', () => {
      const store = withPlaceholders(make());
      store.put('/p1', '/p1-0', { id: '/p1-0', name: 'changed' });
      expect(store.list('/p1')).toEqual([{ id: '/p1-0', name: 'changed' }, { id: '/p1-1' }]);
    });

    test('a deleted placeholder stays deleted; written again, it goes after the rest', () => {
      const store = withPlaceholders(make());
      expect(store.delete('/p1', '/p1-0')).toBe('deleted');
      expect(ids(store, '/p1')).toEqual(['/p1-1']);
      expect(store.delete('/p1', '/p1-0')).toBe('missing');
      store.put('/p1', '/p1-0', { id: '/p1-0', name: 'back' });
      expect(store.list('/p1')).toEqual([{ id: '/p1-1' }, { id: '/p1-0', name: 'back' }]);
      expect(store.delete('/p1', '/p1-0')).toBe('deleted');
      expect(ids(store, '/p1')).toEqual(['/p1-1']);
    });

    test('deleting a placeholder written over removes it, not the placeholder under it back', () => {
      const store = withPlaceholders(make());
      store.put('/p1', '/p1-1', { id: '/p1-1', name: 'changed' });
      store.delete('/p1', '/p1-1');
      expect(ids(store, '/p1')).toEqual(['/p1-0']);
    });

    test('deleting every placeholder leaves an empty collection, not new placeholders', () => {
      const store = withPlaceholders(make());
      store.delete('/p1', '/p1-0');
      store.delete('/p1', '/p1-1');
      expect([store.list('/p1'), store.count('/p1'), store.snapshot()]).toEqual([[], 0, { '/p1': [] }]);
    });

    test('a restored collection holds what it was given, without placeholders', () => {
      const store = withPlaceholders(make());
      store.restore({ '/p1': [{ id: 'only' }] }, byId);
      expect(ids(store, '/p1')).toEqual(['only']);
      expect(ids(store, '/p2')).toEqual(['/p2-0', '/p2-1']);
    });

    test('its count follows every put and delete, as its list does', () => {
      const store = withPlaceholders(make(), 3);
      const steps: [string, () => unknown][] = [
        ['create', () => store.put('/p1', 'a', { id: 'a' })],
        ['replace a create', () => store.put('/p1', 'a', { id: 'a', name: 'again' })],
        ['write over a placeholder', () => store.put('/p1', '/p1-0', { id: '/p1-0', name: 'changed' })],
        ['delete it', () => store.delete('/p1', '/p1-0')],
        ['write it back', () => store.put('/p1', '/p1-0', { id: '/p1-0', name: 'back' })],
        ['delete a placeholder', () => store.delete('/p1', '/p1-1')],
        ['delete it again', () => store.delete('/p1', '/p1-1')],
        ['delete a create', () => store.delete('/p1', 'a')],
        ['create another', () => store.put('/p1', 'b', { id: 'b' })],
      ];
      expect(store.count('/p1')).toBe(3);
      for (const [step, change] of steps) {
        change();
        expect([step, store.count('/p1')]).toEqual([step, store.list('/p1').length]);
      }
      expect(ids(store, '/p1')).toEqual(['/p1-2', '/p1-0', 'b']);
    });

    test('a create into a collection of thousands looks up a few entries, not every record', () => {
      const placeholders = new Map([['/p1-0', deepFreeze({ id: '/p1-0' })]]);
      const store = make({ collection: 1_000_000 });
      store.usePlaceholders(() => placeholders);
      for (let i = 0; i < 2000; i++) store.put('/p1', `r${i}`, { id: `r${i}` });
      store.count('/p1');
      const has = vi.spyOn(Map.prototype, 'has');
      const get = vi.spyOn(Map.prototype, 'get');
      try {
        expect(store.put('/p1', 'one-more', { id: 'one-more' })).toBe('stored');
        expect(has.mock.calls.length + get.mock.calls.length).toBeLessThan(20);
      } finally {
        has.mockRestore();
        get.mockRestore();
      }
      expect(store.count('/p1')).toBe(2002);
    });

    test('its count follows placeholders made again (a reload)', () => {
      const store = withPlaceholders(make(), 2);
      store.put('/p1', 'new', { id: 'new' });
      expect(store.count('/p1')).toBe(3);
      // A collection read with nothing written to it (a SQLite store caches it as having no overlay).
      expect(store.count('/q')).toBe(0);
      withPlaceholders(store, 4);
      expect(store.count('/p1')).toBe(5);
      store.put('/p1', 'newer', { id: 'newer' });
      expect(store.count('/p1')).toBe(6);
    });

    test('a count first made after changes counts each record once', () => {
      const store = withPlaceholders(make(), 3);
      store.put('/p1', '/p1-0', { id: '/p1-0', name: 'changed' });
      store.delete('/p1', '/p1-1');
      store.put('/p1', 'new', { id: 'new' });
      expect(store.count('/p1')).toBe(3);
      expect(ids(store, '/p1')).toEqual(['/p1-0', '/p1-2', 'new']);
    });

    test('placeholders of other ids (a reload) count without those deleted before', () => {
      const store = withPlaceholders(make(), 2);
      store.delete('/p1', '/p1-0');
      store.put('/p1', 'new', { id: 'new' });
      expect(store.count('/p1')).toBe(2);
      store.usePlaceholders((collection) =>
        collection === '/p1' ? new Map([['/p1-x', deepFreeze({ id: '/p1-x' })]]) : new Map(),
      );
      expect([store.count('/p1'), ids(store, '/p1')]).toEqual([2, ['/p1-x', 'new']]);
    });

    test('another source of placeholders (a reload) shows under what clients changed', () => {
      const store = withPlaceholders(make(), 2);
      store.put('/p1', 'new', { id: 'new' });
      withPlaceholders(store, 3);
      expect(ids(store, '/p1')).toEqual(['/p1-0', '/p1-1', '/p1-2', 'new']);
    });
  });

  describe(' positions', () => {
    /** Each listed record's position, in the list's order. */
    const positions = (store: Store, collection: string) =>
      store.list(collection).map((record) => store.position(collection, String(record.id)));
    const rising = (numbers: (number | undefined)[]) =>
      numbers.every((n, i) => n !== undefined && (i === 0 || n > numbers[i - 1]!));

    test('rise along the list, placeholders first, and stay while their record does', () => {
      const store = withPlaceholders(make(), 3);
      store.put('/p1', 'a', { id: 'a' });
      store.put('/p1', 'b', { id: 'b' });
      const before = positions(store, '/p1');
      expect(rising(before)).toBe(true);
      store.put('/p1', '/p1-1', { id: '/p1-1', name: 'changed' });
      store.put('/p1', 'a', { id: 'a', name: 'changed' });
      store.delete('/p1', '/p1-0');
      store.delete('/p1', 'b');
      store.put('/p1', 'c', { id: 'c' });
      const after = positions(store, '/p1');
      expect(ids(store, '/p1')).toEqual(['/p1-1', '/p1-2', 'a', 'c']);
      expect(after.slice(0, 3)).toEqual(before.slice(1, 4));
      expect(rising(after)).toBe(true);
      expect(after[3]).toBeGreaterThan(before[4]!);
    });

    test('a record deleted and written again stands above every other, never where it stood', () => {
      const store = withPlaceholders(make(), 3);
      store.put('/p1', 'a', { id: 'a' });
      store.put('/p1', 'b', { id: 'b' });
      const before = positions(store, '/p1');
      store.delete('/p1', '/p1-0');
      store.delete('/p1', 'a');
      store.put('/p1', 'a', { id: 'a' });
      store.put('/p1', '/p1-0', { id: '/p1-0' });
      expect(ids(store, '/p1')).toEqual(['/p1-1', '/p1-2', 'b', 'a', '/p1-0']);
      const after = positions(store, '/p1');
      expect(rising(after)).toBe(true);
      expect(after[3]).toBeGreaterThan(Math.max(...(before as number[])));
    });

    test('none for a record it does not hold, or holds no more', () => {
      const store = withPlaceholders(make());
      store.put('/p1', 'a', { id: 'a' });
      store.delete('/p1', 'a');
      store.delete('/p1', '/p1-0');
      expect([store.position('/p1', 'a'), store.position('/p1', '/p1-0'), store.position('/p1', 'x')]).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      expect(store.position('/q', 'a')).toBeUndefined();
    });

    test('a restore gives its records positions that rise in its order', () => {
      const store = withPlaceholders(make());
      store.restore({ '/p1': [{ id: 'z' }, { id: 'y' }, { id: 'x' }] }, byId);
      expect(rising(positions(store, '/p1'))).toBe(true);
    });
  });

  describe(' versions', () => {
    test('a collection’s version changes with each put and each delete of a record there, and only then', () => {
      const store = withPlaceholders(make());
      const seen = [store.version('/p1')];
      store.put('/p1', '1', { id: '1' });
      seen.push(store.version('/p1'));
      store.put('/p1', '1', { id: '1', name: 'again' });
      seen.push(store.version('/p1'));
      expect(store.delete('/p1', 'missing')).toBe('missing');
      store.list('/p1');
      expect(store.version('/p1')).toBe(seen[2]);
      store.delete('/p1', '/p1-0');
      seen.push(store.version('/p1'));
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

  describe(' limits', () => {
    const budget = (bytes: number) => new StateBudget(bytes);

    test('refuses a new record in a collection at the collection limit, placeholders counted, and changes nothing', () => {
      const store = withPlaceholders(make({ collection: 3 }));
      store.put('/p1', 'p1', { id: 'p1' });
      const version = store.version('/p1');
      expect(store.put('/p1', 'p2', { id: 'p2' })).toBe('collection-full');
      expect(ids(store, '/p1')).toEqual(['/p1-0', '/p1-1', 'p1']);
      expect(store.version('/p1')).toBe(version);
      expect(store.usage().records).toBe(1);
    });

    test('replacing a record of a full collection is not refused', () => {
      const store = make({ collection: 1 });
      store.put(PASSES, 'p1', { id: 'p1' });
      expect(store.put(PASSES, 'p1', { id: 'p1', name: 'again' })).toBe('stored');
      expect(store.get(PASSES, 'p1')).toEqual({ id: 'p1', name: 'again' });
    });

    test('charges a record its JSON, its id and its entry, and gives it back when deleted', () => {
      const shared = budget(10_000);
      const store = make({ budget: shared });
      store.put('/a', '1', { id: '1', name: 'Ada' });
      const charged = store.usage().bytes;
      expect(charged).toBeGreaterThan(recordCost('1', { id: '1', name: 'Ada' }));
      expect(shared.used).toBe(charged);
      store.delete('/a', '1');
      expect(store.usage().bytes).toBeLessThan(charged);
      expect(shared.used).toBe(store.usage().bytes);
    });

    test('refuses a record past the budget, counted across collections, and changes nothing', () => {
      const cost = recordCost('1', { id: '1' }) + overlayCost('/a');
      const store = make({ budget: budget(2 * cost) });
      expect(store.put('/a', '1', { id: '1' })).toBe('stored');
      expect(store.put('/b', '1', { id: '1' })).toBe('stored');
      const used = store.usage();
      expect(store.put('/c', '1', { id: '1' })).toBe('state-full');
      expect(store.put('/a', '2', { id: '2' })).toBe('state-full');
      expect([store.usage(), store.snapshot()['/c'], ids(store, '/a')]).toEqual([used, undefined, ['1']]);
    });

    test('a budget is shared: what one store holds leaves less for another', () => {
      const shared = budget(recordCost('1', { id: '1' }) + overlayCost('/a'));
      const one = make({ budget: shared });
      const other = make({ budget: shared });
      expect(one.put('/a', '1', { id: '1' })).toBe('stored');
      expect(other.put('/a', '1', { id: '1' })).toBe('state-full');
      one.close();
      expect(other.put('/a', '1', { id: '1' })).toBe('stored');
    });

    test('reading any number of collections charges nothing', () => {
      const store = withPlaceholders(make({ budget: budget(1) }));
      for (let i = 0; i < 1000; i++) store.list(`/p${i}`);
      expect(store.usage()).toEqual({ records: 0, bytes: 0 });
    });

    test('deleting a placeholder with no room to keep its id answers state-full, and changes nothing', () => {
      const store = withPlaceholders(make({ budget: budget(1) }));
      expect(store.delete('/p1', '/p1-0')).toBe('state-full');
      expect(ids(store, '/p1')).toEqual(['/p1-0', '/p1-1']);
    });

    test('restores fixtures past both limits, and charges them', () => {
      const store = make({ collection: 1, budget: budget(1) });
      expect(store.restore({ '/a': [{ id: '1' }, { id: '2' }], '/b': [] }, byId)).toBe('stored');
      expect(store.usage().records).toBe(2);
      expect(store.put('/a', '3', { id: '3' })).toBe('collection-full');
      expect(store.put('/c', '1', { id: '1' })).toBe('state-full');
    });

    test('a charged restore past the budget is refused, and the state is as it was', () => {
      const store = make({ budget: budget(400) });
      store.put('/a', '1', { id: '1' });
      const big = { '/b': Array.from({ length: 10 }, (_, i) => ({ id: String(i) })) };
      expect(store.restore(big, byId, true)).toBe('state-full');
      expect(store.snapshot()).toEqual({ '/a': [{ id: '1' }] });
      expect(store.restore({ '/b': [{ id: 'x' }] }, byId, true)).toBe('stored');
    });

    test('a charged restore gives back what it replaces first', () => {
      const cost = recordCost('1', { id: '1' }) + overlayCost('/a');
      const store = make({ budget: budget(cost) });
      store.put('/a', '1', { id: '1' });
      expect(store.restore({ '/a': [{ id: '1' }] }, byId, true)).toBe('stored');
    });

    test('reads, writes and deletes visit as many map entries with 10,000 collections changed as with 10', () => {
      // Every step of every Map iteration (for...of, spread, keys()) goes through this one method.
      const iterator = Object.getPrototypeOf(new Map().keys()) as { next(): unknown };
      const visits = (collections: number) => {
        const store = withPlaceholders(make());
        for (let i = 0; i < collections; i++) store.put(`/p${i}`, 'x', { id: 'x' });
        const next = vi.spyOn(iterator, 'next');
        try {
          store.put('/p5', 'y', { id: 'y' });
          store.delete('/p3', 'x');
          store.delete('/p4', '/p4-0');
          store.get('/p7', '/p7-0');
          store.count('/p8');
          store.usage();
          store.version('/p9');
          return next.mock.calls.length;
        } finally {
          next.mockRestore();
        }
      };
      expect(visits(10_000)).toBe(visits(10));
    });
  });

  describe('deepFreeze', () => {
    test('walks into an object frozen by hand, and leaves primitives alone', () => {
      const inner = { n: 1 };
      const outer = Object.freeze({ inner });
      expect(deepFreeze(outer)).toBe(outer);
      expect(Object.isFrozen(inner)).toBe(true);
      expect([deepFreeze(null), deepFreeze(3), deepFreeze('s')]).toEqual([null, 3, 's']);
    });

    test('freezes every object and list inside, lists of lists and objects in lists included', () => {
      const value = { tags: [{ a: 1 }], nested: { grid: [[1], [2]] } };
      deepFreeze(value);
      for (const part of [value, value.tags, value.tags[0], value.nested, value.nested.grid, value.nested.grid[1]])
        expect(Object.isFrozen(part)).toBe(true);
    });
  });
});

describe('MemoryStore restore', () => {
  test('charges each record what a put of it charges, with odd characters and ids of other lengths', () => {
    const records = [{ id: '1', name: 'Ada "the first"\n' }, { id: '22', tags: ['é', '😀', null] }, { id: '333' }];
    const restored = new MemoryStore();
    restored.restore({ '/a': records }, byId);
    const put = new MemoryStore();
    for (const record of records) put.put('/a', String(record.id), structuredClone(record));
    expect(restored.usage()).toEqual(put.usage());
    expect(restored.usage().bytes).toBe(
      records.reduce((sum, r) => sum + recordCost(String(r.id), r), 0) + overlayCost('/a'),
    );
  });

  test('keeps a frozen record as it is, and a frozen copy of one that is not', () => {
    const frozen = deepFreeze({ id: '1', tags: ['a'] });
    const open = { id: '2', tags: ['b'] };
    const store = new MemoryStore();
    store.restore({ '/a': [frozen, open] }, byId);
    expect(store.get('/a', '1')).toBe(frozen);
    const kept = store.get('/a', '2')!;
    expect([kept === open, Object.isFrozen(kept), Object.isFrozen(kept.tags)]).toEqual([false, true, true]);
    open.tags.push('c');
    expect(kept.tags).toEqual(['b']);
  });

  test('copies a record frozen at the top only: its list and object could still be changed by the caller', () => {
    const shallow = Object.freeze({ id: '1', tags: ['x'], profile: { tier: 'gold' } });
    const store = new MemoryStore();
    store.restore({ '/a': [shallow] }, byId);
    shallow.tags.push('y');
    shallow.profile.tier = 'lead';
    expect(store.get('/a', '1')).toEqual({ id: '1', tags: ['x'], profile: { tier: 'gold' } });
  });
});
