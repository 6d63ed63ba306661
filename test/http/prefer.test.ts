import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

let mock: MockApp;

// Prefer chooses among the contract's responses; state is out of the way here (see state.test.ts).
beforeAll(async () => {
  mock = await newMock({ stateless: true });
});

describe('Prefer picks a documented response', () => {
  test.each([
    ['listPasses', 'get', '/members/m1/passes', 404],
    ['createPass', 'post', '/members/m1/passes', 422],
    ['getPass', 'get', '/members/m1/passes/pas_1', 500],
    ['deletePass', 'delete', '/members/m1/passes/pas_1', 403],
    ['listCredentials', 'get', '/members/m1/credentials', 429],
    ['createCredential', 'post', '/members/m1/credentials', 413],
    ['deleteCredential', 'delete', '/members/m1/credentials/crd_1', 404],
  ] as const)('%s answers code=%i with its documented problem', async (_id, method, path, code) => {
    const req = request(mock.app)[method](path).set(AUTH).set('Prefer', `code=${code}`);
    const res = await (method === 'post' ? req.send({ kind: 'pin' }) : req);
    expect(res.status).toBe(code);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.status).toBe(code);
  });

  test('code=429 also sends the documented Retry-After header', async () => {
    const res = await request(mock.app).get('/members/m1/passes').set(AUTH).set('Prefer', 'code=429').expect(429);
    expect(res.headers['retry-after']).toBe('30');
  });

  test('example=NAME serves that example of the contract', async () => {
    const res = await request(mock.app)
      .get('/members/m1/credentials')
      .set(AUTH)
      .set('Prefer', 'example=empty')
      .expect(200);
    expect(res.body).toEqual({ data: [], next_cursor: null });
  });

  test('code and example combine in one header', async () => {
    const res = await request(mock.app)
      .post('/members/m1/passes')
      .set(AUTH)
      .set('Prefer', 'code=201, example=open_ended')
      .send({})
      .expect(201);
    expect(res.body.valid_until).toBeNull();
    expect(res.body.name).toBe('Membership pass');
  });

  test('dynamic=false serves the default example instead of a generated body', async () => {
    const res = await request(mock.app)
      .get('/members/m1/passes/pas_1')
      .set(AUTH)
      .set('Prefer', 'dynamic=false')
      .expect(200);
    expect(res.body.id).toBe('pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M');
  });

  test('dynamic=true generates even when a mock is started with static examples', async () => {
    const staticMock = await newMock({ dynamic: false, stateless: true });
    const example = await request(staticMock.app).get('/members/m1/passes/pas_1').set(AUTH).expect(200);
    const generated = await request(staticMock.app)
      .get('/members/m1/passes/pas_1')
      .set(AUTH)
      .set('Prefer', 'dynamic=true')
      .expect(200);
    expect(example.body.id).toBe('pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M');
    expect(generated.body.id).not.toBe(example.body.id);
  });

  test('an undocumented code answers 404 listing the codes that exist, as Prism does', async () => {
    const res = await request(mock.app).get('/members/m1/passes/pas_1').set(AUTH).set('Prefer', 'code=201').expect(404);
    expect(res.body.type).toBe('https://example.com/problems/not-documented');
    expect(res.body.detail).toBe(
      'Prefer code=201 is not documented for getPass; documented: 200, 400, 401, 403, 404, 406, 429, 500.',
    );
    expect(res.body.violations[0]).toMatchObject({ location: 'header', pointer: '/prefer' });
  });

  test('an unknown example answers 404 listing the examples that exist, as Prism does', async () => {
    const res = await request(mock.app)
      .get('/members/m1/credentials')
      .set(AUTH)
      .set('Prefer', 'example=nope')
      .expect(404);
    expect(res.body.detail).toContain('examples: mixed, empty');
  });

  test('a malformed preference answers 400 saying what is expected', async () => {
    const res = await request(mock.app).get('/members/m1/passes').set(AUTH).set('Prefer', 'dynamic=maybe').expect(400);
    expect(res.body.detail).toBe('Prefer dynamic=maybe must be true or false.');
  });

  test('an invalid request is refused even when Prefer asks for a success', async () => {
    await request(mock.app).post('/members/m1/credentials').set(AUTH).set('Prefer', 'code=201').send({}).expect(422);
  });

  test('unknown preferences are ignored, as RFC 7240 asks', async () => {
    await request(mock.app)
      .get('/members/m1/passes')
      .set(AUTH)
      .set('Prefer', 'return=minimal, respond-async')
      .expect(200);
  });
});
