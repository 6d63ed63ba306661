import { describe, expect, test } from 'vitest';
import { deepFreeze, MemoryStore, type StoredRecord } from '../../mock/state/store.js';

const PASSES = '/members/m1/passes';
const byId = (_: string, record: StoredRecord) => String(record.id);

describe('MemoryStore', () => {
  test('reads back a record it stored, by collection and id', () => {
    const store = new MemoryStore();
    store.put(PASSES, 'p1', { id: 'p1', kind: 'gym' });
    expect(store.get(PASSES, 'p1')).toEqual({ id: 'p1', kind: 'gym' });
    expect(store.get(PASSES, 'p2')).toBeUndefined();
    expect(store.get('/members/m2/passes', 'p1')).toBeUndefined();
  });

  test('lists records oldest first, a replaced one keeping its place', () => {
    const store = new MemoryStore();
    store.put(PASSES, 'p1', { id: 'p1' });
    store.put(PASSES, 'p2', { id: 'p2' });
    store.put(PASSES, 'p1', { id: 'p1', kind: 'pool' });
    expect(store.list(PASSES)).toEqual([{ id: 'p1', kind: 'pool' }, { id: 'p2' }]);
  });

  test('lists nothing for a collection it never saw', () => {
    expect(new MemoryStore().list(PASSES)).toEqual([]);
  });

  test('freezes a record, nested values included, so no reader can change the store', () => {
    const store = new MemoryStore();
    store.put(PASSES, 'p1', { id: 'p1', holder: { name: 'Ada' }, tags: ['a'] });
    const record = store.get(PASSES, 'p1')!;
    expect(Object.isFrozen(record)).toBe(true);
    expect(Object.isFrozen(record.holder)).toBe(true);
    expect(Object.isFrozen(record.tags)).toBe(true);
  });

  test('deletes a record, and says whether there was one', () => {
    const store = new MemoryStore();
    store.put(PASSES, 'p1', { id: 'p1' });
    expect(store.delete(PASSES, 'p1')).toBe(true);
    expect(store.get(PASSES, 'p1')).toBeUndefined();
    expect(store.delete(PASSES, 'p1')).toBe(false);
    expect(store.delete('/members/m2/passes', 'p1')).toBe(false);
  });

  test('knows a collection once it is touched or written to, and keeps knowing it when emptied', () => {
    const store = new MemoryStore();
    expect(store.has(PASSES)).toBe(false);
    store.touch(PASSES);
    expect(store.has(PASSES)).toBe(true);
    store.put('/members/m2/passes', 'p1', { id: 'p1' });
    store.delete('/members/m2/passes', 'p1');
    expect(store.has('/members/m2/passes')).toBe(true);
  });

  test('touching a collection keeps its records', () => {
    const store = new MemoryStore();
    store.put(PASSES, 'p1', { id: 'p1' });
    store.touch(PASSES);
    expect(store.list(PASSES)).toEqual([{ id: 'p1' }]);
  });

  test('snapshots every collection, empty ones included, as copies a caller may change', () => {
    const store = new MemoryStore();
    store.touch('/members/m2/passes');
    store.put(PASSES, 'p1', { id: 'p1', holder: { name: 'Ada' } });
    const snapshot = store.snapshot();
    expect(snapshot).toEqual({ '/members/m2/passes': [], [PASSES]: [{ id: 'p1', holder: { name: 'Ada' } }] });
    (snapshot[PASSES]![0]!.holder as { name: string }).name = 'Bob';
    expect(store.get(PASSES, 'p1')).toEqual({ id: 'p1', holder: { name: 'Ada' } });
  });

  test('restores a snapshot in place of everything it held, keying records with idOf', () => {
    const store = new MemoryStore();
    store.put('/members/m9/passes', 'old', { id: 'old' });
    store.restore({ [PASSES]: [{ number: 7, kind: 'gym' }], '/members/m2/passes': [] }, (collection, record) =>
      collection === PASSES ? `n${String(record.number)}` : 'none',
    );
    expect(store.has('/members/m9/passes')).toBe(false);
    expect(store.has('/members/m2/passes')).toBe(true);
    expect(store.get(PASSES, 'n7')).toEqual({ number: 7, kind: 'gym' });
  });

  test('restores a copy of the snapshot, frozen, leaving the caller’s objects as they were', () => {
    const store = new MemoryStore();
    const record = { id: 'p1', holder: { name: 'Ada' } };
    store.restore({ [PASSES]: [record] }, byId);
    record.holder.name = 'Bob';
    expect(store.get(PASSES, 'p1')).toEqual({ id: 'p1', holder: { name: 'Ada' } });
    expect(Object.isFrozen(record)).toBe(false);
    expect(Object.isFrozen(store.get(PASSES, 'p1')!.holder)).toBe(true);
  });
});

describe('MemoryStore versions', () => {
  test('a collection’s version changes with each put and each delete of a record there, and only then', () => {
    const store = new MemoryStore();
    const seen = [store.version('/a')];
    store.put('/a', '1', { id: '1' });
    seen.push(store.version('/a'));
    store.put('/a', '1', { id: '1', name: 'again' });
    seen.push(store.version('/a'));
    expect(store.delete('/a', 'missing')).toBe(false);
    expect(store.version('/a')).toBe(seen[2]);
    store.touch('/a');
    expect(store.version('/a')).toBe(seen[2]);
    store.delete('/a', '1');
    seen.push(store.version('/a'));
    expect(new Set(seen).size).toBe(4);
  });

  test('a change to one collection leaves the version of another as it was', () => {
    const store = new MemoryStore();
    store.put('/a', '1', { id: '1' });
    const before = store.version('/b');
    store.put('/a', '2', { id: '2' });
    expect(store.version('/b')).toBe(before);
  });

  test('a restore gives each collection it holds a version none had before', () => {
    const store = new MemoryStore();
    store.put('/a', '1', { id: '1' });
    const versions = [store.version('/a'), store.version('/b')];
    store.restore({ '/a': [], '/b': [] }, (_, r) => String(r.id));
    expect(versions).not.toContain(store.version('/a'));
    expect(versions).not.toContain(store.version('/b'));
    expect(store.version('/a')).not.toBe(store.version('/b'));
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
