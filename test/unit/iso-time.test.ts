// isoTime writes what toISOString writes, for every time a Date can hold.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isoTime } from '../../mock/lib/iso-time.js';

const LIMIT = 8.64e15;

describe('isoTime', () => {
  test.each([
    0,
    -1,
    1,
    999,
    1000,
    -86_400_000,
    -86_400_001,
    Date.UTC(2026, 10, 28, 9, 5, 3, 7),
    Date.UTC(2024, 1, 29, 23, 59, 59, 999),
    253_402_300_799_999, // 9999-12-31T23:59:59.999Z
    253_402_300_800_000, // +010000-01-01
    -62_167_219_200_001, // the last millisecond of year -1
    LIMIT,
    -LIMIT,
  ])('writes %d as toISOString does', (time) => {
    expect(isoTime(new Date(time))).toBe(new Date(time).toISOString());
  });

  test('writes any time as toISOString does, whatever day came before (seed 20261128)', () => {
    const time = fc.oneof(
      fc.integer({ min: -LIMIT, max: LIMIT }),
      fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2027, 0, 1) }),
    );
    fc.assert(
      fc.property(fc.array(time, { minLength: 1, maxLength: 5 }), (times) => {
        for (const t of times) expect(isoTime(new Date(t))).toBe(new Date(t).toISOString());
      }),
      { seed: 20261128, numRuns: 3000 },
    );
  });

  test('throws the RangeError toISOString throws for an invalid date', () => {
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
