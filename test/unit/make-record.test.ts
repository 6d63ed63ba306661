import { describe, expect, test, vi } from 'vitest';
import { createBodyGenerator, type BodyGenerator } from '../../mock/generate/generate-body.js';
import type { Operation } from '../../mock/contract/contract.js';
import type { CreatePlan } from '../../mock/plan/collection-plan.js';
import type { Collection } from '../../mock/plan/infer-collections.js';
import type { JsonObject } from '../../mock/schema/schema-facts.js';
import { echoPathParams, makeCreated, makePlaceholder } from '../../mock/state/make-record.js';

const ANCHOR = new Date('2025-06-01T12:00:00Z');
const DAY = 86_400_000;
const NOW = new Date('2026-11-22T10:00:00.000Z');

/** A generator that answers `draw(schema)` and remembers what it was asked. */
const generator = (draw: (schema: JsonObject) => unknown = () => ({})) => {
  const generate = vi.fn((schema: unknown, _key: string) => draw(schema as JsonObject));
  return { generator: { generate, anchor: ANCHOR } satisfies BodyGenerator, generate };
};

const PASS: JsonObject = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    member_id: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string', enum: ['active', 'suspended'] },
    tier: { type: 'integer', nullable: true },
    created_at: { type: 'string', format: 'date-time' },
    valid_until: { type: 'string', format: 'date-time', nullable: true },
    tags: { type: 'array', items: { type: 'string' } },
  },
};

const collection = (schema: JsonObject = PASS): Collection => ({
  path: '/members/{member_id}/passes',
  idField: 'id',
  update: [],
  schema,
  create: {} as Operation,
  list: {} as Operation,
});

/** A create plan whose open part is the record schema without the decided names (as collection-plan makes it). */
const createPlan = (requestSchema?: JsonObject): CreatePlan => ({
  requestSchema,
  idRefusal: () => undefined,
  openPart: (decided) => ({
    type: 'object',
    properties: Object.fromEntries(Object.entries(PASS.properties as object).filter(([n]) => !decided.includes(n))),
  }),
});

const create = (sent: unknown, { requestSchema, draw }: { requestSchema?: JsonObject; draw?: () => unknown } = {}) => {
  const { generator: g, generate } = generator(draw ?? (() => ({ id: 'pas_1', tags: ['x'] })));
  const record = makeCreated(g, collection(), createPlan(requestSchema), {
    key: 'k',
    pathParams: { member_id: 'm1' },
    sent,
    now: NOW,
  });
  return { record, generate };
};

