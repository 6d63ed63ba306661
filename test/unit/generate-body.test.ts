import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
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

describe('createBodyGenerator with hints', () => {
  const member = {
    type: 'object',
    additionalProperties: false,
    required: ['first_name', 'last_name', 'email', 'city', 'plan', 'kind', 'label'],
    properties: {
      first_name: { type: 'string', maxLength: 30 },
      last_name: { type: 'string', maxLength: 30 },
      email: { type: 'string', format: 'email', maxLength: 80 },
      city: { type: 'string', maxLength: 40 },
      plan: {
        type: 'string',
        maxLength: 20,
        examples: ['Gold', 'Silver', 'Off-Peak Gym Pass', 'A plan too long to fit'],
      },
      kind: { type: 'string', enum: ['pin', 'card', 'mobile'] },
      label: {
        type: ['string', 'null'],
        'x-examples': ['Front desk card', 'Spare card', 'Side gate PIN', 'Locker PIN', "Alex's mobile", 'Work mobile'],
      },
    },
  };
  const draws = (seed: number, count = 200) =>
    Array.from({ length: count }, (_, i) => createBodyGenerator(seed).generate(member, `k${i}`) as Record<string, any>);

  test('values come from the examples list, each one in turn, and none that breaks maxLength', () => {
    const plans = new Set(draws(1).map((body) => body.plan));
    expect([...plans].sort()).toEqual(['Gold', 'Off-Peak Gym Pass', 'Silver']);
  });

  test('a property name’s hint applies only where the schema allows it: a maxLength 3 first name is never longer', () => {
    const tiny = {
      type: 'object',
      additionalProperties: false,
      required: ['first_name'],
      properties: { first_name: { type: 'string', minLength: 1, maxLength: 3 } },
    };
    const generator = createBodyGenerator(2);
    const names = Array.from(
      { length: 200 },
      (_, i) => (generator.generate(tiny, `k${i}`) as any).first_name as string,
    );
    for (const name of names) expect([...name].length).toBeLessThanOrEqual(3);
    // Short names that fit are used ("Amy", "Ian"); the others fall back to json-schema-faker's draw.
    expect(names.filter((name) => /^[A-Z][a-z]{1,2}$/.test(name)).length).toBeGreaterThan(5);
    for (const body of draws(2)) expect(body.first_name).toMatch(/^[A-Z][a-z'-]+$/);
  });

  test('an email is made from the names beside it', () => {
    for (const body of draws(3, 50)) {
      const local = body.email.split('@')[0].toLowerCase();
      expect(local).toContain(
        body.first_name
          .toLowerCase()
          .replace(/[^a-z]/g, '')
          .slice(0, 3),
      );
    }
  });

  test('a label that names a kind goes only with that kind; a nullable hinted value is null about a quarter of the time', () => {
    const bodies = draws(4);
    for (const body of bodies) {
      if (body.label === null) continue;
      expect(body.label.toLowerCase()).toContain(body.kind);
    }
    const nulls = bodies.filter((body) => body.label === null).length;
    expect(nulls).toBeGreaterThan(20);
    expect(nulls).toBeLessThan(80);
  });

  test('the same seed and key give the same body with hints, whatever another generator drew in between', () => {
    const a = createBodyGenerator(5);
    const first = a.generate(member, 'k');
    createBodyGenerator(6).generate(member, 'k');
    a.generate(member, 'other');
    expect(a.generate(member, 'k')).toEqual(first);
    expect(createBodyGenerator(5).generate(member, 'k')).toEqual(first);
    expect(createBodyGenerator(6).generate(member, 'k')).not.toEqual(first);
  });
});

describe('createBodyGenerator in the hard cases of real contracts', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  /** The errors of 50 bodies drawn for a schema: none when every one fits it. */
  /** A schema with its bundled parts where ajv finds them. */
  const asDefs = (part: object) => JSON.parse(JSON.stringify(part).replaceAll('#/__bundled__/', '#/$defs/'));
  const errorsOf = (schema: object, bundle?: Record<string, unknown>) => {
    const validate = ajv.compile(bundle ? { ...asDefs(schema), $defs: asDefs(bundle) } : schema);
    const generator = createBodyGenerator(11);
    const errors: unknown[] = [];
    for (let i = 0; i < 50; i++) {
      const body = generator.generate(schema, `k${i}`, bundle);
      if (!validate(body)) errors.push({ body, errors: validate.errors });
    }
    return errors;
  };

  test('a recursive schema, its parts kept in the operation’s bundle as Prism’s loader does, fits', () => {
    const node = {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string' },
        children: { type: 'array', items: { $ref: '#/__bundled__/node' } },
      },
    };
    const schema = { type: 'object', required: ['root'], properties: { root: { $ref: '#/__bundled__/node' } } };
    expect(errorsOf(schema, { node })).toEqual([]);
  });

  test('a schema first asked for without its bundle (which fails) is drawn once the bundle comes', () => {
    const node = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
    const schema = { type: 'object', required: ['root'], properties: { root: { $ref: '#/__bundled__/node' } } };
    const generator = createBodyGenerator(3);
    expect(() => generator.generate(schema, 'k')).toThrow(/Unresolved \$ref/);
    expect(generator.generate(schema, 'k', { node })).toEqual({ root: { name: expect.any(String) } });
  });

  test('a required value nine levels down is drawn whole, not "" or {}', () => {
    let deep: object = {
      type: 'object',
      required: ['sha'],
      properties: { sha: { type: 'string', pattern: '^[a-f]+$' } },
    };
    for (let i = 0; i < 8; i++)
      deep = { type: 'object', required: ['next'], properties: { next: deep, note: { type: 'string' } } };
    expect(errorsOf(deep)).toEqual([]);
  });

  test('optional parts stop deep down, so a body stays small', () => {
    let deep: object = { type: 'string' };
    for (let i = 0; i < 12; i++)
      deep = { type: 'object', properties: { a: deep, b: deep, list: { type: 'array', items: deep } } };
    const body = createBodyGenerator(4).generate(deep, 'k');
    expect(JSON.stringify(body).length).toBeLessThan(200_000);
  });

  test('a map of typed values gets no extension keyword (x-oaiTypeLabel) or OpenAPI keyword as data', () => {
    const map = {
      type: 'object',
      additionalProperties: { type: 'boolean' },
      'x-oaiTypeLabel': 'map',
      xml: { name: 'flags' },
      example: { a: true },
    };
    const generator = createBodyGenerator(2);
    for (let i = 0; i < 20; i++) {
      const body = generator.generate(map, `k${i}`) as Record<string, unknown>;
      for (const value of Object.values(body)) expect(typeof value).toBe('boolean');
    }
  });

  test('a pattern with minLength and maxLength is drawn to fit both: a 40-digit commit sha', () => {
    const schema = {
      type: 'object',
      required: ['commit_sha'],
      properties: { commit_sha: { type: 'string', pattern: '^[0-9a-fA-F]+$', minLength: 40, maxLength: 40 } },
    };
    expect(errorsOf(schema)).toEqual([]);
  });

  test('a byte string is base64 even with the pattern Prism’s loader adds beside the format', () => {
    const raw = { type: 'string', format: 'byte', pattern: '^[\\w\\d+\\/=]*$' };
    expect(errorsOf({ type: 'object', required: ['Raw'], properties: { Raw: raw } })).toEqual([]);
  });

  test('a double bounded by ±1.8e308 (as Prism’s loader bounds format double) is a finite number', () => {
    const max = { type: 'number', format: 'double', minimum: -1.7976931348623157e308, maximum: 1.7976931348623157e308 };
    const generator = createBodyGenerator(5);
    for (let i = 0; i < 20; i++) {
      const body = generator.generate({ type: 'object', required: ['max'], properties: { max } }, `k${i}`) as {
        max: number;
      };
      expect(Number.isFinite(body.max)).toBe(true);
    }
  });

  test.each(['byte', 'binary', 'uuid', 'uri', 'email', 'date-time', 'date', 'ipv4', 'ipv6', 'hostname', 'duration'])(
    'a %s string is valid for ajv-formats',
    (format) => {
      expect(errorsOf({ type: 'object', required: ['v'], properties: { v: { type: 'string', format } } })).toEqual([]);
    },
  );
});

