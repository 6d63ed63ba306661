// A faker of one generator's own, on a small seeded random source: seeding it costs next to nothing.
import { Faker, base, en, type Randomizer } from '@faker-js/faker';
import { hashSeed } from '../lib/hash-seed.js';
import { mulberry32 } from './quick-draw.js';

/**
 * Creates a faker whose dates lead up to `anchor` and whose random numbers come from mulberry32. Faker's own
 * randomizer (a Mersenne twister) costs ~26 µs per seed, paid on every call that asks faker for a value.
 * @example const faker = createSeededFaker(anchor); faker.seed(42); faker.person.firstName()
 */
export function createSeededFaker(anchor: Date): Faker {
  let next = mulberry32(0);
  const randomizer: Randomizer = {
    next: () => next(),
    seed: (seed) => {
      next = mulberry32(Array.isArray(seed) ? hashSeed(seed.join(',')) : seed);
    },
  };
  const faker = new Faker({ locale: [en, base], randomizer });
  faker.setDefaultRefDate(anchor);
  return faker;
}
