import request from 'supertest';
import { beforeEach, describe, expect, test } from 'vitest';
import { redactSecret, type MockApp } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

let mock: MockApp;

beforeEach(async () => {
  mock = await newMock();
});

describe('the call journal', () => {
  test('records a call with its params, query, headers, body, response and no violations', async () => {
    const res = await request(mock.app)
      .post('/members/m1/credentials?trace=1')
      .set(AUTH)
      .set('X-Client', 'web')
      .send({ kind: 'pin', label: 'Desk' })
      .expect(201);
    const [call] = mock.calls();
    expect(call).toMatchObject({
      id: 'call-1',
      operationId: 'createCredential',
      method: 'POST',
      path: '/members/m1/credentials',
      pathParams: { member_id: 'm1' },
      query: { trace: '1' },
      headers: expect.objectContaining({ 'x-client': 'web', authorization: redactSecret('Bearer test-token') }),
      body: { kind: 'pin', label: 'Desk' },
      response: { status: 201, headers: { 'content-type': 'application/json' }, body: res.body },
      violations: [],
    });
    expect(Date.parse(call!.time)).not.toBeNaN();
  });

  test('records invalid and unmatched requests with their violations', async () => {
    await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'x' }).expect(422);
    await request(mock.app).get('/nowhere').expect(404);
    await request(mock.app)
      .post('/members/m1/passes')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send('{bad')
      .expect(400);
    const calls = mock.calls();
    expect(calls.map((c) => [c.operationId, c.response.status])).toEqual([
      ['createCredential', 422],
      [null, 404],
      ['createPass', 400],
    ]);
    expect(calls[0]!.violations).toEqual([
      { location: 'body', pointer: '/kind', message: 'must be equal to one of the allowed values: pin, card, mobile' },
    ]);
    expect(calls[2]!.violations[0]).toMatchObject({
      location: 'body',
      message: expect.stringMatching(/not valid JSON/),
    });
  });

  test('GET /__mock/calls filters by operationId, method and path', async () => {
    await request(mock.app).get('/members/m1/passes').set(AUTH);
    await request(mock.app).get('/members/m2/passes').set(AUTH);
    await request(mock.app).post('/members/m1/passes').set(AUTH).send({});
    const byOperation = await request(mock.app).get('/__mock/calls?operationId=listPasses').expect(200);
    expect(byOperation.body.calls.map((c: { path: string }) => c.path)).toEqual([
      '/members/m1/passes',
      '/members/m2/passes',
    ]);
    const byMethod = await request(mock.app).get('/__mock/calls?method=post').expect(200);
    expect(byMethod.body.calls).toHaveLength(1);
    const byPath = await request(mock.app).get('/__mock/calls').query({ path: '/members/m1/passes' }).expect(200);
    expect(byPath.body.calls).toHaveLength(2);
    const byPrefix = await request(mock.app).get('/__mock/calls').query({ path: '/members/m2/*' }).expect(200);
    expect(byPrefix.body.calls).toHaveLength(1);
  });

  test('admin requests are not journaled', async () => {
    await request(mock.app).get('/__mock/health').expect(200);
    await request(mock.app).get('/__mock/calls').expect(200);
    expect(mock.calls()).toEqual([]);
  });

  test('DELETE /__mock/calls empties the journal and answers 204', async () => {
    await request(mock.app).get('/members/m1/passes').set(AUTH);
    await request(mock.app).delete('/__mock/calls').set('Content-Type', 'application/json').expect(204);
    expect((await request(mock.app).get('/__mock/calls')).body.calls).toEqual([]);
  });

  test('POST /__mock/reset empties the journal and restarts generation', async () => {
    const before = await request(mock.app).post('/members/m1/passes').set(AUTH).send({});
    await request(mock.app).post('/__mock/reset').set('Content-Type', 'application/json').expect(204);
    const after = await request(mock.app).post('/members/m1/passes').set(AUTH).send({});
    expect(mock.calls()).toHaveLength(1);
    expect(after.body.id).toBe(before.body.id);
  });

  test('GET /__mock/health answers 200 with the contract it serves', async () => {
    const res = await request(mock.app).get('/__mock/health').expect(200);
    expect(res.body).toEqual({
      status: 'ok',
      contract: { title: 'Membership Passes and Credentials API', version: '1.0.0' },
      operations: 7,
      state: expect.any(Object),
      memory: expect.any(Object),
      eventLoop: { p50: expect.any(Number), p99: expect.any(Number), max: expect.any(Number), windowMs: 10_000 },
    });
  });

  test('an unknown filter answers 400 naming the filters that exist', async () => {
    const res = await request(mock.app).get('/__mock/calls?operation=listPasses').expect(400);
    expect(res.body.detail).toBe(
      'Unknown filter "operation"; filter calls by operationId, contract, method, path; this endpoint also takes limit, cursor.',
    );
  });

  test('an unknown admin endpoint answers 404 listing the endpoints', async () => {
    const res = await request(mock.app).get('/__mock/nope').expect(404);
    expect(res.body.detail).toContain('GET /__mock/calls');
  });

  test('a wrong method on an admin endpoint answers 405 with Allow', async () => {
    const res = await request(mock.app).get('/__mock/reset').expect(405);
    expect(res.headers.allow).toBe('POST');
  });

  test('calls() hands out copies that cannot change the journal', async () => {
    await request(mock.app).get('/members/m1/passes').set(AUTH);
    const [call] = mock.calls();
    call!.path = '/changed';
    (call!.response.body as { data: unknown[] }).data.length = 0;
    expect(mock.calls()[0]!.path).toBe('/members/m1/passes');
  });

  test('each call keeps the media type it was answered with, and a copy’s headers change no other call', async () => {
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    const pass = '/members/m1/passes/pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M';
    await request(mock.app).get(pass).set(AUTH).set('Prefer', 'code=404').expect(404);
    await request(mock.app).get('/members/m2/passes').set(AUTH).expect(200);
    const calls = mock.calls();
    expect(calls.map((call) => call.response.headers['content-type'])).toEqual([
      'application/json',
      'application/problem+json',
      'application/json',
    ]);
    calls[0]!.response.headers['content-type'] = 'text/changed';
    expect(mock.calls()[2]!.response.headers['content-type']).toBe('application/json');
  });

  test('the journal keeps the newest calls up to its limit and says how many it dropped', async () => {
    const small = await newMock({ journalLimit: 2 });
    for (const id of ['a', 'b', 'c']) await request(small.app).get(`/members/${id}/passes`).set(AUTH);
    const res = await request(small.app).get('/__mock/calls').expect(200);
    expect(res.body.calls.map((c: { path: string }) => c.path)).toEqual(['/members/b/passes', '/members/c/passes']);
    expect(res.body.dropped).toBe(1);
  });
});

