import { describe, expect, test } from 'vitest';
import { useRecent } from '../../mock/lib/use-recent.js';

describe('useRecent', () => {
  test('hands back the entry and moves it to the most recently used end', () => {
    const map = new Map([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    expect(useRecent(map, 'a')).toBe(1);
    expect([...map.keys()]).toEqual(['b', 'c', 'a']);
  });

  test('moves nothing and answers undefined for a key it does not hold', () => {
    const map = new Map([['a', 1]]);
    expect(useRecent(map, 'z')).toBeUndefined();
    expect([...map.entries()]).toEqual([['a', 1]]);
  });
});
