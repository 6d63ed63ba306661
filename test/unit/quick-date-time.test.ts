import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { prism } from '../../mock/prism/prism-modules.js';
import { quickDateTime } from '../../mock/prism/quick-date-time.js';

const prismDateTime = prism().dateTime.date_time as (value: string) => boolean;
const quick = quickDateTime(prismDateTime);

describe("the date-time format answers as Prism's", () => {
  test.each([
    ['2025-01-31T08:00:00Z', true],
    ['2025-01-31T08:00:00.123456Z', true],
    ['2024-02-29T00:00:00Z', true],
    ['2023-02-29T00:00:00Z', false],
    ['1900-02-29T00:00:00Z', false],
    ['2000-02-29T00:00:00Z', true],
    ['2025-04-31T00:00:00Z', false],
    ['2025-00-10T00:00:00Z', false],
    ['2025-13-10T00:00:00Z', false],
    ['2025-01-00T00:00:00Z', false],
    ['2025-01-31T24:00:00Z', false],
    ['2025-01-31T23:60:00Z', false],
    ['2025-01-31T23:59:60Z', true],
    ['2025-01-31T22:59:60Z', false],
    ['2025-01-31T08:00:00.Z', false],
    ['2025-01-31T08:00:00+01:00', true],
    ['2025-01-31t08:00:00z', true],
    ['2025-01-31 08:00:00Z', true],
    ['2025-01-31T08:00:00', false],
    ['2025-1-31T08:00:00Z', false],
    ['２０２５-01-31T08:00:00Z', false],
  ])('%s: %s', (value, fits) => {
    expect(quick(value)).toBe(fits);
    expect(prismDateTime(value)).toBe(fits);
  });

  test('on date-times with any digit anywhere (seed 24, 3000 runs)', () => {
    const digit = fc.constantFrom(...'0123456789');
    const field = (n: number) => fc.array(digit, { minLength: n, maxLength: n }).map((d) => d.join(''));
    const value = fc
      .tuple(
        field(4),
        field(2),
        field(2),
        field(2),
        field(2),
        field(2),
        fc.option(field(3)),
        fc.constantFrom('Z', 'z', '+02:00', ''),
      )
      .map(([y, mo, d, h, mi, s, f, z]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${f === null ? '' : `.${f}`}${z}`);
    fc.assert(
      fc.property(value, (v) => {
        expect(quick(v), v).toBe(prismDateTime(v));
      }),
      { seed: 24, numRuns: 3000 },
    );
  });

  test('on the days around the end of each month, leap years or not (seed 24, 3000 runs)', () => {
    const value = fc
      .tuple(
        fc.constantFrom(1900, 2000, 2023, 2024, 2100),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 27, max: 32 }),
      )
      .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}T23:59:59Z`);
    fc.assert(
      fc.property(value, (v) => {
        expect(quick(v), v).toBe(prismDateTime(v));
      }),
      { seed: 24, numRuns: 3000 },
    );
  });
});
