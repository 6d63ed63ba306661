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
    });
  });

  test('an unknown filter answers 400 naming the filters that exist', async () => {
    const res = await request(mock.app).get('/__mock/calls?operation=listPasses').expect(400);
    expect(res.body.detail).toBe('Unknown filter "operation"; filter calls by operationId, method, path.');
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

  test('the journal keeps the newest calls up to its limit and says how many it dropped', async () => {
    const small = await newMock({ journalLimit: 2 });
    for (const id of ['a', 'b', 'c']) await request(small.app).get(`/members/${id}/passes`).set(AUTH);
    const res = await request(small.app).get('/__mock/calls').expect(200);
    expect(res.body.calls.map((c: { path: string }) => c.path)).toEqual(['/members/b/passes', '/members/c/passes']);
    expect(res.body.dropped).toBe(1);
  });
});
