import { beforeAll, describe, expect, test } from 'vitest';
import {
  decide,
  type Decision,
  type DecideRequest,
  type DecideSettings,
  type SessionView,
} from '../../mock/respond/decide.js';
import { DEFAULT_CONTRACT, loadContract } from '../../mock/index.js';
import { REQUESTS } from '../../mock/instance/session.js';
import { serve, type Served } from '../../mock/plan/serve.js';
import type { Override } from '../../mock/respond/overrides.js';

let served: Served;
let library: Served;
beforeAll(async () => {
  served = serve(await loadContract(DEFAULT_CONTRACT));
  library = serve(await loadContract('test/fixtures/library.openapi.yaml'));
});

const plan = (id: string, from = () => served) => from().plans.find((p) => p.operation.id === id)!;

function getPass(extra: Partial<DecideRequest> = {}): DecideRequest {
  const path = '/members/m1/passes/pas_1';
  return {
    method: 'GET',
    path,
    routedPath: path,
    rawQuery: '',
    query: {},
    headers: { authorization: 'Bearer t' },
    body: undefined,
    pathParams: { member_id: 'm1', pass_id: 'pas_1' },
    ...extra,
  };
}

function createCredential(extra: Partial<DecideRequest> = {}): DecideRequest {
  const path = '/members/m1/credentials';
  return getPass({
    method: 'POST',
    path,
    routedPath: path,
    headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    body: { kind: 'pin' },
    pathParams: { member_id: 'm1' },
    ...extra,
  });
}

const session = (extra: Partial<SessionView> = {}): SessionView => ({
  name: '',
  overrides: [],
  counters: new Map(),
  ...extra,
});
const settings = (extra: Partial<DecideSettings> = {}): DecideSettings => ({
  seed: 1,
  faults: {},
  checkSecurity: true,
  dynamic: true,
  stateless: false,
  ...extra,
});
const override = (extra: Partial<Override>): Override => ({
  id: 'override-1',
  operationId: 'getPass',
  remaining: null,
  ...extra,
});

/** The decision in a line: `answer 404 from contract after 0 ms`, `drop after 0 ms`, `refuse 400`. */
function summary(decision: Decision): string {
  if (decision.kind === 'refuse') return `refuse ${decision.reply.status}`;
  if (decision.kind === 'drop') return `drop after ${decision.delay} ms`;
  if (decision.kind === 'forward') return `forward after ${decision.delay} ms`;
  return `answer ${decision.status} from ${decision.source.from} after ${decision.delay} ms`;
}

describe('decide: what to answer, strongest first (Prefer > override > fault > contract)', () => {
  const FAIL = { failureRate: 1 };
  const DROP = { dropRate: 1 };
  test.each([
    ['nothing asked: the contract, from state', undefined, undefined, {}, 'answer 200 from state after 0 ms'],
    ['a fault alone fails with the documented 5xx', undefined, undefined, FAIL, 'answer 500 from contract after 0 ms'],
    ['a fault alone drops the connection', undefined, undefined, DROP, 'drop after 0 ms'],
    ['a fault alone adds its latency', undefined, undefined, { latency: 30 }, 'answer 200 from state after 30 ms'],
    ['an override wins over a failure fault', undefined, { status: 404 }, FAIL, 'answer 404 from contract after 0 ms'],
    ['an override wins over a drop fault', undefined, { status: 404 }, DROP, 'answer 404 from contract after 0 ms'],
    [
      'an override’s delay wins over the fault’s latency',
      undefined,
      { delay: 10 },
      { latency: 30 },
      'answer 200 from state after 10 ms',
    ],
    ['an override may drop the connection', undefined, { fault: 'drop' as const }, {}, 'drop after 0 ms'],
    ['Prefer code wins over an override', 'code=403', { status: 404 }, {}, 'answer 403 from contract after 0 ms'],
    [
      'Prefer code wins over an override that drops',
      'code=403',
      { fault: 'drop' as const },
      {},
      'answer 403 from contract after 0 ms',
    ],
    ['Prefer code wins over a failure fault', 'code=404', undefined, FAIL, 'answer 404 from contract after 0 ms'],
    [
      'Prefer example wins over a drop fault',
      'example=default',
      undefined,
      DROP,
      'answer 200 from contract after 0 ms',
    ],
    ['Prefer delay wins over an override’s delay', 'delay=5', { delay: 10 }, {}, 'answer 200 from state after 5 ms'],
    [
      'Prefer delay wins over the fault’s latency',
      'delay=5',
      undefined,
      { latency: 30 },
      'answer 200 from state after 5 ms',
    ],
    [
      'Prefer delay alone keeps the override in force',
      'delay=5',
      { status: 404 },
      {},
      'answer 404 from contract after 5 ms',
    ],
  ])('%s', (_name, prefer, overrideSpec, faults, expected) => {
    const request = getPass(prefer ? { headers: { authorization: 'Bearer t', prefer } } : {});
    const overrides = overrideSpec ? [override(overrideSpec)] : [];
    expect(summary(decide(plan('getPass'), request, session({ overrides }), settings({ faults })))).toBe(expected);
  });
});

