import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compilePattern } from '../../mock/generate/draw-pattern.js';
import { mulberry32, planQuickDraw } from '../../mock/generate/quick-draw.js';

/** A fixed sequence of numbers in [0, 1), so draws replay. */
function sequence(seed: number): () => number {
  let x = seed;
  return () => ((x = (x * 16807) % 2147483647) - 1) / 2147483646;
}

describe('compilePattern', () => {
  test.each([
    '^crd_[0-9A-HJKMNP-TV-Z]{26}$',
    '^[A-Za-z0-9_-]+$',
    '^\\d{3}-\\d{2,4}$',
    'ab?c*d+',
    '^[a-z]{2,}\\.[a-z]{2,3}$',
    '^[\\w.]{1,8}$',
    '^x.y$',
  ])('every draw of %s matches it', (pattern) => {
    const draw = compilePattern(pattern)!;
    expect(draw).toBeDefined();
    const random = sequence(7);
    const check = new RegExp(pattern, 'u');
    for (let i = 0; i < 300; i++) expect(draw(random)).toMatch(check);
  });

  test.each([
    '^a(b|c)$',
    '^[^a]+$',
    'a|b',
    '^(?=a)a$',
    '^\\s+$',
    '^a{2,5}?$',
    '^\\u0041$',
    '^[a-z',
    '^a{5,2}$',
    '^😀{2}$',
    '^é+$',
    '^\\w{0,1000}\\w{0,1000}\\w{0,1000}\\w{0,1000}\\w{0,1000}$',
  ])('leaves %s to json-schema-faker', (pattern) => {
    expect(compilePattern(pattern)).toBeUndefined();
  });

  test('a pattern of side-by-side open quantifiers is drawn at once (no regular expression runs per draw)', () => {
    const draw = compilePattern(`^${'[ab]*a'.repeat(40)}$`)!;
    const started = performance.now();
    const text = draw(sequence(9));
    expect(performance.now() - started).toBeLessThan(50);
    expect(text.match(/a/g)?.length).toBeGreaterThanOrEqual(40);
  });

  // Replay a failure with the seed and run count printed by fast-check.
  test('every draw of any pattern it compiles matches the pattern (fast-check, seed 20261122, 400 runs)', () => {
    const literal = fc.constantFrom('a', 'Z', '7', '_', '-', '/', ':', '=', '\\.', '\\+', '\\(', '\\[');
    const inClass = fc.constantFrom('a-f', 'A-Z', '0-9', '_', '.', '\\-', '\\d', '\\w', 'x', '+');
    const atom = fc.oneof(
      literal,
      fc.constantFrom('\\d', '\\w', '.'),
      fc.array(inClass, { minLength: 1, maxLength: 3 }).map((items) => `[${items.join('')}]`),
    );
    const quantifier = fc.oneof(
      fc.constantFrom('', '?', '*', '+'),
      fc.tuple(fc.nat(4), fc.nat(3)).map(([n, extra]) => `{${n},${n + extra}}`),
      fc.nat(5).map((n) => `{${n}}`),
      fc.nat(3).map((n) => `{${n},}`),
    );
    const pattern = fc
      .tuple(fc.boolean(), fc.array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 4 }), fc.boolean())
      .map(([start, parts, end]) => `${start ? '^' : ''}${parts.map(([a, q]) => a + q).join('')}${end ? '$' : ''}`);
    let compiled = 0;
    fc.assert(
      fc.property(pattern, fc.integer({ min: 1, max: 2 ** 31 - 2 }), (source, seed) => {
        const draw = compilePattern(source);
        if (!draw) return;
        compiled++;
        const random = sequence(seed);
        const check = new RegExp(source, 'u');
        for (let i = 0; i < 20; i++) expect(draw(random)).toMatch(check);
      }),
      { seed: 20261122, numRuns: 400 },
    );
    expect(compiled).toBeGreaterThan(300);
  });

  test('fits an open pattern to the lengths beside it: 40 hex digits for a commit sha', () => {
    const draw = compilePattern('^[0-9a-fA-F]+$', { minLength: 40, maxLength: 40 })!;
    for (let seed = 1; seed < 20; seed++) expect(draw(sequence(seed))).toMatch(/^[0-9a-fA-F]{40}$/);
  });

  test('gives undefined when no string of the pattern has a length the schema allows', () => {
    expect(compilePattern('^a{2,4}$', { minLength: 5 })).toBeUndefined();
    expect(compilePattern('^a{5}b+$', { maxLength: 5 })).toBeUndefined();
  });

  // Replay a failure with the seed and run count printed by fast-check.
  test('every draw of a pattern compiled with lengths matches the pattern and the lengths (fast-check, seed 20261123, 300 runs)', () => {
    const part = fc.tuple(
      fc.constantFrom('a', '[0-9a-f]', '\\d', '-'),
      fc.constantFrom('', '?', '*', '+', '{2}', '{1,3}', '{2,}'),
    );
    const lengths = fc
      .tuple(fc.nat(12), fc.nat(12))
      .map(([min, extra]) => ({ minLength: min, maxLength: min + extra }));
    let compiled = 0;
    fc.assert(
      fc.property(
        fc.array(part, { minLength: 1, maxLength: 4 }),
        lengths,
        fc.integer({ min: 1, max: 2 ** 31 - 2 }),
        (parts, bounds, seed) => {
          const source = `^${parts.map(([a, q]) => a + q).join('')}$`;
          const draw = compilePattern(source, bounds);
          if (!draw) return;
          compiled++;
          const random = sequence(seed);
          for (let i = 0; i < 10; i++) {
            const text = draw(random);
            expect(text).toMatch(new RegExp(source, 'u'));
            expect(text.length).toBeGreaterThanOrEqual(bounds.minLength);
            expect(text.length).toBeLessThanOrEqual(bounds.maxLength);
          }
        },
      ),
      { seed: 20261123, numRuns: 300 },
    );
    expect(compiled).toBeGreaterThan(100);
  });

  test('the same numbers give the same string', () => {
    const draw = compilePattern('^pas_[0-9A-Z]{12}$')!;
    expect(draw(sequence(3))).toBe(draw(sequence(3)));
    expect(draw(sequence(3))).not.toBe(draw(sequence(4)));
  });
});

