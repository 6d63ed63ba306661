import { beforeAll, describe, expect, test, vi } from 'vitest';
import { createBodyGenerator } from '../../mock/generate/generate-body.js';
import { DEFAULT_CONTRACT, loadContract } from '../../mock/index.js';
import { BoundedTrieMemo } from '../../mock/lib/bounded-memo.js';
import type { CollectionPlan } from '../../mock/plan/collection-plan.js';
import { serve, type Served } from '../../mock/plan/serve.js';
import type { Reply } from '../../mock/http/reply.js';
import { answerFromState, type StateRequest, type StateTools } from '../../mock/state/answer-from-state.js';
import { PlaceholderSource } from '../../mock/state/placeholders.js';
import { StateBudget } from '../../mock/state/state-budget.js';
import { MemoryStore, type StoreLimits } from '../../mock/state/store.js';

let served: Served;
beforeAll(async () => {
  served = serve(await loadContract(DEFAULT_CONTRACT));
});

const plan = (id: string): CollectionPlan => served.plans.find((p) => p.operation.id === id)!.collection!;
const MEMBER = Object.freeze({ member_id: 'm1' });

/** A memory store whose collections start with `placeholders` records of the contract. */
function storeWith(placeholders: number, limits: Partial<StoreLimits> = {}): MemoryStore {
  const store = new MemoryStore(limits);
  const source = new PlaceholderSource(served.collections, createBodyGenerator(1), placeholders);
  store.usePlaceholders((key) => source.of(key));
  return store;
}

function tools(placeholders = 2): StateTools {
  return {
    store: storeWith(placeholders),
    pages: new BoundedTrieMemo(16, 4096, 100),
    generator: createBodyGenerator(1),
    now: () => new Date(Date.UTC(2026, 0, 1)),
  };
}

function request(operationId: string, extra: Partial<StateRequest> = {}): StateRequest {
  return {
    operationId,
    path: '/members/m1/credentials',
    pathParams: MEMBER,
    query: {},
    body: undefined,
    key: 'k',
    ...extra,
  };
}

/** Renders what state hands over as the reply body (an envelope, when asked for one, is empty). */
const render = (body?: unknown): Reply => ({
  status: 200,
  headers: {},
  contentType: 'application/json',
  body: body ?? {},
});
const ids = (reply: Reply) => (reply.body as { data: { id: string }[] }).data.map((c) => c.id);