describe('makeCreated', () => {
  test('keeps what was sent, takes the member from the path, and starts the rest in their initial state', () => {
    const { record } = create({ name: 'Gym', member_id: 'someone-else' });
    expect(record).toEqual({
      id: 'pas_1',
      member_id: 'm1',
      name: 'Gym',
      status: 'active',
      tier: null,
      created_at: '2026-11-22T10:00:00Z',
      valid_until: null,
      tags: ['x'],
    });
  });

  test('draws the open part again, under the next key, while it breaks its schema', () => {
    const draws = [{ id: 7 }, { id: 'pas_2', tags: ['y'] }];
    const { generator: g, generate } = generator(() => draws.shift());
    const record = makeCreated(g, collection(), createPlan(), {
      key: 'k',
      pathParams: { member_id: 'm1' },
      sent: { name: 'Gym' },
      now: NOW,
    });
    expect(record).toMatchObject({ id: 'pas_2', tags: ['y'], name: 'Gym' });
    expect(generate.mock.calls.map(([, key]) => key)).toEqual(['k', 'k|draw1']);
  });

  test('an open field the record requires and the draw left out is drawn again', () => {
    const draws = [{ id: 'pas_1' }, { id: 'pas_2', tags: [] }];
    const { generator: g, generate } = generator(() => draws.shift());
    const schema = { ...PASS, required: ['id', 'tags'] };
    const record = makeCreated(g, collection(schema), createPlan(), {
      key: 'k',
      pathParams: { member_id: 'm1' },
      sent: {},
      now: NOW,
    });
    expect(record).toMatchObject({ id: 'pas_2', tags: [] });
    expect(generate).toHaveBeenCalledTimes(2);
  });

  test('a schema whose keywords tie fields together is checked whole: a draw can mend what a sent field breaks', () => {
    const draws = [{ id: 'pas_1' }, { id: 'pas_2', tags: ['x'] }];
    const { generator: g, generate } = generator(() => draws.shift());
    const schema = { ...PASS, dependencies: { name: ['tags'] } };
    const record = makeCreated(g, collection(schema), createPlan(), {
      key: 'k',
      pathParams: { member_id: 'm1' },
      sent: { name: 'Gym' },
      now: NOW,
    });
    expect(record).toMatchObject({ id: 'pas_2', name: 'Gym', tags: ['x'] });
    expect(generate.mock.calls.map(([, key]) => key)).toEqual(['k', 'k|draw1']);
  });

  test('drawn fields are checked in the draft the record schema names', () => {
    // In 2020-12 a pair of a string and an integer fits; read as draft-07, `items: false` refuses any element.
    const schema: JsonObject = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        id: { type: 'string' },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
      },
    };
    const { generator: g, generate } = generator(() => ({ id: 'x_1', pair: ['a', 1] }));
    const plan: CreatePlan = {
      idRefusal: () => undefined,
      openPart: (decided) => ({
        type: 'object',
        properties: Object.fromEntries(
          Object.entries(schema.properties as object).filter(([name]) => !decided.includes(name)),
        ),
      }),
    };
    const record = makeCreated(g, collection(schema), plan, { key: 'k', pathParams: {}, sent: {}, now: NOW });
    expect(record).toEqual({ id: 'x_1', pair: ['a', 1] });
    expect(generate).toHaveBeenCalledTimes(1);
  });

  test('an open part that never fits is drawn four times, and the last draw is kept', () => {
    let n = 0;
    const { record, generate } = create({}, { draw: () => ({ id: n++ }) });
    expect(generate).toHaveBeenCalledTimes(4);
    expect(record.id).toBe(3);
  });

  test('a value sent that breaks the record schema is kept as sent, and draws nothing again', () => {
    const { record, generate } = create({ name: 42 });
    expect(record.name).toBe(42);
    expect(generate).toHaveBeenCalledTimes(1);
  });

  test('lists its fields in the order of the record schema', () => {
    expect(Object.keys(create({ tags: [], name: 'Gym' }).record)).toEqual(Object.keys(PASS.properties as object));
  });

  test('a sent field wins over the initial state, null and the clock', () => {
    const sent = {
      status: 'suspended',
      tier: 2,
      created_at: '2020-01-01T00:00:00Z',
      valid_until: '2027-01-01T00:00:00Z',
    };
    expect(create(sent).record).toMatchObject(sent);
  });

  test('a field not sent takes the request schema’s default, even over null', () => {
    const requestSchema = { type: 'object', properties: { tier: { default: 3 }, name: { default: 'Pool' } } };
    expect(create({}, { requestSchema }).record).toMatchObject({ tier: 3, name: 'Pool' });
  });

  test('an optional field the request declares and the client did not send stays out, not null nor drawn', () => {
    const requestSchema = { type: 'object', properties: { name: {}, tier: {}, status: {}, tags: {}, valid_until: {} } };
    const { record, generate } = create({ name: 'Gym' }, { requestSchema, draw: () => ({ id: 'pas_1' }) });
    expect(record).toEqual({ id: 'pas_1', member_id: 'm1', name: 'Gym', created_at: '2026-11-22T10:00:00Z' });
    // Nor is it drawn: the open part leaves it out.
    const open = generate.mock.calls[0]![0] as JsonObject;
    expect(Object.keys(open.properties as object)).toEqual(['id']);
  });

  test('a field the record requires, or that is readOnly, is made even where the request declares it', () => {
    const readOnlyTier = { type: 'integer', nullable: true, readOnly: true };
    const schema = { ...PASS, required: ['id', 'status'], properties: { ...PASS.properties!, tier: readOnlyTier } };
    const requestSchema = {
      type: 'object',
      properties: { status: {}, tier: {}, created_at: { readOnly: true }, valid_until: {} },
    };
    const { generator: g } = generator(() => ({ id: 'pas_1' }));
    const record = makeCreated(g, collection(schema), createPlan(requestSchema), {
      key: 'k',
      pathParams: { member_id: 'm1' },
      sent: {},
      now: NOW,
    });
    expect(record).toEqual({
      id: 'pas_1',
      member_id: 'm1',
      status: 'active',
      tier: null,
      created_at: '2026-11-22T10:00:00Z',
    });
  });

  test('a record drawn whole leaves out the unsent optional fields too, unless the record then breaks its schema', () => {
    const requestSchema = { type: 'object', properties: { name: {}, note: {} } };
    const draw = () => ({ id: 'drawn', name: 'drawn', note: 'invented' });
    const make = (schema: JsonObject) =>
      makeCreated(generator(draw).generator, collection(schema), createPlan(requestSchema), {
        key: 'k',
        pathParams: {},
        sent: { name: 'Gym' },
        now: NOW,
      });
    const open = { type: 'object', properties: { id: {}, name: {} }, anyOf: [{ type: 'object' }] };
    expect(make(open)).toEqual({ id: 'drawn', name: 'Gym' });
    const needsNote = { ...open, anyOf: [{ type: 'object', required: ['note'] }] };
    expect(make(needsNote)).toEqual({ id: 'drawn', name: 'Gym', note: 'invented' });
  });

  test('owns copies of what was sent and of defaults', () => {
    const tags = ['a'];
    const requestSchema = { type: 'object', properties: { tags: { default: ['d'] } } };
    const sent = create({ tags }).record;
    tags.push('b');
    expect(sent.tags).toEqual(['a']);
    const defaulted = create({}, { requestSchema }).record;
    expect(defaulted.tags).not.toBe((requestSchema.properties.tags as { default: unknown }).default);
  });

  test('never takes the id from the body: it is generated with the open part', () => {
    const { record, generate } = create({ id: 'chosen', name: 'Gym' });
    expect(record.id).toBe('pas_1');
    const open = generate.mock.calls[0]![0] as JsonObject;
    expect(Object.keys(open.properties as object)).toEqual(['id', 'tags']);
    expect(generate.mock.calls[0]![1]).toBe('k');
  });

  test('a field the open part does not draw is left out', () => {
    expect(create({}, { draw: () => ({ id: 'pas_1' }) }).record).not.toHaveProperty('tags');
  });

  test('a body that is not an object sends nothing', () => {
    expect(create(['name']).record.name).toBeUndefined();
    expect(create('x').record).toMatchObject({ status: 'active', member_id: 'm1' });
  });

  test('the path does not overwrite a field that cannot hold a string', () => {
    const schema = { type: 'object', properties: { id: {}, member_id: { type: 'integer' } } };
    const { generator: g } = generator(() => ({ member_id: 7 }));
    const plan = { openPart: () => schema, idRefusal: () => undefined };
    const record = makeCreated(g, collection(schema), plan, {
      key: 'k',
      pathParams: { member_id: 'm1' },
      sent: {},
      now: NOW,
    });
    expect(record.member_id).toBe(7);
  });

  const PARTS = { id: {}, name: { type: 'string' }, member_id: {} };
  const drawWhole = (schema: JsonObject) => {
    const { generator: g, generate } = generator(() => ({ id: 'drawn', name: 'drawn', member_id: 'drawn', more: 1 }));
    const plan = { openPart: vi.fn(() => ({})), idRefusal: () => undefined };
    const record = makeCreated(g, collection(schema), plan, {
      key: 'k',
      pathParams: { member_id: 'm1' },
      sent: { name: 'Gym' },
      now: NOW,
    });
    expect(generate).toHaveBeenCalledWith(schema, 'k', undefined);
    expect(plan.openPart).not.toHaveBeenCalled();
    return record;
  };

  test.each([
    ['allOf', { type: 'object', properties: PARTS, allOf: [{ type: 'object' }] }],
    ['oneOf', { type: 'object', properties: PARTS, oneOf: [{ type: 'object' }] }],
    ['anyOf', { type: 'object', properties: PARTS, anyOf: [{ type: 'object' }] }],
  ])('a record schema with %s is drawn whole, with what was sent and the path on top', (_, schema) => {
    expect(drawWhole(schema)).toEqual({ id: 'drawn', more: 1, name: 'Gym', member_id: 'm1' });
  });

  test('a record schema without properties is drawn whole: no field of its is known to keep', () => {
    expect(drawWhole({ type: 'object' })).toEqual({ id: 'drawn', more: 1, name: 'drawn', member_id: 'drawn' });
  });

  test('a generator that draws no object gives a record of the decided fields only', () => {
    const schema = { type: 'object', allOf: [], properties: { id: {}, name: { type: 'string' } } };
    const { generator: g } = generator(() => 'not an object');
    const plan = { openPart: () => ({}), idRefusal: () => undefined };
    expect(
      makeCreated(g, collection(schema), plan, { key: 'k', pathParams: {}, sent: { name: 'A' }, now: NOW }),
    ).toEqual({
      name: 'A',
    });
  });
});