describe('GET /__mock/calls in pages', () => {
  const paths = (res: request.Response) => res.body.calls.map((c: { path: string }) => c.path);

  test('follows next_cursor through every call, oldest first, and ends with a null cursor', async () => {
    for (const id of ['a', 'b', 'c', 'd', 'e']) await request(mock.app).get(`/members/${id}/passes`).set(AUTH);
    const first = await request(mock.app).get('/__mock/calls?limit=2').expect(200);
    const second = await request(mock.app).get('/__mock/calls').query({ limit: 2, cursor: first.body.next_cursor });
    const last = await request(mock.app).get('/__mock/calls').query({ limit: 2, cursor: second.body.next_cursor });
    expect([...paths(first), ...paths(second), ...paths(last)]).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((id) => `/members/${id}/passes`),
    );
    expect(last.body).toMatchObject({ dropped: 0, next_cursor: null });
  });

  test('holds 100 calls a page unless limit says otherwise', async () => {
    for (let i = 0; i < 101; i++) await request(mock.app).get('/nowhere');
    const res = await request(mock.app).get('/__mock/calls').expect(200);
    expect(res.body.calls).toHaveLength(100);
    expect(res.body.next_cursor).toEqual(expect.any(String));
  });

  test('keeps the filter from page to page', async () => {
    for (const method of ['get', 'post', 'get', 'get'] as const)
      await request(mock.app)
        [method]('/members/m1/passes')
        .set(AUTH)
        .send(method === 'post' ? {} : undefined);
    const first = await request(mock.app).get('/__mock/calls?method=GET&limit=2').expect(200);
    const rest = await request(mock.app).get('/__mock/calls').query({ method: 'GET', cursor: first.body.next_cursor });
    expect([...first.body.calls, ...rest.body.calls].map((c: { id: string }) => c.id)).toEqual([
      'call-1',
      'call-3',
      'call-4',
    ]);
  });

  test.each(['0', '1001', 'ten', '2.5', '-1', ''])('answers 400 naming limit for limit=%j', async (limit) => {
    const res = await request(mock.app).get('/__mock/calls').query({ limit }).expect(400);
    expect(res.body.violations).toEqual([
      { location: 'query', pointer: '/limit', message: 'limit must be a whole number from 1 to 1000.' },
    ]);
  });

  test('answers 400 naming cursor for a cursor it did not give', async () => {
    const res = await request(mock.app).get('/__mock/calls?cursor=call-2').expect(400);
    expect(res.body.violations[0]).toMatchObject({ location: 'query', pointer: '/cursor' });
  });

  test('ends a page of large calls near 1 MiB of JSON, so a full journal stays readable', async () => {
    const big = await newMock({ journalBodyLimit: 65_536 });
    const body = JSON.stringify('x'.repeat(60_000));
    const sends = Array.from({ length: 30 }, () =>
      request(big.app).post('/members/m1/passes').set(AUTH).type('json').send(body).expect(422),
    );
    await Promise.all(sends);
    const res = await request(big.app).get('/__mock/calls?limit=1000').expect(200);
    expect(res.text.length).toBeLessThanOrEqual(1024 * 1024 + 70_000);
    expect(res.body.calls.length).toBeGreaterThan(10);
    expect(res.body.calls.length).toBeLessThan(30);
    expect(res.body.next_cursor).toEqual(expect.any(String));
  });
});

