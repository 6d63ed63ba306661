import { describe, expect, test } from 'vitest';
import { createSeededFaker } from '../../mock/generate/seeded-faker.js';

const ANCHOR = new Date('2025-06-01T12:00:00Z');
const names = (faker: ReturnType<typeof createSeededFaker>) => [faker.person.fullName(), faker.internet.email()];

describe('createSeededFaker', () => {
  test('the same seed gives the same values, in any faker of its kind', () => {
    const a = createSeededFaker(ANCHOR);
    const b = createSeededFaker(ANCHOR);
    a.seed(42);
    const first = names(a);
    b.seed(7);
    names(b);
    a.seed(42);
    expect(names(a)).toEqual(first);
    b.seed(42);
    expect(names(b)).toEqual(first);
  });

  test('another seed gives other values; a list seed works like a number', () => {
    const faker = createSeededFaker(ANCHOR);
    faker.seed(1);
    const one = names(faker);
    faker.seed(2);
    expect(names(faker)).not.toEqual(one);
    faker.seed([1, 2]);
    const list = names(faker);
    faker.seed([1, 2]);
    expect(names(faker)).toEqual(list);
  });

  test('its past dates lead up to the anchor, not to the clock', () => {
    const faker = createSeededFaker(ANCHOR);
    faker.seed(3);
    for (let i = 0; i < 20; i++) expect(faker.date.past().getTime()).toBeLessThanOrEqual(ANCHOR.getTime());
    expect(faker.date.past().getTime()).toBeGreaterThan(ANCHOR.getTime() - 366 * 86_400_000);
  });
});
