import { beforeAll, describe, expect, test } from 'vitest';
import { createBodyGenerator } from '../../mock/generate/generate-body.js';
import { DEFAULT_CONTRACT, loadContract } from '../../mock/index.js';
import { BoundedMemo } from '../../mock/memo/bounded-memo.js';
import type { CollectionPlan } from '../../mock/plan/collection-plan.js';
import { serve, type Served } from '../../mock/plan/serve.js';
import type { Reply } from '../../mock/reply/reply.js';
import { answerFromState, type StateRequest, type StateTools } from '../../mock/state/answer-from-state.js';
import { MemoryStore } from '../../mock/state/store.js';

let served: Served;
beforeAll(async () => {
  served = serve(await loadContract(DEFAULT_CONTRACT));
});

const plan = (id: string): CollectionPlan => served.plans.find((p) => p.operation.id === id)!.collection!;
const MEMBER = Object.freeze({ member_id: 'm1' });

function tools(placeholders = 2): StateTools {
  const generator = createBodyGenerator(1);
  return {
    store: new MemoryStore(),
    pages: new BoundedMemo(16),
    generator,
    placeholders,
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
  test('seeds a collection seen for the first time with its placeholders, and says it changed the store', () => {
    const state = tools(2);
    const { reply, changed } = answerFromState(plan('listCredentials'), state, request('listCredentials'), render);
    expect(ids(reply)).toHaveLength(2);
    expect(changed).toBe(true);
    expect(answerFromState(plan('listCredentials'), state, request('listCredentials'), render).changed).toBe(false);
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

  test('a delete of a record that is not there changes nothing but the first seeding', () => {
    const state = tools();
    const remove = () =>
      answerFromState(
        plan('deleteCredential'),
        state,
        request('deleteCredential', { pathParams: { member_id: 'm1', credential_id: 'crd_x' } }),
        render,
      );
    expect(remove()).toMatchObject({ reply: { status: 404 }, changed: true });
    expect(remove()).toMatchObject({ reply: { status: 404 }, changed: false });
  });
});
