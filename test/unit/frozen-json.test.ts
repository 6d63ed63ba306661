import { afterEach, describe, expect, test, vi } from 'vitest';
import { bodyText } from '../../mock/http/reply.js';
import { deepFreeze, isFrozenThrough, jsonText } from '../../mock/lib/frozen-json.js';
import { MemoryStore } from '../../mock/state/store.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('deepFreeze', () => {
  test('freezes a value and everything in it, and knows it did', () => {
    const value = deepFreeze({ list: [{ name: 'Gym' }], nested: { deep: [1] } });
    expect([value, value.list, value.list[0], value.nested, value.nested.deep].every(Object.isFrozen)).toBe(true);
    expect(isFrozenThrough(value)).toBe(true);
    expect(isFrozenThrough(value.nested.deep)).toBe(true);
  });

  test('walks into what was frozen by hand, so a value frozen through cannot change', () => {
    const inner = { list: [] as number[] };
    const value = deepFreeze({ child: Object.freeze({ inner }) });
    expect(Object.isFrozen(inner.list)).toBe(true);
    expect(jsonText(value)).toBe('{"child":{"inner":{"list":[]}}}');
    expect(() => inner.list.push(1)).toThrow(TypeError);
    expect(jsonText(value)).toBe('{"child":{"inner":{"list":[]}}}');
  });

  test('freezes a value that holds itself, walking it once', () => {
    const value: { self?: unknown; list: unknown[] } = { list: [] };
    value.self = value;
    value.list.push(value);
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value.list)).toBe(true);
  });

  test('a value frozen by hand is not taken as frozen through', () => {
    expect(isFrozenThrough(Object.freeze({ list: [] }))).toBe(false);
    expect(isFrozenThrough('text')).toBe(false);
    expect(isFrozenThrough(null)).toBe(false);
  });
});

describe('jsonText', () => {
  test('writes a frozen-through value out once when it is asked for again', () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    const record = deepFreeze({ id: 'pas_1', tags: ['a'] });
    expect(jsonText(record)).toBe('{"id":"pas_1","tags":["a"]}');
    expect(jsonText(record)).toBe('{"id":"pas_1","tags":["a"]}');
    expect(stringify).toHaveBeenCalledTimes(1);
  });

  test('writes any other value out every time, so a change shows', () => {
    const record: { id: string; tags: string[] } = { id: 'pas_1', tags: [] };
    expect(jsonText(record)).toBe('{"id":"pas_1","tags":[]}');
    record.tags.push('a');
    expect(jsonText(record)).toBe('{"id":"pas_1","tags":["a"]}');
  });

  test('a value frozen at the top only is written out every time: what is in it may change', () => {
    const record = Object.freeze({ tags: [] as string[] });
    expect(jsonText(record)).toBe('{"tags":[]}');
    record.tags.push('a');
    expect(jsonText(record)).toBe('{"tags":["a"]}');
  });

  test('keeps the text of the last value only', () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    const first = deepFreeze({ id: 'a' });
    const second = deepFreeze({ id: 'b' });
    for (const value of [first, second, first]) jsonText(value);
    expect(stringify).toHaveBeenCalledTimes(3);
  });

  test('gives what JSON.stringify gives for values that are not objects', () => {
    expect(jsonText('x')).toBe('"x"');
    expect(jsonText(null)).toBe('null');
    expect(jsonText(undefined)).toBeUndefined();
  });
});

describe('a replaced record', () => {
  test('is written out once for its charge and its reply: the record it replaces is measured first', () => {
    const store = new MemoryStore();
    store.put('/members/m1/passes', 'pas_1', { id: 'pas_1', name: 'Gym' });
    jsonText(deepFreeze({ other: true }));
    const stringify = vi.spyOn(JSON, 'stringify');
    const record = { id: 'pas_1', name: 'Pool' };
    expect(store.put('/members/m1/passes', 'pas_1', record)).toBe('stored');
    expect(bodyText({ status: 200, headers: {}, body: record })).toBe('{"id":"pas_1","name":"Pool"}');
    expect(stringify).toHaveBeenCalledTimes(2);
  });
});

describe('a created record', () => {
  test('is written out once for its charge against the budget and its reply', () => {
    const store = new MemoryStore();
    const stringify = vi.spyOn(JSON, 'stringify');
    const record = { id: 'pas_1', name: 'Gym' };
    expect(store.put('/members/m1/passes', 'pas_1', record)).toBe('stored');
    expect(bodyText({ status: 201, headers: {}, body: record })).toBe('{"id":"pas_1","name":"Gym"}');
    expect(stringify).toHaveBeenCalledTimes(1);
    expect(store.usage()).toEqual({ records: 1, bytes: expect.any(Number) });
  });
});
