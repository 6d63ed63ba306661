import request from 'supertest';
import { beforeEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

const PROBLEM = /^application\/problem\+json/;

let mock: MockApp;
beforeEach(async () => {
  mock = await newMock();
  // A call already recorded: a wait that let a bad input through would answer it at once, with 200.
  await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
});

describe('a wait refuses a since that is not the id of a call', () => {
  test('GET /__mock/calls/wait refuses since=bogus with a 400 naming since and the form call-12', async () => {
    const res = await request(mock.app)
      .get('/__mock/calls/wait?operationId=listPasses&since=bogus&timeout=10')
      .expect('Content-Type', PROBLEM)
      .expect(400);
    const detail = 'since must be the id of a call the mock recorded (call-12), not "bogus".';
    expect(res.body).toMatchObject({
      type: 'https://example.com/problems/invalid-request',
      detail,
      violations: [{ location: 'query', pointer: '/since', message: detail }],
    });
  });

  test.each([['bogus'], ['call-'], ['call-1x'], [12]])(
    'POST /__mock/calls/wait refuses the since %j with a 400 naming since and the form call-12',
    async (since) => {
      const res = await request(mock.app)
        .post('/__mock/calls/wait')
        .send({ match: { operationId: 'listPasses' }, timeout: 10, since })
        .expect('Content-Type', PROBLEM)
        .expect(400);
      expect(res.body.detail).toBe(
        `since must be the id of a call the mock recorded (call-12), not ${JSON.stringify(since)}.`,
      );
    },
  );

  test('GET /__mock/events refuses since=bogus with the same words', async () => {
    const res = await request(mock.app).get('/__mock/events?since=bogus').expect('Content-Type', PROBLEM).expect(400);
    const detail = 'since must be the id of a call the mock recorded (call-12), not "bogus".';
    expect(res.body).toMatchObject({ detail, violations: [{ location: 'query', pointer: '/since', message: detail }] });
  });

  test('a wait whose since is a call id still skips the calls up to it', async () => {
    await request(mock.app).get('/__mock/calls/wait?operationId=listPasses&since=call-1&timeout=10').expect(408);
  });

  test('a since past the newest call (from before a restart) counts every call, as the event stream does', async () => {
    const res = await request(mock.app)
      .get('/__mock/calls/wait?operationId=listPasses&since=call-999999&timeout=2000')
      .expect(200);
    expect(res.body.call).toMatchObject({ operationId: 'listPasses', path: '/members/m1/passes' });
  });
});

describe('POST /__mock/calls/wait refuses a body that is not an object', () => {
  test.each([['[]'], ['null'], ['5'], ['"listPasses"'], ['true']])(
    'refuses the body %s with a 400 saying the body is a JSON object',
    async (body) => {
      const res = await request(mock.app)
        .post('/__mock/calls/wait')
        .set('Content-Type', 'application/json')
        .send(body)
        .expect('Content-Type', PROBLEM)
        .expect(400);
      const detail = 'The body must be a JSON object: { match, timeout, since }.';
      expect(res.body).toMatchObject({ detail, violations: [{ location: 'body', pointer: '', message: detail }] });
    },
  );
});

describe('a wait that times out', () => {
  test('names the closest of the newest calls only: a long journal is not copied whole', async () => {
    for (let i = 0; i < 210; i++)
      await request(mock.app)
        .get(`/members/m${i + 2}/passes`)
        .set(AUTH)
        .expect(200);
    const res = await request(mock.app)
      .get('/__mock/calls/wait?operationId=listPasses&path=/members/nobody/passes&timeout=10')
      .expect(408);
    // call-1 to call-11 are older than the newest 200.
    expect(res.body.detail).toMatch(/Closest calls:\n  call-12 GET \/members\/m12\/passes/);
    expect(res.body.detail).not.toMatch(/call-1 GET/);
  });
});
