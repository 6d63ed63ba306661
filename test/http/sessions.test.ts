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
    expect((await request(mock.app).get('/__mock/calls').set('X-Mock-Session', 'b')).body.calls.map((c: { operationId: string }) => c.operationId)).toEqual(['listCredentials']);
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
    await request(mock.app).post('/__mock/overrides').set('X-Mock-Session', 'a').send({ operationId: 'listPasses', status: 500 }).expect(201);
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

  test('the admin API also takes ?session= for browsers', async () => {
    await request(mock.app).get('/members/m1/passes').set(as('tab-1'));
    expect((await request(mock.app).get('/__mock/calls?session=tab-1')).body.calls).toHaveLength(1);
    const sessions = (await request(mock.app).get('/__mock/sessions')).body.sessions;
    expect(sessions).toContainEqual({ name: 'tab-1', calls: 1, overrides: 0 });
  });

  test('a malformed session name answers 400', async () => {
    const res = await request(mock.app).get('/members/m1/passes').set(as('no spaces allowed')).expect(400);
    expect(res.body.violations[0]).toMatchObject({ location: 'header', pointer: '/x-mock-session' });
  });
});
