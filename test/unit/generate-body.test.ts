import { describe, expect, test } from 'vitest';
import { createBodyGenerator } from '../../mock/generate/generate-body.js';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'when', 'tags', 'name'],
  properties: {
    id: { type: 'string', pattern: '^pas_[0-9A-Z]{8}$' },
    when: { type: 'string', format: 'date-time' },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 1000 },
    name: { type: 'string', 'x-faker': 'person.firstName' },
  },
  'x-stoplight': { id: 'ignored' },
};

describe('createBodyGenerator', () => {
  test('gives the same body for the same seed and key', () => {
    expect(createBodyGenerator(7).generate(schema, 'k')).toEqual(createBodyGenerator(7).generate(schema, 'k'));
  });

  test('gives another body for another key or another seed', () => {
    const base = createBodyGenerator(7).generate(schema, 'k');
    expect(createBodyGenerator(7).generate(schema, 'other')).not.toEqual(base);
    expect(createBodyGenerator(8).generate(schema, 'k')).not.toEqual(base);
  });

  test('is not disturbed by another generator used in between', () => {
    const a = createBodyGenerator(1);
    const first = a.generate(schema, 'k1');
    const second = a.generate(schema, 'k2');
    const b = createBodyGenerator(1);
    const other = createBodyGenerator(99);
    expect(b.generate(schema, 'k1')).toEqual(first);
    other.generate(schema, 'k1');
    expect(b.generate(schema, 'k2')).toEqual(second);
  });

  test('x-faker deep in a schema is seeded too: the same key gives the same values whatever was drawn before', () => {
    const nested = {
      type: 'object',
      required: ['owner'],
      properties: {
        owner: { type: 'array', minItems: 3, maxItems: 3, items: { type: 'string', 'x-faker': 'person.lastName' } },
      },
    };
    const generator = createBodyGenerator(4);
    const first = generator.generate(nested, 'k');
    for (const key of ['a', 'b', 'c']) generator.generate(schema, key);
    expect(generator.generate(nested, 'k')).toEqual(first);
    expect(createBodyGenerator(4).generate(nested, 'k')).toEqual(first);
  });

  test('never hands back an object of the schema itself, even past json-schema-faker’s depth limit', () => {
    const leaf = { type: 'object', properties: { x: { type: 'integer' } }, default: { x: 1 } };
    let deep: Record<string, unknown> = { type: 'object', required: ['leaf'], properties: { leaf } };
    for (let i = 0; i < 5; i++) deep = { type: 'object', required: ['n'], properties: { n: deep } };
    const objects: unknown[] = [];
    const walk = (value: unknown) => {
      if (typeof value !== 'object' || value === null) return;
      objects.push(value);
      Object.values(value).forEach(walk);
    };
    walk(createBodyGenerator(1).generate(deep, 'k'));
    expect(objects.length).toBeGreaterThan(5);
    expect(objects).not.toContain(leaf.default);
  });

  test('honours patterns and uses faker for x-faker', () => {
    const body = createBodyGenerator(3).generate(schema, 'k') as Record<string, string>;
    expect(body.id).toMatch(/^pas_[0-9A-Z]{8}$/);
    expect(body.name).toMatch(/^[A-Z][a-z]+/);
    expect(Object.keys(body)).not.toContain('x-stoplight');
  });

  test('reads a property named like a keyword as a property', () => {
    const page = {
      type: 'object',
      additionalProperties: false,
      required: ['items', 'total', 'x-stoplight'],
      properties: {
        items: { type: 'array', items: { type: 'string' } },
        total: { type: 'integer' },
        'x-stoplight': { type: 'boolean' },
      },
    };
    const body = createBodyGenerator(3).generate(page, 'k') as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['items', 'total', 'x-stoplight']);
    expect(Array.isArray(body.items)).toBe(true);
  });

  test('dates fall in the year before the seed anchor', () => {
    const generator = createBodyGenerator(3);
    for (let i = 0; i < 50; i++) {
      const when = Date.parse((generator.generate(schema, `k${i}`) as { when: string }).when);
      expect(when).toBeLessThanOrEqual(generator.anchor.getTime());
      expect(when).toBeGreaterThan(generator.anchor.getTime() - 367 * 86_400_000);
    }
  });

  test('keeps generated lists short whatever maxItems allows', () => {
    const generator = createBodyGenerator(3);
    for (let i = 0; i < 30; i++)
      expect((generator.generate(schema, `k${i}`) as { tags: string[] }).tags.length).toBeLessThanOrEqual(5);
  });
});
