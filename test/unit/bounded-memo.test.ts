import { describe, expect, test } from 'vitest';
import { BoundedMemo, BoundedTrieMemo, keyCharacters } from '../../mock/lib/bounded-memo.js';

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

describe('BoundedTrieMemo', () => {
  test('finds a value by all its parts, each in its place', () => {
    const memo = new BoundedTrieMemo<number>(10);
    expect(memo.set(['ab', 'c'], 1)).toBe(1);
    expect([memo.get(['ab', 'c']), memo.get(['a', 'bc']), memo.get(['c', 'ab'])]).toEqual([1, undefined, undefined]);
  });

  test('tells a part not there (undefined) from one that reads "undefined" or is empty', () => {
    const memo = new BoundedTrieMemo<string>(10);
    memo.set(['/a', undefined], 'absent');
    memo.set(['/a', 'undefined'], 'word');
    expect([memo.get(['/a', undefined]), memo.get(['/a', 'undefined']), memo.get(['/a', ''])]).toEqual([
      'absent',
      'word',
      undefined,
    ]);
  });

  test('starts over when full; setting a key it holds replaces the value without counting it again', () => {
    const memo = new BoundedTrieMemo<number>(2);
    memo.set(['a', 'x'], 1);
    memo.set(['b', 'x'], 2);
    memo.set(['b', 'x'], 20);
    expect([memo.get(['a', 'x']), memo.get(['b', 'x']), memo.size]).toEqual([1, 20, 2]);
    memo.set(['c', 'x'], 3);
    expect([memo.get(['a', 'x']), memo.get(['b', 'x']), memo.get(['c', 'x']), memo.size]).toEqual([
      undefined,
      undefined,
      3,
      1,
    ]);
  });

  test('never keeps a key whose parts are longer than its key limit, but hands the value back', () => {
    const memo = new BoundedTrieMemo<number>(10, 4);
    expect(memo.set(['123', '45'], 5)).toBe(5);
    expect(memo.set(['12', '34'], 4)).toBe(4);
    expect([memo.get(['123', '45']), memo.get(['12', '34']), memo.size]).toEqual([undefined, 4, 1]);
  });

  test('starts over when the weights it holds would pass the limit; a value replaced weighs anew', () => {
    const memo = new BoundedTrieMemo<string>(10, 100, 10);
    memo.set(['a', 1], 'A', 6);
    memo.set(['b', 2], 'B', 4);
    expect([memo.get(['a', 1]), memo.get(['b', 2]), memo.weight]).toEqual(['A', 'B', 10]);
    memo.set(['b', 2], 'B2', 3);
    expect([memo.get(['a', 1]), memo.get(['b', 2]), memo.weight, memo.size]).toEqual(['A', 'B2', 9, 2]);
    memo.set(['c', 3], 'C', 2);
    expect([memo.get(['a', 1]), memo.get(['c', 3]), memo.weight, memo.size]).toEqual([undefined, 'C', 2, 1]);
  });

  test('never keeps a value heavier than the whole limit, but hands it back; numbers are parts too', () => {
    const memo = new BoundedTrieMemo<string>(10, 100, 10);
    memo.set(['a', 1], 'A', 2);
    expect(memo.set(['b', 1], 'B', 11)).toBe('B');
    expect([memo.get(['a', 1]), memo.get(['b', 1]), memo.get(['a', '1']), memo.weight]).toEqual([
      'A',
      undefined,
      undefined,
      2,
    ]);
  });

  test('counts the characters of string parts against its key limit', () => {
    expect(keyCharacters(['abc', 12345, undefined, 'de'])).toBe(5);
  });

  test('numbers are parts as a Map keys them: 0 and -0 one, NaN itself, a number not its digits', () => {
    const memo = new BoundedTrieMemo<string>(10);
    memo.set(['p', 0], 'zero');
    memo.set(['p', Number.NaN], 'nan');
    memo.set(['p', Number.POSITIVE_INFINITY], 'all');
    expect([memo.get(['p', -0]), memo.get(['p', Number.NaN]), memo.get(['p', Infinity]), memo.get(['p', '0'])]).toEqual(
      ['zero', 'nan', 'all', undefined],
    );
  });

  test('keys of many parts told apart by a middle part, undefined there too', () => {
    const memo = new BoundedTrieMemo<string>(10);
    memo.set(['op', 10, 0, '/c', 3], 'first page');
    memo.set(['op', 10, 1, '/c', 3], 'second page');
    memo.set(['GET', '', undefined, 'Bearer a', '/p'], 'no cookie');
    memo.set(['GET', '', 'sid=1', 'Bearer a', '/p'], 'a cookie');
    expect([
      memo.get(['op', 10, 0, '/c', 3]),
      memo.get(['op', 10, 1, '/c', 3]),
      memo.get(['op', 10, 2, '/c', 3]),
      memo.get(['GET', '', undefined, 'Bearer a', '/p']),
      memo.get(['GET', '', 'sid=1', 'Bearer a', '/p']),
      memo.get(['GET', '', '', 'Bearer a', '/p']),
    ]).toEqual(['first page', 'second page', undefined, 'no cookie', 'a cookie', undefined]);
  });

  test('counts only string parts against the key limit', () => {
    const memo = new BoundedTrieMemo<number>(10, 4);
    expect(memo.set(['ab', 123_456_789, 'cd'], 1)).toBe(1);
    expect(memo.set(['ab', 1, 'cde'], 2)).toBe(2);
    expect([memo.get(['ab', 123_456_789, 'cd']), memo.get(['ab', 1, 'cde']), memo.size]).toEqual([1, undefined, 1]);
  });

  test('clear forgets everything', () => {
    const memo = new BoundedTrieMemo<number>(10);
    memo.set(['a', 'b'], 1);
    memo.clear();
    expect([memo.get(['a', 'b']), memo.size]).toEqual([undefined, 0]);
  });
});
