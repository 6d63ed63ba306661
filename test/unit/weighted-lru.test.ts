import { describe, expect, test } from 'vitest';
import { WeightedLru } from '../../mock/lib/weighted-lru.js';

const lengthOf = (list: string[]) => Math.max(list.length, 1);

describe('WeightedLru', () => {
  test('past its weight the least recently used entries go; a hit makes an entry the most recent', () => {
    const cache = new WeightedLru<string, string[]>(4, lengthOf);
    cache.set('a', ['1', '2']);
    cache.set('b', ['3', '4']);
    expect(cache.get('a')).toEqual(['1', '2']);
    cache.set('c', ['5']);
    expect([...cache.keys()]).toEqual(['c', 'a']);
    expect(cache.weight).toBe(3);
    expect(cache.get('b')).toBeUndefined();
  });

  test('the entry just set stays, even alone heavier than the limit', () => {
    const cache = new WeightedLru<string, string[]>(2, lengthOf);
    cache.set('a', ['1']);
    cache.set('big', ['1', '2', '3']);
    expect([...cache.keys()]).toEqual(['big']);
    expect(cache.weight).toBe(3);
  });

  test('setting a key again replaces its entry and its weight', () => {
    const cache = new WeightedLru<string, string[]>(10, lengthOf);
    cache.set('a', ['1', '2', '3']);
    cache.set('a', ['1']);
    expect(cache.size).toBe(1);
    expect(cache.weight).toBe(1);
  });

  test('setting a key again to the same value counts it once, and makes it the most recent', () => {
    const cache = new WeightedLru<string, string[]>(10, lengthOf);
    const list = ['1', '2'];
    cache.set('a', list);
    cache.set('b', ['3']);
    cache.set('a', list);
    expect(cache.weight).toBe(3);
    expect([...cache.keys()]).toEqual(['a', 'b']);
  });

  test('an entry that grew in place counts its new weight, and gives it all back when it goes', () => {
    const cache = new WeightedLru<string, string[]>(3, lengthOf);
    const list = ['1'];
    cache.set('a', list);
    list.push('2', '3');
    cache.grew(2);
    expect(cache.weight).toBe(3);
    cache.set('b', ['4']);
    expect([...cache.keys()]).toEqual(['b']);
    expect(cache.weight).toBe(1);
    cache.delete('b');
    expect(cache.weight).toBe(0);
  });

  test('clear empties it, weight too', () => {
    const cache = new WeightedLru<string, string[]>(3, lengthOf);
    cache.set('a', ['1']);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.weight).toBe(0);
  });
});