describe('planQuickDraw', () => {
  const id = { type: 'string', pattern: '^crd_[0-9A-HJKMNP-TV-Z]{26}$', description: 'An id', readOnly: true };

  test('draws a closed object of required pattern strings, the same for the same seed', () => {
    const draw = planQuickDraw({ type: 'object', additionalProperties: false, required: ['id'], properties: { id } })!;
    const value = draw(42) as { id: string };
    expect(Object.keys(value)).toEqual(['id']);
    expect(value.id).toMatch(/^crd_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(draw(42)).toEqual(value);
    expect(draw(43)).not.toEqual(value);
  });

  test('draws an id whose pattern always keeps within its minLength and maxLength', () => {
    const draw = planQuickDraw({ ...id, minLength: 30, maxLength: 30 })!;
    expect(draw(7)).toMatch(/^crd_[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  test.each([
    ['a maxLength the pattern can pass', { ...id, maxLength: 29 }],
    ['a minLength the pattern can fall short of', { ...id, minLength: 31 }],
    ['a length that is not a whole number', { ...id, maxLength: 'long' }],
  ])('leaves an id with %s to json-schema-faker', (_, schema) => {
    expect(planQuickDraw(schema)).toBeUndefined();
  });

  test.each([
    ['an optional property', { type: 'object', additionalProperties: false, required: [], properties: { id } }],
    ['an open object', { type: 'object', required: ['id'], properties: { id } }],
    ['a format', { type: 'string', pattern: '^a+$', format: 'email' }],
    ['x-faker', { type: 'string', pattern: '^a+$', 'x-faker': 'person.firstName' }],
    ['a length the pattern cannot keep', { type: 'string', pattern: '^a{5}$', maxLength: 3 }],
    ['an enum', { type: 'string', pattern: '^a+$', enum: ['a'] }],
    ['nullable', { type: 'string', pattern: '^a+$', nullable: true }],
    [
      'a property json-schema-faker must draw',
      {
        type: 'object',
        additionalProperties: false,
        required: ['at'],
        properties: { at: { type: 'string', format: 'date-time' } },
      },
    ],
  ])('leaves a schema with %s to json-schema-faker', (_, schema) => {
    expect(planQuickDraw(schema)).toBeUndefined();
  });
});

describe('a seed draws the same strings from one version to the next', () => {
  // Records made with --seed stay the same when the drawing code changes (it was last rewritten to allocate less).
  test.each([
    ['^crd_[0-9A-HJKMNP-TV-Z]{26}$', {}, 1, 'crd_ZEF4C74F2CR961DJS96NHR6QER'],
    ['^crd_[0-9A-HJKMNP-TV-Z]{26}$', {}, 2, 'crd_3S6DTJ4NBZ1X1460YEMZ7EB1G3'],
    ['^[0-9a-f]+$', { minLength: 12, maxLength: 12 }, 3, '071c7724831b'],
    ['^a?b*c+\\d{2,5}$', {}, 4, 'abbcc67'],
  ])('%s with lengths %j and seed %i draws %s', (pattern, lengths, seed, drawn) => {
    expect(compilePattern(pattern, lengths)!(mulberry32(seed))).toBe(drawn);
  });
});