describe('makePlaceholder', () => {
  const slot = { collectionKey: '/members/m1/passes', pathParams: { member_id: 'm1' }, index: 1, count: 3 };

  test('draws with a key of the collection and index, and echoes the path', () => {
    const { generator: g, generate } = generator(() => ({ id: 'p', member_id: 'drawn' }));
    expect(makePlaceholder(g, collection(), slot)).toMatchObject({ id: 'p', member_id: 'm1' });
    expect(generate).toHaveBeenCalledWith(PASS, 'placeholder|/members/m1/passes|1', undefined);
  });

  test('a collection’s placeholders were made before the anchor, oldest first, months apart, in the daytime', () => {
    const { generator: g } = generator(() => ({ created_at: 'drawn' }));
    const at = (index: number) => Date.parse(makePlaceholder(g, collection(), { ...slot, index }).created_at as string);
    const times = [0, 1, 2].map(at);
    expect(times[2]).toBeLessThan(ANCHOR.getTime());
    expect(times[0]).toBeGreaterThan(ANCHOR.getTime() - 2 * 365 * DAY);
    // Three placeholders share two years: half a step (182 days) apart at the least.
    expect(times[1]! - times[0]!).toBeGreaterThan(90 * DAY);
    expect(times[2]! - times[1]!).toBeGreaterThan(90 * DAY);
    for (const time of times) expect(new Date(time).getUTCHours()).toBeGreaterThanOrEqual(8);
    for (const time of times) expect(new Date(time).getUTCHours()).toBeLessThan(20);
  });

  test('many placeholders are made closer together, still oldest first and before the anchor', () => {
    const { generator: g } = generator(() => ({ created_at: 'drawn' }));
    const times = Array.from({ length: 1000 }, (_, index) =>
      Date.parse(makePlaceholder(g, collection(), { ...slot, index, count: 1000 }).created_at as string),
    );
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(times).size).toBe(1000);
    expect(times.at(-1)).toBeLessThan(ANCHOR.getTime());
  });

  test('a nullable timestamp that is set falls after the record’s instant, and null stays null', () => {
    const { generator: g } = generator(() => ({ created_at: 'x', valid_until: '2024-01-01T00:00:00Z' }));
    const record = makePlaceholder(g, collection(), slot);
    expect(Date.parse(record.valid_until as string)).toBeGreaterThan(Date.parse(record.created_at as string));
    const unset = generator(() => ({ created_at: 'x', valid_until: null })).generator;
    expect(makePlaceholder(unset, collection(), slot).valid_until).toBeNull();
  });

  test('an end drawn unreadable becomes a term of a month to a year after the start', () => {
    const { generator: g } = generator(() => ({ created_at: 'x', valid_until: 'soon' }));
    const record = makePlaceholder(g, collection(), slot);
    const term = (Date.parse(record.valid_until as string) - Date.parse(record.created_at as string)) / DAY;
    expect([30, 90, 180, 365]).toContain(term);
  });

  test('an expired placeholder ends before the anchor even when the draw left its end null', () => {
    const schema = { ...PASS, properties: { ...(PASS.properties as JsonObject), status: { enum: ['expired'] } } };
    const { generator: g } = generator(() => ({ status: 'expired', created_at: 'x', valid_until: null }));
    const record = makePlaceholder(g, collection(schema), slot);
    expect(record.status).toBe('expired');
    expect(Date.parse(record.valid_until as string)).toBeLessThan(ANCHOR.getTime());
    expect(Date.parse(record.valid_until as string)).toBeGreaterThan(Date.parse(record.created_at as string));
  });

  test('a timestamp the draw left out stays out', () => {
    const { generator: g } = generator(() => ({ id: 'p' }));
    expect(makePlaceholder(g, collection(), slot)).toEqual({ id: 'p', member_id: 'm1' });
  });

  test('a draw that is not an object gives a record of the path only', () => {
    const { generator: g } = generator(() => null);
    expect(makePlaceholder(g, collection(), slot)).toEqual({ member_id: 'm1' });
  });

  // What lets the store drop an untouched collection of placeholders and make it again unseen.
  test('depends only on the seed, the collection and the index: not on what was drawn before, nor on the clock', () => {
    const named = collection({
      ...PASS,
      properties: {
        ...(PASS.properties as JsonObject),
        name: { type: 'string', examples: ['Gold', 'Silver', 'Swim'] },
      },
    });
    const used = createBodyGenerator(7);
    const first = makePlaceholder(used, named, slot);
    for (let i = 0; i < 5; i++) makePlaceholder(used, named, { ...slot, collectionKey: `/members/x${i}/passes` });
    used.generate(PASS, 'POST /members/m1/passes|1');
    vi.setSystemTime(new Date('2031-01-01T00:00:00Z'));
    try {
      expect(makePlaceholder(used, named, slot)).toEqual(first);
      expect(makePlaceholder(createBodyGenerator(7), named, slot)).toEqual(first);
    } finally {
      vi.useRealTimers();
    }
    expect(makePlaceholder(createBodyGenerator(8), named, slot)).not.toEqual(first);
    expect(makePlaceholder(used, named, { ...slot, index: 2 })).not.toEqual(first);
  });
});

