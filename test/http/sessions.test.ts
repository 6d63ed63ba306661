import request from 'supertest';
import { beforeEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

let mock: MockApp;
beforeEach(async () => {
  mock = await newMock({ seed: 6 });
});

const as = (session: string) => ({ ...AUTH, 'X-Mock-Session': session });

describe('sessions isolate parallel tests on one mock', () => {
  test('each session has its own journal', async () => {
    await request(mock.app).get('/members/m1/passes').set(as('a'));
    await request(mock.app).get('/members/m1/credentials').set(as('b'));
    expect(mock.calls({}, 'a').map((c) => c.operationId)).toEqual(['listPasses']);
    expect(
      (await request(mock.app).get('/__mock/calls').set('X-Mock-Session', 'b')).body.calls.map(
        (c: { operationId: string }) => c.operationId,
      ),
    ).toEqual(['listCredentials']);
    expect(mock.calls()).toEqual([]);
  });

  test('each session has its own state, starting from the same seed', async () => {
    const created = (await request(mock.app).post('/members/m1/passes').set(as('a')).send({}).expect(201)).body;
    await request(mock.app).get(`/members/m1/passes/${created.id}`).set(as('b')).expect(404);
    const a = (await request(mock.app).get('/members/m1/passes').set(as('a'))).body.data;
    const b = (await request(mock.app).get('/members/m1/passes').set(as('b'))).body.data;
    expect(a.slice(1)).toEqual(b);
  });

  test('overrides stay in their session', async () => {
    await request(mock.app)
      .post('/__mock/overrides')
      .set('X-Mock-Session', 'a')
      .send({ operationId: 'listPasses', status: 500 })
      .expect(201);
    await request(mock.app).get('/members/m1/passes').set(as('a')).expect(500);
    await request(mock.app).get('/members/m1/passes').set(as('b')).expect(200);
  });

  test('a session resets alone', async () => {
    await request(mock.app).get('/members/m1/passes').set(as('a'));
    await request(mock.app).get('/members/m1/passes').set(as('b'));
    await request(mock.app).post('/__mock/reset').set('X-Mock-Session', 'a').expect(204);
    expect(mock.calls({}, 'a')).toEqual([]);
    expect(mock.calls({}, 'b')).toHaveLength(1);
  });

  test('the default session named (an empty X-Mock-Session, as the inspector sends it) resets alone', async () => {
    await request(mock.app).get('/members/m1/passes').set(AUTH);
    await request(mock.app).get('/members/m1/passes').set(as('b'));
    await request(mock.app).post('/__mock/reset').set('X-Mock-Session', '').expect(204);
    expect(mock.calls()).toEqual([]);
    expect(mock.calls({}, 'b')).toHaveLength(1);
  });

  test('the admin API also takes ?session= for browsers', async () => {
    await request(mock.app).get('/members/m1/passes').set(as('tab-1'));
    expect((await request(mock.app).get('/__mock/calls?session=tab-1')).body.calls).toHaveLength(1);
    const sessions = (await request(mock.app).get('/__mock/sessions')).body.sessions;
    expect(sessions).toContainEqual({ name: 'tab-1', calls: 1, overrides: 0, waiters: 0 });
  });

  test('?session= given twice answers 400 and resets nothing', async () => {
    await request(mock.app).get('/members/m1/passes').set(as('a'));
    await request(mock.app).get('/members/m1/passes').set(as('b'));
    const res = await request(mock.app).post('/__mock/reset?session=a&session=a').expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.violations[0]).toMatchObject({ location: 'query', pointer: '/session' });
    expect(res.body.violations[0].message).toMatch(/once/);
    expect(mock.calls({}, 'a')).toHaveLength(1);
    expect(mock.calls({}, 'b')).toHaveLength(1);
  });

  test('?session= given twice writes no state, in no session', async () => {
    const path = '/__mock/state/members/m1/passes/pas_twice';
    await request(mock.app).put(`${path}?session=c&session=c`).send({ name: 'Gold' }).expect(400);
    await request(mock.app).get(path).expect(404);
    await request(mock.app).get(`${path}?session=c`).expect(404);
  });

  test('a malformed session name answers 400', async () => {
    const res = await request(mock.app).get('/members/m1/passes').set(as('no spaces allowed')).expect(400);
    expect(res.body.violations[0]).toMatchObject({ location: 'header', pointer: '/x-mock-session' });
    expect(mock.calls().map((c) => c.response.status)).toEqual([400]);
  });

  test('sessions are bounded: past the limit the least recently used is dropped', async () => {
    const small = await newMock({ sessionLimit: 3 });
    for (const name of ['s1', 's2', 's3']) await request(small.app).get('/members/m1/passes').set(as(name));
    await request(small.app).get('/members/m1/credentials').set(as('s1'));
    await request(small.app).get('/members/m1/passes').set(as('s4'));
    const names = (await request(small.app).get('/__mock/sessions')).body.sessions.map((s: { name: string }) => s.name);
    expect(names.sort()).toEqual(['', 's1', 's3', 's4']);
  });

  test.each([0, 1.5, Infinity, 100_001])('a session limit of %s is refused, naming the bounds', async (limit) => {
    await expect(newMock({ sessionLimit: limit })).rejects.toThrow(
      `The session limit must be a whole number from 1 to 100000, not ${limit}.`,
    );
  });

  test('sessions are listed least recently used first', async () => {
    const small = await newMock({ sessionLimit: 5 });
    for (const name of ['s1', 's2', 's3']) await request(small.app).get('/members/m1/passes').set(as(name));
    await request(small.app).get('/members/m1/passes').set(as('s1'));
    const names = (await request(small.app).get('/__mock/sessions')).body.sessions.map((s: { name: string }) => s.name);
    expect(names.filter((name: string) => name !== '')).toEqual(['s2', 's3', 's1']);
  });

  test('call ids stay unique across sessions and resets', async () => {
    await request(mock.app).get('/members/m1/passes').set(as('a'));
    await request(mock.app).post('/__mock/reset').set('Content-Type', 'application/json');
    await request(mock.app).get('/members/m1/passes').set(as('a'));
    await request(mock.app).get('/members/m1/passes').set(as('b'));
    expect([...mock.calls({}, 'a'), ...mock.calls({}, 'b')].map((c) => c.id)).toEqual(['call-2', 'call-3']);
  });

  test('a full reset ends the waits open on named sessions, saying their session was dropped', async () => {
    const waiting = mock.waitForCall({ operationId: 'getPass' }, { session: 'a', timeout: 60_000 });
    mock.reset();
    await expect(waiting).rejects.toThrow('The journal was closed: its session was dropped.');
  });
});

