import { describe, expect, test } from 'vitest';
import { BoundedMemo } from '../../mock/lib/bounded-memo.js';

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

describe('BoundedMemo with a weight limit', () => {
  test('starts over when the weights it holds would pass the limit', () => {
    const memo = new BoundedMemo<string>(10, 100, 10);
    memo.set('a', 'A', 6);
    memo.set('b', 'B', 5);
    expect([memo.get('a'), memo.get('b'), memo.weight]).toEqual([undefined, 'B', 5]);
  });

  test('keeps values up to the limit exactly', () => {
    const memo = new BoundedMemo<string>(10, 100, 10);
    memo.set('a', 'A', 6);
    memo.set('b', 'B', 4);
    expect([memo.get('a'), memo.get('b'), memo.weight]).toEqual(['A', 'B', 10]);
  });

  test('never keeps a value heavier than the whole limit, but hands it back', () => {
    const memo = new BoundedMemo<string>(10, 100, 10);
    memo.set('a', 'A', 2);
    expect(memo.set('big', 'BIG', 11)).toBe('BIG');
    expect([memo.get('a'), memo.get('big'), memo.weight]).toEqual(['A', undefined, 2]);
  });

  test('setting a key again replaces its weight instead of adding to it', () => {
    const memo = new BoundedMemo<string>(10, 100, 10);
    memo.set('a', 'A', 6);
    memo.set('a', 'A2', 6);
    memo.set('b', 'B', 4);
    expect([memo.get('a'), memo.get('b'), memo.weight]).toEqual(['A2', 'B', 10]);
  });

  test('a clear forgets the weights too', () => {
    const memo = new BoundedMemo<string>(10, 100, 10);
    memo.set('a', 'A', 9);
    memo.clear();
    memo.set('b', 'B', 9);
    expect([memo.get('b'), memo.weight]).toEqual(['B', 9]);
  });

  test('without a weight limit, the weight is the number of entries', () => {
    const memo = new BoundedMemo<number>(10);
    memo.set('a', 1, 50);
    memo.set('b', 2, 50);
    expect(memo.weight).toBe(2);
  });
});