describe('echoPathParams', () => {
  const under = (path: string, properties: JsonObject): Collection => ({
    ...collection({ type: 'object', properties }),
    path,
  });

  test('writes a parent’s parameter into the reference to it, and into no other field', () => {
    const passes = under('/members/{member_id}/passes', {
      member_id: { type: ['string', 'null'] },
      pass_id: {},
      count: { type: 'integer' },
    });
    expect(echoPathParams({ count: 1 }, passes, { member_id: 'm1', pass_id: 'p1', count: '9' })).toEqual({
      count: 1,
      member_id: 'm1',
    });
  });

  test('a parent called {id} goes into the reference named after its segment, never into the record’s own id', () => {
    const sessions = under('/identities/{id}/sessions', { id: { type: 'string' }, identity_id: { type: 'string' } });
    expect(echoPathParams({ id: 's1' }, sessions, { id: 'i1' })).toEqual({ id: 's1', identity_id: 'i1' });
    const camel = under('/user-groups/{id}/members', { id: { type: 'string' }, userGroupId: { type: 'string' } });
    expect(echoPathParams({ id: 'm1' }, camel, { id: 'g1' })).toEqual({ id: 'm1', userGroupId: 'g1' });
  });

  test.each([
    ['a format', { type: 'string', format: 'uuid' }],
    ['a pattern', { type: 'string', pattern: '^mbr_' }],
    ['a length', { type: 'string', minLength: 5 }],
    ['an enum', { enum: ['gold', 'silver'] }],
    ['a type', { type: 'integer' }],
  ])('leaves a reference whose schema the value breaks (%s) as drawn', (_, schema) => {
    const passes = under('/members/{member_id}/passes', { member_id: schema });
    expect(echoPathParams({ member_id: 'drawn' }, passes, { member_id: 'm1' })).toEqual({ member_id: 'drawn' });
  });
});

