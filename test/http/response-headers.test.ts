import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { newMock } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

describe('documented response headers', () => {
  test('a Swagger 2 response sends every header it documents, each with a value fitting its type', async () => {
    // Swagger 2 has no `required` on a response header: Prism's petstore login sends both.
    const mock = await newMock({
      contract: await inlineContract(`swagger: '2.0'
info: { title: login, version: '1' }
produces: [application/json]
paths:
  /user/login:
    get:
      operationId: loginUser
      responses:
        '200':
          description: ok
          schema: { type: string }
          headers:
            X-Rate-Limit: { type: integer, format: int32, description: calls per hour allowed by the user }
            X-Expires-After: { type: string, format: date-time, description: date in UTC when token expires }
`),
    });
    const res = await request(mock.app).get('/user/login').expect(200);
    expect(res.headers['x-rate-limit']).toMatch(/^-?\d+$/);
    expect(Number.isNaN(Date.parse(res.headers['x-expires-after'] as string))).toBe(false);
  });

  test('an OpenAPI 3 header that is not required is sent too, fitting its schema', async () => {
    const mock = await newMock({
      contract: await inlineContract(`openapi: 3.0.3
info: { title: paged, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: ok
          headers:
            X-Total-Count: { schema: { type: integer, minimum: 0, maximum: 50 } }
            X-Page-Kind: { schema: { type: string, enum: [first, last] } }
          content: { application/json: { schema: { type: array, items: { type: string } } } }
`),
    });
    const res = await request(mock.app).get('/things').expect(200);
    expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(0);
    expect(Number(res.headers['x-total-count'])).toBeLessThanOrEqual(50);
    expect(['first', 'last']).toContain(res.headers['x-page-kind']);
  });
});
