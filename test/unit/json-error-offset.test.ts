import { describe, expect, test } from 'vitest';
import { jsonErrorOffset, lineAndColumn } from '../../mock/lib/json-error-offset.js';

describe('jsonErrorOffset', () => {
  test.each(['{}', '[]', ' {"a":[1,{"b":null}],"c":"\\u00e9","d":-1.5e3} ', '"text"', '0', 'true'])(
    '%j is JSON: no offset',
    (text) => {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(jsonErrorOffset(text)).toBeUndefined();
    },
  );

  // The offsets V8 gives where its message has one, and where it has none (`{"a":}`, `xyz`).
  test.each([
    ['{"a":}', 5],
    ['{"a":1,}', 7],
    ['[1,]', 3],
    ['xyz', 0],
    ["{'a':1}", 1],
    ['{"a" 1}', 5],
    ['{"a":1} x', 8],
    ['[}', 1],
    ['01', 1],
    ['"\t"', 0],
    ['{"a":1', 6],
    ['', 0],
  ])('%j stops being JSON at %i', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonErrorOffset(text)).toBe(offset);
  });

  test('a million open brackets end too soon, without overflowing the stack', () => {
    expect(jsonErrorOffset('['.repeat(1_000_000))).toBe(1_000_000);
  });
});

describe('lineAndColumn', () => {
  test('counts lines and columns from 1', () => {
    expect(lineAndColumn('{\n  "a" 1}', 8)).toEqual({ line: 2, column: 7 });
    expect(lineAndColumn('{}', 0)).toEqual({ line: 1, column: 1 });
  });
});
