import { describe, expect, test } from 'vitest';
import { BoundedMemo } from '../../mock/memo/bounded-memo.js';

describe('BoundedMemo', () => {
  test('hands back what was set, and the value itself from set', () => {
    const memo = new BoundedMemo<number>(3);
    expect(memo.set('a', 1)).toBe(1);
    expect(memo.get('a')).toBe(1);
    expect(memo.get('b')).toBeUndefined();
  });

  test('starts over when full, so it never holds more than its limit', () => {
    const memo = new BoundedMemo<number>(2);
    memo.set('a', 1);
    memo.set('b', 2);
    memo.set('c', 3);
    expect([memo.get('a'), memo.get('b'), memo.get('c'), memo.size]).toEqual([undefined, undefined, 3, 1]);
  });

  test('setting a key it holds when full replaces the value without starting over', () => {
    const memo = new BoundedMemo<number>(2);
    memo.set('a', 1);
    memo.set('b', 2);
    memo.set('b', 20);
    expect([memo.get('a'), memo.get('b'), memo.size]).toEqual([1, 20, 2]);
  });

  test('never keeps a key longer than its key limit, but still hands the value back', () => {
    const memo = new BoundedMemo<number>(10, 4);
    expect(memo.set('12345', 5)).toBe(5);
    expect(memo.set('1234', 4)).toBe(4);
    expect([memo.get('12345'), memo.get('1234'), memo.size]).toEqual([undefined, 4, 1]);
  });

  test('clear forgets everything', () => {
    const memo = new BoundedMemo<number>(10);
    memo.set('a', 1);
    memo.clear();
    expect([memo.get('a'), memo.size]).toEqual([undefined, 0]);
  });
});
