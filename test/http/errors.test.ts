import request from 'supertest';
import { LRUCache } from 'lru-cache';
import { beforeEach, describe, expect, test } from 'vitest';
import { createHandler } from '../../mock/handler/handle.js';
import { createMockContext } from '../../mock/instance/mock-context.js';
import type { Session } from '../../mock/instance/session.js';
import { serve } from '../../mock/plan/serve.js';
import { createBodyReader } from '../../mock/handler/parse-body.js';
import { DEFAULT_CONTRACT, loadContract, type MockApp } from '../../mock/index.js';
import { resolveMockOptions } from '../../mock/instance/options.js';
import { AUTH, newMock } from '../support/harness.js';
import { createContractValidator } from '../support/contract-validator.js';

let mock: MockApp;
const ours = createContractValidator(DEFAULT_CONTRACT);

// A fresh mock per test: each test reads only the calls it made itself.
beforeEach(async () => {
  mock = await newMock({ bodyLimit: 1024 });
});

function expectProblem(res: request.Response, status: number): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({
    status,
    type: expect.stringMatching(/^https:\/\//),
    title: expect.any(String),
    detail: expect.any(String),
  });
  expect(res.text).not.toMatch(/<html|at \w+ \(|node_modules/i);
}

describe('errors are problem+json that say what to change', () => {
  test('answers 400 with the body violation when the JSON is malformed', async () => {
    const res = await request(mock.app)
      .post('/members/m1/credentials')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send('{"kind": ');
    expectProblem(res, 400);
    expect(res.body.detail).toMatch(/not valid JSON/);
    expect(res.body.violations).toEqual([
      { location: 'body', pointer: '', message: expect.stringMatching(/not valid JSON/) },
    ]);
  });

  test('answers 400 naming the query parameter when limit is out of range', async () => {
    const res = await request(mock.app).get('/members/m1/passes?limit=500').set(AUTH);
    expectProblem(res, 400);
    expect(res.body.violations).toEqual([{ location: 'query', pointer: '/limit', message: 'must be <= 100' }]);
  });

  test('answers 400 naming the path parameter when an id breaks its pattern', async () => {
    const res = await request(mock.app).get('/members/m%20!/passes').set(AUTH);
    expectProblem(res, 400);
    expect(res.body.violations[0]).toMatchObject({ location: 'path', pointer: '/member_id' });
  });

  test('answers 400 when a required body is missing', async () => {
    const res = await request(mock.app).post('/members/m1/passes').set(AUTH);
    expectProblem(res, 400);
    expect(res.body.violations).toEqual([{ location: 'body', pointer: '', message: 'A request body is required.' }]);
  });

  test('answers 401 with WWW-Authenticate when no bearer token is sent', async () => {
    const res = await request(mock.app).get('/members/m1/passes');
    expectProblem(res, 401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  test('answers 404 listing the contract operations in its detail when no path matches', async () => {
    const res = await request(mock.app).get('/members/m1/vouchers').set(AUTH);
    expectProblem(res, 404);
    expect(res.body.detail).toContain('GET /members/{member_id}/passes');
    expect(res.body.detail).toContain('DELETE /members/{member_id}/credentials/{credential_id}');
  });

  test.each([
    ['a 404 for a path the contract lacks', 'get', '/members/passes', 404],
    ['a 405 for a method the path lacks', 'patch', '/members/m1/passes/pas_1', 405],
  ] as const)(
    '%s fits the closed Problem schema, additional properties included',
    async (_name, method, path, status) => {
      const res = await request(mock.app)[method](path).set(AUTH);
      expectProblem(res, status);
      expect(ours.checkSchema('Problem', res.body)).toEqual([]);
    },
  );

  test('answers 405 with Allow when the path exists but the method does not', async () => {
    const res = await request(mock.app).patch('/members/m1/passes/pas_1').set(AUTH).send({});
    expectProblem(res, 405);
    expect(res.headers.allow).toBe('GET, DELETE, HEAD, OPTIONS');
  });

  test('answers 406 when Accept allows no media type of the response', async () => {
    const res = await request(mock.app).get('/members/m1/passes').set(AUTH).set('Accept', 'text/html');
    expectProblem(res, 406);
    expect(res.body.detail).toContain('application/json');
  });

  test('answers 413 when the body is over the limit', async () => {
    // A valid body, only padded with JSON whitespace past the limit: its size is all that is wrong.
    const res = await request(mock.app)
      .post('/members/m1/passes')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send(`{"name":"Gold membership"${' '.repeat(2000)}}`);
    expectProblem(res, 413);
    expect(res.body.detail).toMatch(/limit is 1024 bytes/);
  });

  test('answers 415 when the body is not JSON', async () => {
    const res = await request(mock.app)
      .post('/members/m1/passes')
      .set(AUTH)
      .set('Content-Type', 'text/plain')
      .send('hello');
    expectProblem(res, 415);
    expect(res.body.detail).toContain('application/json');
  });

  test.each([
    [
      'a kind outside its enum',
      { kind: 'retina' },
      { location: 'body', pointer: '/kind', message: 'must be equal to one of the allowed values: pin, card, mobile' },
    ],
    [
      'a property the schema does not have',
      { kind: 'pin', extra: 1 },
      { location: 'body', pointer: '', message: "must NOT have additional properties; found 'extra'" },
    ],
  ])('answers 422 naming the one violation when the body has %s', async (_name, body, violation) => {
    const res = await request(mock.app).post('/members/m1/credentials').set(AUTH).send(body);
    expectProblem(res, 422);
    expect(res.body.violations).toEqual([violation]);
  });

  // Two faults on purpose: each is refused alone above; here the answer must list both.
  test('answers 422 with every violation when the body breaks its schema', async () => {
    const res = await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'retina', extra: 1 });
    expectProblem(res, 422);
    expect(res.body.violations).toEqual(
      expect.arrayContaining([
        {
          location: 'body',
          pointer: '/kind',
          message: 'must be equal to one of the allowed values: pin, card, mobile',
        },
        { location: 'body', pointer: '', message: "must NOT have additional properties; found 'extra'" },
      ]),
    );
  });

  test('answers 422 naming the missing field when a required property is absent', async () => {
    const res = await request(mock.app).post('/members/m1/credentials').set(AUTH).send({});
    expectProblem(res, 422);
    expect(res.body.violations).toEqual([
      { location: 'body', pointer: '/kind', message: "must have required property 'kind'" },
    ]);
  });

  test('answers 422 when the body is JSON but not an object', async () => {
    const res = await request(mock.app)
      .post('/members/m1/passes')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send('"just a string"');
    expectProblem(res, 422);
    expect(res.body.violations[0]).toMatchObject({ location: 'body', pointer: '', message: 'must be object' });
  });

  test('answers 415 when the body has no Content-Type', async () => {
    const res = await request(mock.app).post('/members/m1/credentials').set(AUTH).send(Buffer.from('{"kind":"pin"}'));
    expectProblem(res, 415);
    expect(res.body.violations).toEqual([
      {
        location: 'header',
        pointer: '/content-type',
        message: 'A body needs a Content-Type; send one of: application/json.',
      },
    ]);
  });

  test('answers 415 for a JSON type the operation does not list', async () => {
    const res = await request(mock.app)
      .post('/members/m1/credentials')
      .set(AUTH)
      .set('Content-Type', 'application/problem+json')
      .send('{"kind":"pin"}');
    expectProblem(res, 415);
    expect(res.body.detail).toContain('Content-Type "application/problem+json" is not accepted');
  });
});

describe('odd requests still get a problem, never a crash', () => {
  test('answers 400 naming the path when its percent-encoding is malformed', async () => {
    const res = await request(mock.app).get('/members/%E0%A4%A/passes').set(AUTH);
    expectProblem(res, 400);
    expect(res.body.violations[0]).toMatchObject({ location: 'path' });
  });

  test('answers 400 when a compressed body cannot be decompressed', async () => {
    const res = await request(mock.app)
      .post('/members/m1/passes')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('not gzip at all');
    expectProblem(res, 400);
    expect(res.body.detail).toMatch(/could not be read/);
  });

  test('answers 415 for a charset it cannot read', async () => {
    const res = await request(mock.app)
      .post('/members/m1/passes')
      .set(AUTH)
      .set('Content-Type', 'application/json; charset=latin9')
      .send('{}');
    expectProblem(res, 415);
    expect(res.body.detail).toContain('charset "latin9"');
  });

  test.each([
    ['a read with no body', 'get', '/members/m1/passes', undefined, 200],
    ['a create with no body', 'post', '/members/m1/passes', undefined, 400],
    ['a create with a body', 'post', '/members/m1/credentials', '{"kind":"pin"}', 415],
  ] as const)(
    'a malformed Content-Type on %s is answered as such, never a 500',
    async (name, method, path, body, status) => {
      const type = name.includes('parameter') ? 'application/json; charset="unterminated' : 'garbage';
      const sent = request(mock.app)[method](path).set(AUTH).set('Content-Type', type);
      const res = await (body === undefined ? sent : sent.send(body));
      expect(res.status).toBe(status);
      if (status >= 400) expectProblem(res, status);
    },
  );

  test('answers 400 when the body nests too deeply, and the journal stays readable', async () => {
    // No field of the contract takes a nested value, so a deep one cannot fit the schema: the depth is checked first.
    const deep = `${'['.repeat(200)}${']'.repeat(200)}`;
    const res = await request(mock.app)
      .post('/members/m1/passes')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send(`{"name":${deep}}`);
    expectProblem(res, 400);
    expect(res.body.detail).toContain('nests deeper than 64 levels');
    expect(mock.calls({ operationId: 'createPass' }).at(-1)!.response.status).toBe(400);
  });

  test('ignores a body sent to an operation that takes none, however large or typed', async () => {
    await request(mock.app)
      .get('/members/m1/passes')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ a: 'x'.repeat(5000) }))
      .expect(200);
    await request(mock.app)
      .get('/members/m1/passes')
      .set(AUTH)
      .set('Content-Type', 'text/plain')
      .send('hello')
      .expect(200);
  });

  test('answers 404 for an unknown path before looking at the body', async () => {
    const res = await request(mock.app).post('/nope').set(AUTH).set('Content-Type', 'application/json').send('{');
    expectProblem(res, 404);
  });

  test('reads a trailing slash as the same path', async () => {
    const res = await request(mock.app).get('/members/m1/passes/').set(AUTH).expect(200);
    expect(res.body.data).toHaveLength(3);
  });

  test('records each of them in the journal with its answer', async () => {
    await request(mock.app).get('/members/%E0%A4%A/passes').set(AUTH);
    await request(mock.app)
      .post('/members/m1/passes')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('not gzip at all');
    await request(mock.app)
      .post('/members/m1/passes')
      .set(AUTH)
      .set('Content-Type', 'application/json; charset=latin9')
      .send('{}');
    await request(mock.app)
      .post('/members/m1/passes')
      .set(AUTH)
      .set('Content-Type', 'application/json')
      .send(`{"name":${'['.repeat(200)}${']'.repeat(200)}}`);
    const recorded = mock.calls();
    expect(recorded.map((c) => [c.method, c.path, c.response.status])).toEqual([
      ['GET', '/members/%E0%A4%A/passes', 400],
      ['POST', '/members/m1/passes', 400],
      ['POST', '/members/m1/passes', 415],
      ['POST', '/members/m1/passes', 400],
    ]);
  });
});

