import request from 'supertest';
import { beforeEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import { newMock } from '../support/harness.js';

const JSON_TYPE = { 'Content-Type': 'application/json' };

let mock: MockApp;
beforeEach(async () => {
  mock = await newMock();
});

/** Sends a body as it is written, as JSON. */
function send(method: 'put' | 'post', path: string, body: string) {
  return request(mock.app)[method](path).set(JSON_TYPE).send(body);
}

// `null`, a number, a string and a boolean are valid JSON: the body is of the wrong type, as an array is.
describe('an admin body that is JSON but not an object', () => {
  test.each([['null'], ['5'], ['"x"'], ['true']])(
    'PUT /__mock/faults refuses %s as it refuses [], saying faults are a JSON object',
    async (body) => {
      const res = await send('put', '/__mock/faults', body).expect(400);
      expect(res.body.detail).toBe(
        'The faults were refused: faults are a JSON object: { latency, failureRate, dropRate }.',
      );
    },
  );

  test.each([['null'], ['5'], ['"x"'], ['true']])(
    'POST /__mock/overrides refuses %s as it refuses [], saying an override is a JSON object',
    async (body) => {
      const res = await send('post', '/__mock/overrides', body).expect(422);
      expect(res.body.detail).toBe(
        'The override was refused: an override is a JSON object with at least "operationId".',
      );
    },
  );

  test('PUT /__mock/faults answers null exactly as it answers []', async () => {
    const asArray = await send('put', '/__mock/faults', '[]');
    const asNull = await send('put', '/__mock/faults', 'null');
    expect([asNull.status, asNull.body]).toEqual([asArray.status, asArray.body]);
  });

  test.each([
    ['POST', '/__mock/state/members/m1/passes'],
    ['PUT', '/__mock/state/members/m1/passes/p1'],
  ] as const)('%s %s refuses null as it refuses []', async (verb, path) => {
    const method = verb === 'POST' ? 'post' : 'put';
    const asArray = await send(method, path, '[]');
    const asNull = await send(method, path, 'null');
    expect(asNull.status).toBe(asArray.status);
    expect(asNull.body.detail).toBe(asArray.body.detail);
  });

  test('a body that is not JSON at all is still refused as not valid JSON', async () => {
    const res = await send('put', '/__mock/faults', 'nul').expect(400);
    expect(res.body.detail).toMatch(/^The body is not valid JSON/);
  });
});