describe('answerFromState', () => {
  test('answers a collection seen for the first time with its placeholders, and changes nothing', () => {
    const state = tools(2);
    const { reply, changed } = answerFromState(plan('listCredentials'), state, request('listCredentials'), render);
    expect(ids(reply)).toHaveLength(2);
    expect(changed).toBe(false);
    expect([state.store.snapshot(), state.store.usage()]).toEqual([{}, { records: 0, bytes: 0 }]);
  });

  test('hands out the very same page while the collection is unchanged', () => {
    const state = tools();
    const first = answerFromState(plan('listCredentials'), state, request('listCredentials'), render).reply.body;
    const again = answerFromState(plan('listCredentials'), state, request('listCredentials'), render).reply.body;
    expect(again).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  test.each([
    [
      'a create',
      (s: StateTools) =>
        answerFromState(
          plan('createCredential'),
          s,
          request('createCredential', { body: { kind: 'pin' }, key: 'c1' }),
          render,
        ),
    ],
    [
      'a delete',
      (s: StateTools) =>
        s.store.delete('/members/m1/credentials', s.store.list('/members/m1/credentials')[0]!.id as string),
    ],
    ['a restore', (s: StateTools) => s.store.restore({ '/members/m1/credentials': [] }, () => 'x')],
  ])('makes a new page after %s', (_name, change) => {
    const state = tools();
    const before = ids(answerFromState(plan('listCredentials'), state, request('listCredentials'), render).reply);
    change(state);
    const after = ids(answerFromState(plan('listCredentials'), state, request('listCredentials'), render).reply);
    expect(after).not.toEqual(before);
    expect(after).toEqual(
      state.store
        .list('/members/m1/credentials')
        .map((c) => c.id)
        .reverse(),
    );
  });

  test('keeps pages of other sizes and positions apart', () => {
    const state = tools(3);
    const page = (query: Record<string, string>) =>
      answerFromState(plan('listCredentials'), state, request('listCredentials', { query }), render).reply.body as {
        data: unknown[];
        next_cursor: string | null;
      };
    const one = page({ limit: '1' });
    const all = page({});
    expect(one.data).toHaveLength(1);
    expect(all.data).toHaveLength(3);
    expect(page({ limit: '1', cursor: one.next_cursor! }).data).toEqual([all.data[1]]);
    expect(all.next_cursor).toBeNull();
  });

  test('answers 404 for a record that is not there, and a read of one that is', () => {
    const state = tools();
    const created = answerFromState(
      plan('createPass'),
      state,
      request('createPass', { path: '/members/m1/passes', body: { name: 'Gym' } }),
      render,
    ).reply.body as { id: string };
    const read = (id: string) =>
      answerFromState(
        plan('getPass'),
        state,
        request('getPass', { path: `/members/m1/passes/${id}`, pathParams: { member_id: 'm1', pass_id: id } }),
        render,
      ).reply;
    expect(read(created.id).body).toBe(state.store.get('/members/m1/passes', created.id));
    expect(read('pas_missing')).toMatchObject({ status: 404, violations: [] });
  });

  test('answers 400 for a cursor it did not issue, and keeps no violation for the journal', () => {
    const reply = answerFromState(
      plan('listCredentials'),
      tools(),
      request('listCredentials', { query: { cursor: 'nope' } }),
      render,
    ).reply;
    expect(reply).toMatchObject({
      status: 400,
      violations: [],
      body: { violations: [{ location: 'query', pointer: '/cursor' }] },
    });
  });

  test('a delete of a record that is not there changes nothing', () => {
    const state = tools();
    const remove = () =>
      answerFromState(
        plan('deleteCredential'),
        state,
        request('deleteCredential', { pathParams: { member_id: 'm1', credential_id: 'crd_x' } }),
        render,
      );
    expect(remove()).toMatchObject({ reply: { status: 404 }, changed: false });
    expect(state.store.snapshot()).toEqual({});
  });
});

describe('answerFromState: list pages', () => {
  /** The list plan of listCredentials with its own envelope memo, changed by `change`. */
  const listing = (change: Partial<NonNullable<CollectionPlan['list']>> = {}): CollectionPlan => {
    const base = plan('listCredentials');
    let envelope: Record<string, unknown> | undefined;
    return { ...base, list: { ...base.list!, envelope: (make) => (envelope ??= make()), ...change } };
  };
  const page = (list: CollectionPlan, state: StateTools, query: Record<string, string | string[]>, draw = render) =>
    answerFromState(list, state, request('listCredentials', { query }), draw).reply;

  test('keeps the generated envelope’s other fields, made once, and puts the records in its array', () => {
    const draw = vi.fn((body?: unknown) => render(body ?? { total: 7, data: ['generated'], next_cursor: 'x' }));
    const list = listing();
    const state = tools(3);
    expect(page(list, state, { limit: '2' }, draw).body).toEqual({
      total: 7,
      data: state.store.list('/members/m1/credentials').reverse().slice(0, 2),
      next_cursor: expect.any(String),
    });
    page(list, state, { limit: '1' }, draw);
    expect(draw.mock.calls.filter(([body]) => body === undefined)).toHaveLength(1);
  });

  test.each([
    ['an array', []],
    ['null', null],
    ['a string', 'x'],
  ])('a generated envelope that is %s gives the records and the cursor alone', (_, generated) => {
    const draw = (body?: unknown) => ({ ...render(body), body: body ?? generated });
    expect(Object.keys(page(listing(), tools(1), {}, draw).body as object)).toEqual(['data', 'next_cursor']);
  });

  test('a page weighs its records and its envelope in the page memo, so the memo bounds the records it keeps', () => {
    const state = tools(3);
    page(listing(), state, { limit: '2' });
    expect(state.pages.weight).toBe(3);
  });

  test('gives a next cursor while records remain; on the last page none, or null if the field is nullable', () => {
    // A store of its own for each page: pages are kept per operation and version, not per plan.
    const next = (list: CollectionPlan, limit: string) =>
      page(list, tools(3), { limit }).body as Record<string, unknown>;
    expect(next(listing(), '2').next_cursor).toEqual(expect.any(String));
    expect(next(listing(), '3').next_cursor).toBeNull();
    expect(next(listing({ nextNullable: false }), '3')).not.toHaveProperty('next_cursor');
    expect(next(listing({ nextNullable: false }), '2').next_cursor).toEqual(expect.any(String));
    expect(next(listing({ nextField: undefined }), '2')).not.toHaveProperty('next_cursor');
  });

  test.each([
    ['0', 3],
    ['-1', 3],
    ['1.5', 3],
    ['two', 3],
    ['1', 1],
  ])('a page size of %s gives %i records (the default is 3 here)', (limit, count) => {
    const body = page(listing({ defaultLimit: 3 }), tools(4), { limit }).body as { data: unknown[] };
    expect(body.data).toHaveLength(count);
  });

  test('a repeated page size takes the first', () => {
    expect((page(listing(), tools(3), { limit: ['1', '3'] }).body as { data: unknown[] }).data).toHaveLength(1);
  });

  test('without a page size parameter a list pages by the plan’s size, whatever the query says', () => {
    const one = page(listing({ limitParam: undefined, defaultLimit: 1 }), tools(3), { limit: '2' }).body;
    expect((one as { data: unknown[] }).data).toHaveLength(1);
    const all = page(listing({ limitParam: undefined, defaultLimit: Infinity }), tools(3), { limit: '2' }).body;
    expect((all as { data: unknown[] }).data).toHaveLength(3);
  });

  const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  test.each([
    ['a repeated cursor', ['a', 'b']],
    ['a negative offset', cursor({ offset: -1 })],
    ['a fractional offset', cursor({ offset: 0.5 })],
    ['an offset that is no number', cursor({ offset: '1' })],
    ['a fractional position', cursor({ at: 0.5 })],
    ['a position that is no number', cursor({ at: '1' })],
    ['a cursor that is not JSON', Buffer.from('{').toString('base64url')],
  ])('refuses %s', (_, value) => {
    expect(page(listing(), tools(2), { cursor: value })).toMatchObject({
      status: 400,
      body: {
        title: 'The cursor is not one this mock issued',
        detail:
          'query /cursor: the value fits the contract, but names no page this mock handed out. Pass the ' +
          "next_cursor of a previous page unchanged (or a record's id), or leave cursor out for the first page.",
        violations: [{ location: 'query', pointer: '/cursor' }],
      },
    });
  });

  test('takes a cursor at offset 0 as the first page', () => {
    const state = tools(2);
    expect(page(listing(), state, { cursor: cursor({ offset: 0 }) }).body).toEqual(page(listing(), state, {}).body);
  });

  test.each([
    ['after a record, with a count of the older ones', (listed: string[]) => ({ after: listed[0], rest: 3 }), 1],
    ['after a record gone, by the count of the older ones', () => ({ after: 'gone', rest: 2 }), 2],
    ['by the count of the older ones alone', () => ({ rest: 1 }), 3],
    ['at an offset', () => ({ offset: 2 }), 2],
  ])('reads a cursor an earlier mock issued: %s', (_, value, start) => {
    const state = tools(4);
    const listed = state.store
      .list('/members/m1/credentials')
      .reverse()
      .map((record) => String(record.id));
    expect(ids(page(listing(), state, { cursor: cursor(value(listed)), limit: '1' }))).toEqual(
      listed.slice(start, start + 1),
    );
  });

  test('without a cursor parameter reads no cursor', () => {
    const body = page(listing({ cursorParam: undefined }), tools(2), { cursor: 'nope' }).body as { data: unknown[] };
    expect(body.data).toHaveLength(2);
  });

  test('a bare array list is the page itself', () => {
    const state = tools(2);
    expect(page(listing({ where: [] }), state, { limit: '1' }).body).toEqual([
      state.store.list('/members/m1/credentials').reverse()[0],
    ]);
  });
});

describe('answerFromState: records', () => {
  test('a missing record’s 404 names it by the item parameter, in the detail and the violation', () => {
    const reply = answerFromState(
      plan('getPass'),
      tools(),
      request('getPass', { path: '/members/m1/passes/pas_x', pathParams: { member_id: 'm1', pass_id: 'pas_x' } }),
      render,
    ).reply;
    expect(reply.body).toMatchObject({
      detail: 'getPass: pass pas_x does not exist (it was never created, or was deleted).',
      instance: '/members/m1/passes/pas_x',
      violations: [{ location: 'path', pointer: '/pass_id', message: 'no pass with this id' }],
    });
  });

  test.each([
    ['id', 'record'],
    ['cardId', 'card'],
    ['pass_id', 'pass'],
    ['idiom', 'idiom'],
  ])('an item parameter %s names a missing record a %s', (idParam, noun) => {
    const base = plan('getPass');
    const read = { ...base, collection: { ...base.collection, idParam } };
    const reply = answerFromState(
      read,
      tools(),
      request('getPass', { pathParams: { member_id: 'm1', [idParam]: 'x' } }),
      render,
    );
    expect(reply.reply.body).toMatchObject({
      violations: [{ pointer: `/${idParam}`, message: `no ${noun} with this id` }],
    });
  });

  test('an item operation without an id parameter answers from the contract', () => {
    const base = plan('getPass');
    const read = { ...base, collection: { ...base.collection, idParam: undefined } };
    expect(answerFromState(read, tools(), request('getPass'), render)).toEqual({ reply: render(), changed: false });
  });

  test('a create whose generated id is taken draws again with a new key, twenty times at most', () => {
    const state = tools(0);
    // Ids that fit the contract's pattern: a record that does not fit would be drawn again for that reason.
    const [taken, free] = [`pas_${'0'.repeat(26)}`, `pas_${'1'.repeat(26)}`];
    const generate = vi.fn((_schema: unknown, key: string) => ({ id: key.endsWith('retry2') ? free : taken }));
    state.generator = { generate, anchor: new Date(0) };
    state.store.put('/members/m1/passes', taken, { id: taken });
    const create = () =>
      answerFromState(plan('createPass'), state, request('createPass', { body: { name: 'Gym' }, key: 'k' }), render);
    expect(create().reply.body).toMatchObject({ id: free });
    expect(generate.mock.calls.map(([, key]) => key)).toEqual(['k', 'k|retry1', 'k|retry2']);
    generate.mockClear();
    generate.mockImplementation(() => ({ id: taken }));
    expect(create().reply.body).toMatchObject({ id: taken });
    expect(generate).toHaveBeenCalledTimes(21);
  });
});

describe('answerFromState: limits', () => {
  /** Tools whose store has these limits; `kept` records stored first, in a collection of their own. */
  const limited = (limits: { collection?: number; bytes?: number }, placeholders = 2, kept = 0) => {
    const { collection, bytes } = limits;
    const store = storeWith(placeholders, {
      ...(collection === undefined ? {} : { collection }),
      ...(bytes === undefined ? {} : { budget: new StateBudget(bytes) }),
    });
    const state = { ...tools(placeholders), store };
    for (let i = 0; i < kept; i++) state.store.put('/members/other/passes', `k${i}`, { id: `k${i}` });
    return state;
  };
  const PASSES = '/members/m1/passes';
  const createPass = (state: StateTools, key = 'c1') =>
    answerFromState(plan('createPass'), state, request('createPass', { path: PASSES, body: {}, key }), render);
  const listPasses = (state: StateTools) =>
    answerFromState(plan('listPasses'), state, request('listPasses', { path: PASSES }), render);
  const passAt = (operationId: 'getPass' | 'deletePass', state: StateTools, id: string) =>
    answerFromState(
      plan(operationId),
      state,
      request(operationId, { path: `${PASSES}/${id}`, pathParams: { member_id: 'm1', pass_id: id } }),
      render,
    );

  test('a create into a full collection answers 507 naming the collection limit, and stores nothing', () => {
    const state = limited({ collection: 2 });
    listPasses(state);
    const { reply, changed } = createPass(state);
    expect(reply).toMatchObject({
      status: 507,
      contentType: 'application/problem+json',
      violations: [],
      body: {
        type: 'https://example.com/problems/storage-full',
        status: 507,
        detail:
          `createPass: the collection ${PASSES} is full: it holds 2 of 2 records (collectionLimit). Nothing was ` +
          'stored. Make room by deleting records or with POST /__mock/reset, or raise --collection-limit.',
      },
    });
    expect(changed).toBe(false);
    expect(state.store.count(PASSES)).toBe(2);
  });

  test('a full collection of one record says "1 of 1 record"', () => {
    const state = limited({ collection: 1 }, 1);
    listPasses(state);
    expect((createPass(state).reply.body as { detail: string }).detail).toContain(
      'it holds 1 of 1 record (collectionLimit)',
    );
  });

  test('a create past the state budget answers 507 naming the budget, and stores nothing', () => {
    const state = limited({ bytes: 2048 }, 2, 24);
    const { reply, changed } = createPass(state);
    expect(reply.body).toMatchObject({
      status: 507,
      detail: expect.stringMatching(
        /^createPass: the state budget is used up: what clients wrote takes 1\.\d+KB of 2KB \(stateBytes; placeholders are free\)\. Nothing was stored\. Make room by deleting records or with POST \/__mock\/reset, or raise --state-bytes\.$/,
      ),
    });
    expect(changed).toBe(false);
    expect(state.store.count(PASSES)).toBe(2);
  });

  test('reads of new members never fill the budget: a list and a read of any member answer its placeholders', () => {
    const state = limited({ bytes: 1 });
    for (let m = 0; m < 50; m++) {
      const pathParams = { member_id: `m${m}` };
      const list = answerFromState(plan('listPasses'), state, request('listPasses', { pathParams }), render);
      expect(ids(list.reply)).toHaveLength(2);
    }
    const [id] = ids(listPasses(state).reply);
    expect(passAt('getPass', state, id!).reply.body).toMatchObject({ id });
    expect(state.store.usage()).toEqual({ records: 0, bytes: 0 });
  });

  test('a delete of a placeholder the budget has no room to remember answers 507, and the placeholder stays', () => {
    const state = limited({ bytes: 1 });
    const [id] = ids(listPasses(state).reply);
    expect(passAt('deletePass', state, id!)).toMatchObject({ reply: { status: 507 }, changed: false });
    expect(ids(listPasses(state).reply)).toContain(id);
  });

  test('a delete of a missing record when the budget is full answers 404', () => {
    const state = limited({ bytes: 1 });
    expect(passAt('deletePass', state, 'pas_missing')).toMatchObject({ reply: { status: 404 }, changed: false });
  });

  test('a member created into keeps its placeholders as they were, and only the create is charged', () => {
    const state = limited({});
    const before = listPasses(state).reply.body as { data: unknown[] };
    createPass(state);
    const after = listPasses(state).reply.body as { data: unknown[] };
    expect(after.data.slice(1)).toEqual(before.data);
    expect(state.store.usage().records).toBe(1);
  });
});
