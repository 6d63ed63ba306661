import { describe, expect, test } from 'vitest';
import { parseLatency, readFaults, rollFaults, type Faults } from '../../mock/respond/faults.js';

/** The rolls of requests 1 to `count` of one session, under seed 7 unless told: the same on every run. */
const rolls = (faults: Faults, count = 200, seed: number | string = 7, session = 'default') =>
  Array.from({ length: count }, (_, i) => rollFaults(faults, seed, session, i + 1));

const share = (flags: boolean[]) => flags.filter(Boolean).length / flags.length;

describe('rollFaults', () => {
  test('rolls no delay, no failure and no drop when no fault is set', () => {
    expect(rolls({})).toEqual(Array(200).fill({ delay: 0, fail: false, drop: false }));
  });

  test('rolls the same for the same seed, session and request number', () => {
    const faults: Faults = { latency: '0-1000', failureRate: 0.5, dropRate: 0.5 };
    expect(rolls(faults, 50)).toEqual(rolls(faults, 50));
  });

  test.each([
    ['seed', [1, 'a'], [2, 'a']],
    ['session', [1, 'a'], [1, 'b']],
  ] as const)('rolls differently under another %s', (_, [seed, session], [otherSeed, otherSession]) => {
    const fails = (s: number, name: string) => rolls({ failureRate: 0.5 }, 50, s, name).map((r) => r.fail);
    expect(fails(seed, session)).not.toEqual(fails(otherSeed, otherSession));
  });

  test.each([
    [{ failureRate: 1 }, { delay: 0, fail: true, drop: false }],
    [{ dropRate: 1 }, { delay: 0, fail: false, drop: true }],
    [{ latency: 250 }, { delay: 250, fail: false, drop: false }],
    [
      { latency: 250, failureRate: 1, dropRate: 1 },
      { delay: 250, fail: true, drop: true },
    ],
  ])('applies %j to every request', (faults, roll) => {
    expect(rolls(faults)).toEqual(Array(200).fill(roll));
  });

  test('fails and drops about the share of requests their rates ask for, independently', () => {
    const rolled = rolls({ failureRate: 0.3, dropRate: 0.6 }, 1000);
    const fails = rolled.map((r) => r.fail);
    const drops = rolled.map((r) => r.drop);
    expect(share(fails)).toBeGreaterThan(0.25);
    expect(share(fails)).toBeLessThan(0.35);
    expect(share(drops)).toBeGreaterThan(0.55);
    expect(share(drops)).toBeLessThan(0.65);
    // Independent rolls: about 0.3 * 0.6 of the requests both fail and drop.
    expect(share(rolled.map((r) => r.fail && r.drop))).toBeGreaterThan(0.13);
    expect(share(rolled.map((r) => r.fail && r.drop))).toBeLessThan(0.23);
  });

  test('spreads a latency range over whole milliseconds from its min to its max', () => {
    const delays = rolls({ latency: '100-300' }, 1000).map((r) => r.delay);
    expect(delays.every((d) => Number.isInteger(d) && d >= 100 && d <= 300)).toBe(true);
    expect(Math.min(...delays)).toBeLessThan(110);
    expect(Math.max(...delays)).toBeGreaterThan(290);
  });
});

describe('parseLatency', () => {
  test.each([
    ['100', 100],
    ['0', 0],
    [' 250 ', 250],
    ['60000', 60000],
    ['100-300', '100-300'],
    [' 0100-0300 ', '100-300'],
    ['100-100', 100],
    ['0-60000', '0-60000'],
  ])('reads %j as %j', (text, latency) => {
    expect(parseLatency(text)).toEqual(latency);
  });

  test.each(['', 'abc', '100ms', 'x100', '-100', '100-', '1.5', '300-100', '60001', '0-60001'])(
    'refuses %j',
    (text) => {
      expect(parseLatency(text)).toBeUndefined();
    },
  );
});

describe('readFaults', () => {
  test.each([
    [{}, {}],
    [{ latency: 0 }, { latency: 0 }],
    [{ latency: 60000 }, { latency: 60000 }],
    [{ latency: '100-300' }, { latency: '100-300' }],
    [{ latency: '200-200' }, { latency: 200 }],
    [{ latency: '100' }, { latency: 100 }],
    [
      { failureRate: 0, dropRate: 1 },
      { failureRate: 0, dropRate: 1 },
    ],
    [
      { failureRate: 1, dropRate: 0.25 },
      { failureRate: 1, dropRate: 0.25 },
    ],
  ])('accepts %j', (value, faults) => {
    expect(readFaults(value)).toEqual({ ok: true, faults });
  });

  test.each([[null], [[]], ['latency=100'], [100]])(
    'refuses %j, which is not an object, and says what faults look like',
    (value) => {
      expect(readFaults(value)).toEqual({ ok: false, errors: [expect.stringContaining('JSON object')] });
    },
  );

  test.each([
    ['latency', { latency: -1 }],
    ['latency', { latency: 60001 }],
    ['latency', { latency: 1.5 }],
    ['latency', { latency: '300-100' }],
    ['latency', { latency: '100-60001' }],
    ['latency', { latency: '100ms' }],
    ['latency', { latency: '100 - 300' }],
    ['latency', { latency: [100] }],
    ['latency', { latency: [100, 200, 300] }],
    ['latency', { latency: { min: 100, max: 300 } }],
    ['latency', { latency: null }],
    ['failureRate', { failureRate: -0.1 }],
    ['failureRate', { failureRate: 1.1 }],
    ['failureRate', { failureRate: '0.5' }],
    ['dropRate', { dropRate: -0.1 }],
    ['dropRate', { dropRate: 2 }],
    ['dropRate', { dropRate: null }],
    ['"retries"', { retries: 3 }],
  ])('refuses a bad %s in %j, naming it', (name, value) => {
    expect(readFaults(value)).toEqual({ ok: false, errors: [expect.stringContaining(name)] });
  });

  test('refuses a [min, max] pair, naming the one format and how to write this range in it', () => {
    expect(readFaults({ latency: [100, 300] })).toEqual({
      ok: false,
      errors: [
        'latency is milliseconds (0-60000) or a range "MIN-MAX" such as "100-300", not [100,300] (write "100-300")',
      ],
    });
  });

  test('gives every reason at once', () => {
    const result = readFaults({ latency: -1, failureRate: 2, dropRate: 2, retries: 3 });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors).toHaveLength(4);
  });
});
