// The day a mock reads its data as of (`asOf`): the seed's own day in 2025, today, or a day given; and the
// generators that follow it.
import { createBodyGenerator, type BodyGenerator } from '../generate/generate-body.js';

/** `seed`: the seed's own day in 2025; `today`: the UTC day the mock starts on; or a day, `YYYY-MM-DD` (UTC). */
export type AsOf = 'seed' | 'today' | `${number}-${number}-${number}`;

/** The generators of one mock, and the instant its placeholders are read at. */
export interface DatedGenerators {
  /** Generated bodies, fixtures' missing fields and `clock: 'seed'`: their times lead up to {@link asOf}. */
  generator: BodyGenerator;
  /**
   * Draws placeholders: the seed's own generator whatever the day, so that a placeholder's id, name and status
   * are the same on every day, and only its times (settled as of {@link asOf}) move with the calendar.
   */
  placeholders: BodyGenerator;
  /** The seed's anchor, or the start (00:00 UTC) of the day. */
  asOf: Date;
}

/**
 * The generators of a mock of `seed` read as of `asOf`; `today` reads `now` (the clock, unless given).
 * Throws a TypeError for a day that is not one.
 * @example datedGenerators(1, '2026-11-26').asOf.toISOString() // '2026-11-26T00:00:00.000Z'
 */
export function datedGenerators(seed: number | string, asOf: AsOf = 'seed', now = new Date()): DatedGenerators {
  const seeded = createBodyGenerator(seed);
  if (asOf === 'seed') return { generator: seeded, placeholders: seeded, asOf: seeded.anchor };
  const day = readDay(pinAsOf(asOf, now));
  if (day === undefined)
    throw new TypeError(`asOf must be seed, today or a day as YYYY-MM-DD, not ${JSON.stringify(asOf)}.`);
  return { generator: createBodyGenerator(seed, { anchor: day }), placeholders: seeded, asOf: day };
}

/**
 * `today` as the UTC day of `now`, so that every part of one mock (its fixtures, its placeholders) reads the
 * same day even across midnight; `seed` and a day as they are.
 * @example pinAsOf('today', new Date('2026-11-26T23:59:00Z')) // '2026-11-26'
 */
export function pinAsOf(asOf: AsOf, now = new Date()): AsOf {
  return asOf === 'today' ? (now.toISOString().slice(0, 10) as AsOf) : asOf;
}

/**
 * The start (00:00 UTC) of a day written `YYYY-MM-DD`; `undefined` for any other text, or a day that does not
 * exist (`2026-02-30`).
 * @example readDay('2026-11-26')?.getTime() // Date.UTC(2026, 10, 26)
 */
export function readDay(text: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const day = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text ? undefined : day;
}
