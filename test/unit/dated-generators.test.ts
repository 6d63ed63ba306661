import { describe, expect, test } from 'vitest';
import { createBodyGenerator } from '../../mock/generate/generate-body.js';
import { datedGenerators, pinAsOf, readDay } from '../../mock/instance/dated-generators.js';

const TIMESTAMP = { type: 'string', format: 'date-time' };

describe('readDay', () => {
  test('reads a day as its start in UTC', () => {
    expect(readDay('2026-11-26')).toEqual(new Date(Date.UTC(2026, 10, 26)));
    expect(readDay('2028-02-29')).toEqual(new Date(Date.UTC(2028, 1, 29)));
  });

  test.each(['2026-02-30', '2027-02-29', '2026-13-01', '2026-11-26T00:00:00Z', '2026-1-5', 'today', ''])(
    'refuses %j',
    (text) => {
      expect(readDay(text)).toBeUndefined();
    },
  );
});

describe('pinAsOf', () => {
  test('reads today as the UTC day of the clock, to its last millisecond', () => {
    expect(pinAsOf('today', new Date('2026-11-26T00:00:00Z'))).toBe('2026-11-26');
    expect(pinAsOf('today', new Date('2026-11-26T23:59:59.999Z'))).toBe('2026-11-26');
    expect(pinAsOf('today', new Date('2026-11-27T00:00:00Z'))).toBe('2026-11-27');
  });

  test('leaves seed and a day as they are', () => {
    expect(pinAsOf('seed', new Date('2026-11-26T12:00:00Z'))).toBe('seed');
    expect(pinAsOf('2024-01-02', new Date('2026-11-26T12:00:00Z'))).toBe('2024-01-02');
  });
});

describe('datedGenerators', () => {
  test('seed: one generator, read at the seed’s anchor, as createBodyGenerator makes it', () => {
    const { generator, placeholders, asOf } = datedGenerators(7, 'seed');
    expect(placeholders).toBe(generator);
    expect(asOf).toEqual(createBodyGenerator(7).anchor);
    expect(generator.generate(TIMESTAMP, 'k')).toBe(createBodyGenerator(7).generate(TIMESTAMP, 'k'));
  });

  test('a day: bodies lead up to its start, placeholders are drawn by the seed’s generator', () => {
    const { generator, placeholders, asOf } = datedGenerators(7, '2026-11-26');
    expect(asOf).toEqual(new Date(Date.UTC(2026, 10, 26)));
    expect(generator.anchor).toEqual(asOf);
    expect(placeholders.anchor).toEqual(createBodyGenerator(7).anchor);
    const drawn = Date.parse(generator.generate(TIMESTAMP, 'k') as string);
    expect(drawn).toBeLessThan(asOf.getTime());
    expect(drawn).toBeGreaterThan(asOf.getTime() - 366 * 86_400_000);
  });

  test('today: the UTC day of the clock given', () => {
    expect(datedGenerators(7, 'today', new Date('2026-11-26T23:30:00Z')).asOf).toEqual(new Date('2026-11-26'));
  });

  test('another day draws the same values but times', () => {
    const schema = { type: 'object', properties: { id: { type: 'string', pattern: '^p_[a-z]{8}$' }, at: TIMESTAMP } };
    const a = datedGenerators(7, '2026-11-26').generator.generate(schema, 'k') as Record<string, string>;
    const b = datedGenerators(7, '2026-11-27').generator.generate(schema, 'k') as Record<string, string>;
    expect(b.id).toBe(a.id);
    expect(Date.parse(b.at!) - Date.parse(a.at!)).toBe(86_400_000);
  });

  test('refuses a day that is not one, naming it', () => {
    expect(() => datedGenerators(7, '2026-02-30')).toThrow(
      new TypeError('asOf must be seed, today or a day as YYYY-MM-DD, not "2026-02-30".'),
    );
  });
});