describe('a record drawn unfit for its schema', () => {
  const SIMPLE: JsonObject = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } };
  /** Draws an id of the wrong type, except under the keys given. */
  const drawsFit = (fitKeys: RegExp) => {
    const generate = vi.fn((_schema: unknown, key: string) => ({ id: fitKeys.test(key) ? 'p1' : 7 }));
    return { generator: { generate, anchor: ANCHOR } satisfies BodyGenerator, generate };
  };
  const slot = { collectionKey: '/members/m1/passes', pathParams: {}, index: 0, count: 1 };

  test('is drawn again under another key: a placeholder keeps the first draw that fits', () => {
    const { generator: g, generate } = drawsFit(/\|draw1$/);
    expect(makePlaceholder(g, collection(SIMPLE), slot).id).toBe('p1');
    expect(generate.mock.calls.map(([, key]) => key)).toEqual([
      'placeholder|/members/m1/passes|0',
      'placeholder|/members/m1/passes|0|draw1',
    ]);
  });

  test('is drawn again under another key: a created record keeps the first draw that fits', () => {
    const { generator: g } = drawsFit(/\|draw2$/);
    const plan: CreatePlan = { openPart: () => SIMPLE, idRefusal: () => undefined };
    const record = makeCreated(g, collection(SIMPLE), plan, { key: 'k', pathParams: {}, sent: {}, now: NOW });
    expect(record.id).toBe('p1');
  });

  test('is kept after four draws that all miss, rather than drawing forever', () => {
    const { generator: g, generate } = drawsFit(/^$/);
    expect(makePlaceholder(g, collection(SIMPLE), slot).id).toBe(7);
    expect(generate).toHaveBeenCalledTimes(4);
  });
});