describe('createBodyGenerator: a hint only gives values its schema allows', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const asDefs = (part: object) => JSON.parse(JSON.stringify(part).replaceAll('#/__bundled__/', '#/$defs/'));
  /** 60 bodies drawn for a schema, and ajv's errors for those that do not fit it. */
  const draw = (schema: object, bundle?: Record<string, unknown>) => {
    const validate = ajv.compile(bundle ? { ...asDefs(schema), $defs: asDefs(bundle) } : schema);
    const generator = createBodyGenerator(21);
    const bodies = Array.from({ length: 60 }, (_, i) => generator.generate(schema, `k${i}`, bundle) as any);
    const errors = bodies.filter((body) => !validate(body)).map((body) => ({ body, errors: validate.errors }));
    return { bodies, errors };
  };
  const hinted = {
    type: 'object',
    required: ['values', 'count', 'code', 'kind', 'level', 'email', 'id', 'first_name', 'phone', 'nickname', 'price'],
    properties: {
      // The case third-party testers found: answered as a string ("LE4mf0pt90_ZmOC").
      values: { type: 'array', items: { type: 'string' }, 'x-faker': 'internet.password' },
      count: { type: 'integer', minimum: 0, 'x-faker': 'internet.password' },
      code: { type: 'string', maxLength: 4, 'x-faker': 'lorem.paragraph' },
      kind: { type: 'string', enum: ['pin', 'card'], 'x-faker': 'lorem.word' },
      level: { type: 'integer', 'x-examples': ['low', 'high', 'top'] },
      // Name hints on properties that are not strings.
      email: { type: 'integer' },
      id: { type: 'integer' },
      first_name: { type: 'boolean' },
      phone: { type: 'array', items: { type: 'integer' } },
      // Hints that fit are still used, made the schema's type as json-schema-faker makes them.
      nickname: { type: 'string', maxLength: 30, 'x-faker': 'person.firstName' },
      price: { type: 'number', minimum: 0, 'x-faker': 'finance.amount' },
      odd: { type: 'string', 'x-faker': 'constructor.constructor' },
      args: { type: 'integer', minimum: 1, maximum: 9, 'x-faker': { 'number.int': [{ min: 1, max: 9 }] } },
    },
  };

  test('x-faker, x-examples and names at the top of a body', () => {
    const { bodies, errors } = draw(hinted);
    expect(errors).toEqual([]);
    for (const body of bodies) {
      expect(Array.isArray(body.values)).toBe(true);
      expect(Number.isInteger(body.count)).toBe(true);
      expect(body.nickname).toMatch(/^[A-Z][a-z'-]+$/);
      expect(typeof body.price).toBe('number');
    }
  });

  test('the same hints inside arrays of objects, and in a recursive part kept in the bundle', () => {
    const nested = {
      type: 'object',
      required: ['rows', 'tree'],
      properties: {
        rows: { type: 'array', minItems: 2, items: hinted },
        tree: { $ref: '#/__bundled__/node' },
      },
    };
    const node = {
      type: 'object',
      required: ['values', 'email'],
      properties: {
        values: { type: 'array', items: { type: 'string' }, 'x-faker': 'internet.password' },
        email: { type: 'boolean' },
        children: { type: 'array', items: { $ref: '#/__bundled__/node' } },
      },
    };
    const { bodies, errors } = draw(nested, { node });
    expect(errors).toEqual([]);
    for (const body of bodies) for (const row of body.rows) expect(Array.isArray(row.values)).toBe(true);
  });
});

describe('createBodyGenerator: tuples', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const point = { type: 'array', items: [{ type: 'number' }, { type: 'number' }], additionalItems: false, minItems: 2 };
  const segment = { type: 'array', items: [{ type: 'string', maxLength: 8 }, point, point], additionalItems: false };
  const route = { type: 'array', minItems: 1, maxItems: 3, items: segment };
  const plan = { type: 'array', items: [route, route, route] };

  test('a draft 4 tuple (items: [a, b]) is drawn one item per schema, tuples in tuples too, and stays small', () => {
    // Drawn as arrays of {"0": …, "1": …} objects, these grew to 200 kB.
    const schema = { type: 'array', items: [plan, plan], additionalItems: { type: 'boolean' }, minItems: 4 };
    const validate = ajv.compile(schema);
    const generator = createBodyGenerator(3);
    for (let i = 0; i < 30; i++) {
      const body = generator.generate(schema, `k${i}`) as unknown[];
      expect(validate(body) ? [] : validate.errors).toEqual([]);
      expect(JSON.stringify(body).length).toBeLessThan(4000);
      expect(body.slice(2).every((flag) => typeof flag === 'boolean')).toBe(true);
    }
  });
});