describe('sessions are made only for authenticated requests', () => {
  const sessionNames = async (app: MockApp['app'], headers: Record<string, string> = {}) =>
    ((await request(app).get('/__mock/sessions').set(headers)).body.sessions as { name: string }[])
      .map((s) => s.name)
      .sort();

  test('a contract request without credentials does not make the session it names', async () => {
    await request(mock.app).get('/members/m1/passes').set('X-Mock-Session', 'stranger').expect(401);
    expect(await sessionNames(mock.app)).toEqual(['']);
  });

  test('a refused request naming an unknown session is recorded in the default session', async () => {
    await request(mock.app).get('/members/m1/passes').set('X-Mock-Session', 'stranger').expect(401);
    expect(mock.calls().map((c) => c.response.status)).toEqual([401]);
  });

  test('a request naming an unknown path does not make the session it names', async () => {
    await request(mock.app).get('/nowhere').set(as('stranger')).expect(404);
    expect(await sessionNames(mock.app)).toEqual(['']);
  });

  test('a request with credentials makes its session even when its body is refused', async () => {
    await request(mock.app).post('/members/m1/credentials').set(as('mine')).send({ kind: 'retina' }).expect(422);
    expect(mock.calls({}, 'mine').map((c) => c.response.status)).toEqual([422]);
  });

  test('a request with credentials makes its session even when its body cannot be parsed', async () => {
    await request(mock.app)
      .post('/members/m1/credentials')
      .set(as('mine'))
      .set('Content-Type', 'application/json')
      .send('{"kind":')
      .expect(400);
    expect(mock.calls({}, 'mine').map((c) => c.response.status)).toEqual([400]);
  });

  test('a request without credentials is recorded in the session it names when that session exists', async () => {
    await request(mock.app).get('/members/m1/passes').set(as('mine')).expect(200);
    await request(mock.app).get('/members/m1/passes').set('X-Mock-Session', 'mine').expect(401);
    expect(mock.calls({}, 'mine').map((c) => c.response.status)).toEqual([200, 401]);
  });

  test('admin requests refused for a missing admin token cannot evict a real session', async () => {
    const guarded = await newMock({ sessionLimit: 1, admin: { token: 'adm' } });
    const admin = { Authorization: 'Bearer adm' };
    await request(guarded.app).get('/members/m1/passes').set(as('keep')).expect(200);
    for (let i = 0; i < 5; i++)
      await request(guarded.app).get('/__mock/calls').set('X-Mock-Session', `stranger-${i}`).expect(401);
    expect(await sessionNames(guarded.app, admin)).toEqual(['', 'keep']);
  });

  test('an admin request with the admin token makes the session it names', async () => {
    const guarded = await newMock({ admin: { token: 'adm' } });
    const admin = { Authorization: 'Bearer adm' };
    await request(guarded.app).get('/__mock/calls').set(admin).set('X-Mock-Session', 'runner').expect(200);
    expect(await sessionNames(guarded.app, admin)).toEqual(['', 'runner']);
  });
});
