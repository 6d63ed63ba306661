import express from 'express';
import request from 'supertest';
import { beforeEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

let mock: MockApp;

beforeEach(async () => {
  mock = await newMock({ seed: 5 });
});

describe('the ways to serve one mock', () => {
  test('the plain listener (mock.handle) answers and records like the Express app', async () => {
    const viaApp = await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    const viaListener = await request(mock.handle).get('/members/m1/passes').set(AUTH).expect(200);
    expect(viaListener.body).toEqual(viaApp.body);
    expect(viaListener.headers['content-type']).toBe(viaApp.headers['content-type']);
    expect(mock.calls().map((c) => [c.operationId, c.response.status])).toEqual([
      ['listPasses', 200],
      ['listPasses', 200],
    ]);
  });

  test('the plain listener serves the admin API too', async () => {
    await request(mock.handle).post('/members/m1/credentials').set(AUTH).send({ kind: 'pin' }).expect(201);
    const res = await request(mock.handle).get('/__mock/calls?operationId=createCredential').expect(200);
    expect(res.body.calls).toHaveLength(1);
    expect(res.body.calls[0].body).toEqual({ kind: 'pin' });
  });

  test('mounted under a prefix in another Express app, it serves the contract and the admin API below it', async () => {
    const host = express();
    host.use('/api', mock.app);
    host.get('/other', (_req, res) => void res.send('host route'));
    await request(host).get('/api/members/m1/passes').set(AUTH).expect(200);
    await request(host).get('/other').expect(200, 'host route');
    const calls = await request(host).get('/api/__mock/calls').expect(200);
    expect(calls.body.calls.map((c: { path: string }) => c.path)).toEqual(['/members/m1/passes']);
  });

  test('mounted behind the host app’s own JSON parser, it takes the body that parser read', async () => {
    const host = express();
    host.use(express.json());
    host.use(mock.app);
    const res = await request(host).post('/members/m1/credentials').set(AUTH).send({ kind: 'card' }).expect(201);
    expect(res.body.kind).toBe('card');
    await request(host).post('/members/m1/credentials').set(AUTH).send({ kind: 'watch' }).expect(422);
    expect(mock.calls().map((c) => c.body)).toEqual([{ kind: 'card' }, { kind: 'watch' }]);
  });
});