describe('what the journal keeps of a hostile request', () => {
  test('a 64 KiB body of empty objects is kept as the start of its text, marked truncated', async () => {
    const text = `[${'{},'.repeat(21_843)}{}]`;
    await request(mock.app).post('/members/m1/passes').set(AUTH).type('json').send(text).expect(422);
    const [call] = mock.calls();
    expect(call!.body).toBe(text.slice(0, 16_384));
    expect(call!.truncated).toEqual({ bytes: text.length });
  });

  test('a wide body keeps 100 violations in the journal, as in the answer, and how many there were', async () => {
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 0]));
    const res = await request(mock.app).post('/members/m1/credentials').set(AUTH).send(wide).expect(422);
    const [call] = mock.calls();
    expect(res.body.violations).toHaveLength(100);
    expect(call!.violations).toEqual(res.body.violations);
    expect(call!.violationCount).toBe(5001);
  });

  test('a response body past the journal body limit is kept as the start of its text, marked truncated', async () => {
    const small = await newMock({ journalBodyLimit: 20 });
    const res = await request(small.app).get('/members/m1/passes').set(AUTH).expect(200);
    const [call] = small.calls();
    expect(call!.response.body).toBe(res.text.slice(0, 20));
    expect(call!.response.truncated).toEqual({ bytes: Buffer.byteLength(res.text) });
  });
});

describe('GET /__mock/health reports memory', () => {
  test('with the bytes the journals hold against their limit', async () => {
    const mock = await newMock({ journalBytes: 1_000_000 });
    const before = (await request(mock.app).get('/__mock/health').expect(200)).body.memory;
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    const after = (await request(mock.app).get('/__mock/health').expect(200)).body.memory;
    expect(before).toMatchObject({ journal: 0, journalLimit: 1_000_000 });
    expect(after.journal).toBeGreaterThan(0);
    expect(after.rss).toBeGreaterThan(after.heapUsed);
  });
});

describe('the journal keeps a JSON body as it was sent', () => {
  test('a body cut at the limit is the start of the text sent, not of a new serialisation', async () => {
    const small = await newMock({ journalBodyLimit: 30 });
    const sent = `{ "name" :  "${'N'.repeat(60)}" }`;
    await request(small.app).post('/members/m1/passes').set(AUTH).type('json').send(sent).expect(201);
    const [call] = small.calls();
    expect(call!.body).toBe(sent.slice(0, 30));
    expect(call!.truncated).toEqual({ bytes: sent.length });
  });

  test('an empty JSON body is recorded without breaking the journal', async () => {
    const mock = await newMock();
    await request(mock.app).post('/members/m1/passes').set(AUTH).set('Content-Type', 'application/json').send('');
    expect(() => mock.calls()).not.toThrow();
    expect(mock.calls().map((c) => c.operationId)).toEqual(['createPass']);
  });
});

test('a JSON body sent with a byte order mark is recorded as the JSON it holds', async () => {
  const mock = await newMock();
  const sent = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"kind":"pin"}')]);
  await request(mock.app)
    .post('/members/m1/credentials')
    .set(AUTH)
    .set('Content-Type', 'application/json')
    .serialize((b: unknown) => b as string)
    .send(sent as unknown as string);
  expect(mock.calls()[0]!.body).toEqual({ kind: 'pin' });
});

test('GET /__mock/health reports the default session’s store: what clients wrote against the budget, placeholders apart', async () => {
  const mock = await newMock({ placeholders: 2, stateBytes: 50_000 });
  await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
  await request(mock.app).post('/members/m1/passes').set(AUTH).send({ name: 'Gold' }).expect(201);
  await request(mock.app)
    .post('/members/m2/passes')
    .set({ ...AUTH, 'X-Mock-Session': 'other' })
    .send({ name: 'Gold' })
    .expect(201);
  const { state } = (await request(mock.app).get('/__mock/health').expect(200)).body;
  expect(state).toEqual({
    kind: 'memory',
    records: 1,
    bytes: expect.any(Number),
    budget: 50_000,
    budgetUsed: expect.any(Number),
    placeholders: { cached: 2, made: 2 },
    sessions: 2,
  });
  // The budget is every session's: the other session's create is in it, not in the default session's bytes.
  expect(state.budgetUsed).toBeGreaterThan(state.bytes);
  expect(state.bytes).toBeGreaterThan(200);
});