describe('a failure inside the mock', () => {
  test('answers 500 problem+json, logs the stack, records the call, and keeps serving', async () => {
    const errors: string[] = [];
    const failing = await newMock({
      onStateChange: () => {
        throw new Error('disk full');
      },
      logTo: (line, level) => level === 'error' && errors.push(line),
    });
    const res = await request(failing.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'pin' });
    expectProblem(res, 500);
    expect(res.text).not.toMatch(/disk full/);
    expect(errors).toEqual([
      expect.stringMatching(/unexpected error on POST \/members\/m1\/credentials: Error: disk full/),
    ]);
    expect(failing.calls().map((c) => [c.operationId, c.response.status])).toEqual([['createCredential', 500]]);
    await request(failing.app).get('/__mock/health').expect(200);
  });

  test('when even its session cannot be read, it still answers 500 problem+json and keeps serving', async () => {
    const errors: string[] = [];
    const options = resolveMockOptions({ logTo: (line, level) => level === 'error' && errors.push(line) });
    const context = createMockContext(serve(await loadContract(DEFAULT_CONTRACT)), options);
    const handle = createHandler(context, undefined, createBodyReader(1024));
    const sessions = context.sessions;
    const broken = new LRUCache<string, Session>({ max: 10 });
    for (const [name, session] of sessions.entries()) broken.set(name, session);
    broken.get = () => {
      throw new Error('sessions broken');
    };
    context.sessions = broken;
    expectProblem(await request(handle).get('/members/m1/passes').set(AUTH), 500);
    expect(errors).toContainEqual(
      expect.stringMatching(/could not record GET \/members\/m1\/passes: Error: sessions broken/),
    );
    context.sessions = sessions;
    await request(handle).get('/members/m1/passes').set(AUTH).expect(200);
  });
});
