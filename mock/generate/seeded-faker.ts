// A faker of one generator's own, on a small seeded random source: seeding it costs next to nothing.
// Faker is taken from its English entry (`@faker-js/faker/locale/en`): its main entry loads every locale it
// has, 250 ms of every start, for the one locale the mock draws from.
import type { Faker as FakerClass, LocaleDefinition, Randomizer } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';
import { hashSeed } from '../lib/hash-seed.js';
import { mulberry32 } from './quick-draw.js';

/** Faker's class, and English with its base definitions as that entry's instance was made with them. */
const Faker = english.constructor as typeof FakerClass;
const ENGLISH: LocaleDefinition = english.rawDefinitions;

/**
 * Creates a faker whose dates lead up to `anchor` and whose random numbers come from mulberry32. Faker's own
 * randomizer (a Mersenne twister) costs ~26 µs per seed, paid on every call that asks faker for a value.
 * @example const faker = createSeededFaker(anchor); faker.seed(42); faker.person.firstName()
 */
export function createSeededFaker(anchor: Date): FakerClass {
  let next = mulberry32(0);
  const randomizer: Randomizer = {
    next: () => next(),
    seed: (seed) => {
      next = mulberry32(Array.isArray(seed) ? hashSeed(seed.join(',')) : seed);
    },
  };
  const faker = new Faker({ locale: ENGLISH, randomizer });
  faker.setDefaultRefDate(anchor);
  return faker;
}
