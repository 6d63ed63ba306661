// Puts hinted values in place of json-schema-faker's as it draws them (its outputTransform).
import type { Faker } from '@faker-js/faker';
import { isObject } from '../schema/schema-facts.js';
import type { Hint } from './choose-hint.js';
import { hashSeed } from '../lib/hash-seed.js';
import type { HintMarks, ObjectRule } from './mark-hints.js';
import { mulberry32 } from './quick-draw.js';

/** How many faker draws a hint gets to fit a schema's lengths before json-schema-faker's value stays. */
const TRIES = 3;
/** Keeps the draw that decides on null apart from the draw of the value. */
const NULL_SALT = 0x5bd1e995;

/**
 * json-schema-faker's `outputTransform` for one call: each hinted value is drawn from a seed of the call's
 * seed and the value's place in the body, so it does not depend on what was drawn before it. Half the nulls
 * json-schema-faker draws for a nullable hinted value stay null; a draw that fits nothing keeps what was there.
 * @example generateSync(schema, { seed, outputTransform: hintTransform(marks, faker, seed) })
 */
export function hintTransform(
  marks: HintMarks,
  faker: Faker,
  seed: number,
): (value: unknown, schema: unknown, path: string) => unknown {
  return (value, schema, path) => {
    if (typeof schema !== 'object' || schema === null) return value;
    const hint = marks.values.get(schema);
    if (hint) {
      const here = hashSeed(`${seed}|${path}`);
      // A nullable value with a hint is null a quarter of the time, not half: its hint is worth showing.
      if (value === null && mulberry32(here ^ NULL_SALT)() < 0.5) return null;
      return applyHint(hint, value, faker, here);
    }
    if (value === null) return value;
    const rules = marks.objects.get(schema);
    if (!rules || !isObject(value)) return value;
    const here = hashSeed(`${seed}|${path}`);
    for (const rule of rules) applyRule(rule, value, faker, here);
    return value;
  };
}

function applyHint(hint: Hint, value: unknown, faker: Faker, seed: number): unknown {
  if ('pick' in hint) return hint.pick[Math.floor(mulberry32(seed)() * hint.pick.length)];
  faker.seed(seed);
  for (let i = 0; i < TRIES; i++) {
    const drawn = hint.draw(faker);
    if (hint.fits(drawn)) return drawn;
  }
  return value;
}

function applyRule(rule: ObjectRule, record: Record<string, unknown>, faker: Faker, seed: number): void {
  if ('tie' in rule) {
    const { tie, by, naming, neutral } = rule;
    if (typeof record[tie] !== 'string' || typeof record[by] !== 'string') return;
    const choices = naming.get(record[by]) ?? neutral;
    if (choices.length > 0) record[tie] = choices[Math.floor(mulberry32(seed)() * choices.length)];
    return;
  }
  const { person, fits } = rule;
  const text = (names: string[] | undefined) =>
    names?.map((name) => record[name]).find((value): value is string => typeof value === 'string');
  const full = text(person.full)?.split(' ');
  const firstName = text(person.first) ?? full?.[0];
  const lastName = text(person.last) ?? full?.at(-1);
  if (firstName === undefined && lastName === undefined) return;
  faker.seed(seed);
  const made: [string[] | undefined, () => string][] = [
    [person.email, () => faker.internet.email({ firstName, lastName })],
    [person.username, () => faker.internet.username({ firstName, lastName })],
    [person.initials, () => `${firstName?.[0] ?? ''}${lastName?.[0] ?? ''}`.toUpperCase()],
  ];
  for (const [names, make] of made) {
    for (const name of names ?? []) {
      if (typeof record[name] !== 'string') continue;
      const value = make();
      if (fits.get(name)?.(value)) record[name] = value;
    }
  }
}
