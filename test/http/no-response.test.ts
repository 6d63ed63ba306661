import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { newMock } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

describe('operations with no usable response', () => {
  test('a response documented as nothing but its status (`204: {}`) answers 204 with no body', async () => {
    const mock = await newMock({
      contract: await inlineContract(`openapi: 3.0.3
info: { title: bare, version: '1' }
paths:
  /ping:
    post:
      operationId: ping
      responses: { '204': {} }
`),
    });
    const res = await request(mock.app).post('/ping').expect(204);
    expect(res.text).toBe('');
  });

  test('an operation that documents no response at all answers a 500 problem that says so', async () => {
    // Legal in OpenAPI 3.1: `responses` is optional there.
    const mock = await newMock({
      contract: await inlineContract(`openapi: 3.1.0
info: { title: silent, version: '1' }
paths:
  /ping:
    get:
      operationId: ping
`),
    });
    const res = await request(mock.app).get('/ping').expect(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 500, instance: '/ping' });
    expect(res.body.detail).toMatch(/ping documents no response/);
    expect(res.body.detail).not.toMatch(/Prefer/);
  });
});