describe('decide: refusals come first, in the order a request is read', () => {
  test.each([
    // The status of the problem's template: the answer check decides the one sent (the documented 400 or 422,
    // else 422 for a request that breaks the contract: shape-refusal.ts).
    ['a malformed percent-encoding in the path', getPass({ path: '/members/m1/passes/%E0%A4%A' }), 400],
    [
      'a body with a media type the operation does not take',
      createCredential({ headers: { authorization: 'Bearer t', 'content-type': 'text/plain' } }),
      415,
    ],
    ['no credentials', getPass({ headers: {} }), 401],
    ['a body that breaks the schema', createCredential({ body: { kind: 'retina' } }), 422],
    ['a Prefer header with a bad value', getPass({ headers: { authorization: 'Bearer t', prefer: 'code=99' } }), 400],
    [
      'a Prefer code the operation does not document',
      getPass({ headers: { authorization: 'Bearer t', prefer: 'code=201' } }),
      404,
    ],
    [
      'an Accept header the answer cannot satisfy',
      getPass({ headers: { authorization: 'Bearer t', accept: 'text/html' } }),
      406,
    ],
  ])('refuses %s', (_name, request, status) => {
    const decision = decide(
      plan(request.method === 'GET' ? 'getPass' : 'createCredential'),
      request,
      session(),
      settings(),
    );
    expect(decision.kind).toBe('refuse');
    expect(decision.kind === 'refuse' && decision.reply.status).toBe(status);
  });

  test('a refusal beats an override and a fault: a request that breaks the contract is never answered as valid', () => {
    const overrides = [override({ operationId: 'createCredential', status: 500 })];
    const decision = decide(
      plan('createCredential'),
      createCredential({ body: { kind: 'retina' } }),
      session({ overrides }),
      settings({ faults: { dropRate: 1 } }),
    );
    expect(summary(decision)).toBe('refuse 422');
  });

  test('a 401 says which scheme to use in WWW-Authenticate', () => {
    const decision = decide(plan('getPass'), getPass({ headers: {} }), session(), settings());
    expect(decision.kind === 'refuse' && decision.reply.headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
  });

  test('without the security check, a request without credentials is answered', () => {
    expect(
      summary(decide(plan('getPass'), getPass({ headers: {} }), session(), settings({ checkSecurity: false }))),
    ).toBe('answer 200 from state after 0 ms');
  });

  test('a body nested too deep is refused and kept out of the journal', () => {
    let body: unknown = 'leaf';
    for (let i = 0; i < 70; i++) body = { a: body };
    const decision = decide(plan('createCredential'), createCredential({ body }), session(), settings());
    expect(decision).toMatchObject({
      kind: 'refuse',
      reply: { status: 400 },
      unrecordableBody: expect.stringMatching(/deeper than 64/),
    });
  });

  test('a body whose depth was checked on its text is not walked again', () => {
    let body: unknown = 'leaf';
    for (let i = 0; i < 70; i++) body = { a: body };
    const decision = decide(
      plan('createCredential'),
      createCredential({ body, bodyDepthChecked: true }),
      session(),
      settings(),
    );
    expect(decision).not.toHaveProperty('unrecordableBody');
  });

  test('the mock’s own query controls are not validated as the contract’s parameters', () => {
    const request = getPass({ query: { __code: '404' }, rawQuery: '__code=404' });
    expect(summary(decide(plan('getPass'), request, session(), settings()))).toBe(
      'answer 404 from contract after 0 ms',
    );
  });
});

describe('decide: the body source', () => {
  test('stateless mode answers a collection operation from the contract', () => {
    expect(summary(decide(plan('getPass'), getPass(), session(), settings({ stateless: true })))).toBe(
      'answer 200 from contract after 0 ms',
    );
  });

  test('an override’s body is the body, from the contract’s response', () => {
    const body = { id: 'pas_1' };
    const decision = decide(plan('getPass'), getPass(), session({ overrides: [override({ body })] }), settings());
    expect(decision).toMatchObject({ kind: 'answer', status: 200, source: { from: 'contract', body } });
  });

  test('an override applies only to calls its match fits', () => {
    const overrides = [override({ status: 404, match: { pathParams: { member_id: 'm2' } } })];
    expect(summary(decide(plan('getPass'), getPass(), session({ overrides }), settings()))).toBe(
      'answer 200 from state after 0 ms',
    );
  });

  test('an injected failure where the contract documents no 5xx is the mock’s own 500 problem', () => {
    const path = '/shelves/s1/books/b1';
    const request = getPass({ path, routedPath: path, pathParams: { shelf: 's1', isbn: 'b1' }, headers: {} });
    const decision = decide(
      plan('getBook', () => library),
      request,
      session(),
      settings({ faults: { failureRate: 1 } }),
    );
    expect(decision).toMatchObject({
      kind: 'answer',
      status: 500,
      mediaType: 'application/problem+json',
      source: { from: 'problem' },
    });
  });

  test('Prefer dynamic=false and the dynamic setting both reach the rendering; the request wins', () => {
    const rendering = (d: Decision) =>
      d.kind === 'answer' && d.source.from !== 'problem' ? d.source.rendering.dynamic : undefined;
    const preferStatic = getPass({ headers: { authorization: 'Bearer t', prefer: 'dynamic=false' } });
    const preferDynamic = getPass({ headers: { authorization: 'Bearer t', prefer: 'dynamic=true' } });
    expect(rendering(decide(plan('getPass'), preferStatic, session(), settings()))).toBe(false);
    expect(rendering(decide(plan('getPass'), getPass(), session(), settings({ dynamic: false })))).toBe(false);
    expect(rendering(decide(plan('getPass'), preferDynamic, session(), settings({ dynamic: false })))).toBe(true);
  });
});

describe('decide: what the listener is told to count', () => {
  test('the request count goes one past the session’s, and a create counts its occurrence', () => {
    const counters = new Map([
      [REQUESTS, 4],
      ['createCredential', 2],
    ]);
    const decision = decide(plan('createCredential'), createCredential(), session({ counters }), settings());
    expect(decision.kind !== 'refuse' && decision.effects).toEqual({
      request: 5,
      override: undefined,
      occurrence: { operationId: 'createCredential', count: 3 },
    });
  });

  test('a read counts no occurrence: the same GET draws the same body', () => {
    const decision = decide(plan('getPass'), getPass(), session(), settings());
    expect(decision.kind !== 'refuse' && decision.effects.occurrence).toBeUndefined();
  });

  test('the override applied is named, so the listener can use it up; a drop names it too', () => {
    const applied = override({ status: 404 });
    const dropping = override({ fault: 'drop' });
    const answer = decide(plan('getPass'), getPass(), session({ overrides: [applied] }), settings());
    const drop = decide(plan('getPass'), getPass(), session({ overrides: [dropping] }), settings());
    expect(answer.kind !== 'refuse' && answer.effects.override).toBe(applied);
    expect(drop.kind !== 'refuse' && drop.effects.override).toBe(dropping);
  });

  test('is pure: deciding twice gives the same decision and changes neither the session nor its overrides', () => {
    const counters = new Map([[REQUESTS, 1]]);
    const overrides = [override({ status: 404, times: 1, remaining: 1 })];
    const view = session({ counters, overrides });
    const first = decide(plan('getPass'), getPass(), view, settings({ faults: { latency: '10-90' } }));
    const second = decide(plan('getPass'), getPass(), view, settings({ faults: { latency: '10-90' } }));
    expect(second).toEqual(first);
    expect([...counters]).toEqual([[REQUESTS, 1]]);
    expect(overrides[0]!.remaining).toBe(1);
  });

  test('fault rolls follow the request count: the same count rolls the same, the next one may not', () => {
    const roll = (count: number) => {
      const decision = decide(
        plan('getPass'),
        getPass(),
        session({ counters: new Map([[REQUESTS, count]]) }),
        settings({ faults: { latency: '0-1000' } }),
      );
      return decision.kind === 'answer' ? decision.delay : -1;
    };
    expect(roll(7)).toBe(roll(7));
    expect(new Set([roll(1), roll(2), roll(3), roll(4)]).size).toBeGreaterThan(1);
  });
});
