import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import { newMock } from '../support/harness.js';

const BOOKSHOP = fileURLToPath(new URL('../fixtures/bookshop.openapi.yaml', import.meta.url));
let mock: MockApp;

beforeAll(async () => {
  mock = await newMock({ contract: BOOKSHOP, seed: 3 });
});

describe('another OpenAPI 3.1 contract is served the same way', () => {
  test('its routes, query and header parameters come from the contract', async () => {
    const res = await request(mock.app).get('/shops/corner/books?genre=poetry').set('X-Tenant', 'acme').expect(200);
    expect(res.body.length).toBeGreaterThanOrEqual(1);
    expect(res.body[0].isbn).toMatch(/^[0-9]{13}$/);
  });

  test.each([
    [
      'a missing required header',
      '/shops/corner/books?genre=poetry',
      {},
      { location: 'header', pointer: '/x-tenant', message: "must have required property 'x-tenant'" },
    ],
    [
      'a query value outside its enum',
      '/shops/corner/books?genre=drama',
      { 'X-Tenant': 'acme' },
      { location: 'query', pointer: '/genre', message: 'must be equal to one of the allowed values: fiction, poetry' },
    ],
  ])(
    '%s is refused with a 422 naming it (the contract documents no 400 or 422)',
    async (_name, path, headers, violation) => {
      const res = await request(mock.app).get(path).set(headers).expect(422);
      expect(res.body.violations).toEqual([violation]);
    },
  );

  // Two faults on purpose: each is refused alone above; here the answer must name both.
  test('a missing required header and a bad enum are both named', async () => {
    const res = await request(mock.app).get('/shops/corner/books?genre=drama').expect(422);
    expect(res.body.violations.map((v: { location: string }) => v.location).sort()).toEqual(['header', 'query']);
  });

  test('its API key security answers 401 without the key', async () => {
    const res = await request(mock.app).post('/shops/corner/books').send({ title: 'T', pages: 3 }).expect(401);
    // An API key has no HTTP authentication scheme: no challenge names one that does not apply (a Bearer).
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(res.body.detail).toContain('X-Api-Key');
    await request(mock.app)
      .post('/shops/corner/books')
      .set('X-Api-Key', 'k')
      .send({ title: 'T', pages: 3 })
      .expect(201);
  });

  test('a non-JSON response is generated as text within its limits', async () => {
    const res = await request(mock.app)
      .get('/shops/corner/books/9780000000001/blurb')
      .expect(200)
      .expect('Content-Type', /^text\/plain/);
    expect(res.text.length).toBeGreaterThanOrEqual(10);
    expect(res.text.length).toBeLessThanOrEqual(40);
  });

  test('a documented non-2xx response without an example is generated', async () => {
    const res = await request(mock.app)
      .post('/shops/corner/books')
      .set('X-Api-Key', 'k')
      .set('Prefer', 'code=409')
      .send({ title: 'T', pages: 3 })
      .expect(409);
    expect(res.body).toEqual({ reason: 'duplicate' });
  });

  test('a documented header value Node cannot send is left out, and the call recorded once', async () => {
    const before = mock.calls().length;
    const res = await request(mock.app)
      .post('/shops/corner/books')
      .set('X-Api-Key', 'k')
      .set('Prefer', 'code=409')
      .send({ title: 'T', pages: 3 })
      .expect(409);
    expect(res.headers['x-note']).toBeUndefined();
    expect(mock.calls()).toHaveLength(before + 1);
  });

  test('its unknown paths list its own operations, in the detail of the mock’s own problem', async () => {
    const res = await request(mock.app).get('/members/m1/passes').expect(404);
    expect(res.body.detail).toMatch(/It has: GET \/shops\/\{shop\}\/books, POST .*, GET .*blurb/);
    expect(Object.keys(res.body).sort()).toEqual(['detail', 'instance', 'status', 'title', 'type']);
  });
});
