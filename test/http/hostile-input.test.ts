import request from 'supertest';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

let mock: MockApp;
// A fresh mock per test: each test reads only the calls and state it made itself.
beforeEach(async () => {
  mock = await newMock({ seed: 21, bodyLimit: 4096 });
});

afterAll(() => {
  // Nothing any request sent may have reached a prototype.
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('polluted');
});

type Case = [name: string, send: () => request.Test, status: number];
// The bytes go out as they are: superagent would otherwise turn a Buffer sent as JSON into {"type":"Buffer",...}.
const post = (path: string, type: string, body: string | Buffer) =>
  request(mock.app)
    .post(path)
    .set(AUTH)
    .set('Content-Type', type)
    .serialize((b: unknown) => b as string)
    .send(body as string);

const cases: Case[] = [
  ['malformed JSON', () => post('/members/m1/passes', 'application/json', '{"name":'), 400],
  ['JSON null where an object is expected', () => post('/members/m1/passes', 'application/json', 'null'), 422],
  ['JSON false where an object is expected', () => post('/members/m1/passes', 'application/json', 'false'), 422],
  [
    'a JSON array where an object is expected',
    () => post('/members/m1/credentials', 'application/json', '[{"kind":"pin"}]'),
    422,
  ],
  ['a JSON number where an object is expected', () => post('/members/m1/credentials', 'application/json', '42'), 422],
  ['a wrong content type', () => post('/members/m1/passes', 'text/csv', 'a,b'), 415],
  ['no content type', () => request(mock.app).post('/members/m1/passes').set(AUTH).send(Buffer.from('{}')), 415],
  ['a form instead of JSON', () => post('/members/m1/passes', 'application/x-www-form-urlencoded', 'name=x'), 415],
  [
    'a body over the configured limit',
    // A valid body padded with JSON whitespace: only its size is wrong.
    () => post('/members/m1/passes', 'application/json', `{"name":"Gold membership"${' '.repeat(5000)}}`),
    413,
  ],
  [
    'JSON nested 1,500 deep',
    () => post('/members/m1/passes', 'application/json', `${'['.repeat(1500)}${']'.repeat(1500)}`),
    400,
  ],
  [
    'invalid UTF-8',
    // {"kind":"pin","label":"\xc3("}: a valid credential but for the broken bytes in its free-text label.
    () =>
      post(
        '/members/m1/credentials',
        'application/json',
        Buffer.concat([Buffer.from('{"kind":"pin","label":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
      ),
    400,
  ],
  [
    '__proto__ in the body',
    () => post('/members/m1/passes', 'application/json', '{"__proto__":{"polluted":true}}'),
    422,
  ],
  [
    'constructor.prototype in the body',
    () =>
      post(
        '/members/m1/credentials',
        'application/json',
        '{"kind":"pin","constructor":{"prototype":{"polluted":true}}}',
      ),
    422,
  ],
  [
    '__proto__ in the query',
    () =>
      request(mock.app).get('/members/m1/passes?__proto__[polluted]=1&constructor[prototype][polluted]=1').set(AUTH),
    200,
  ],
  ['__proto__ as a member id', () => request(mock.app).get('/members/__proto__/passes').set(AUTH), 200],
  [
    'a very long path',
    () =>
      request(mock.app)
        .get(`/members/${'m'.repeat(8000)}/passes`)
        .set(AUTH),
    400,
  ],
  [
    'a very long header',
    () => request(mock.app).get('/members/m1/passes').set(AUTH).set('X-Long', 'h'.repeat(8000)),
    200,
  ],
  [
    'encoded path traversal in an id',
    () => request(mock.app).get('/members/m1/passes/..%2F..%2Fetc%2Fpasswd').set(AUTH),
    400,
  ],
  ['an encoded null byte in an id', () => request(mock.app).delete('/members/m1/credentials/crd%00x').set(AUTH), 400],
  ['a method the contract does not have', () => request(mock.app).put('/members/m1/passes').set(AUTH).send({}), 405],
  ['a WebDAV method', () => request(mock.app).propfind('/members/m1/passes').set(AUTH), 405],
  [
    'thousands of query parameters',
    () =>
      request(mock.app)
        .get(`/members/m1/passes?${Array.from({ length: 2000 }, (_, i) => `${i}=`).join('&')}`)
        .set(AUTH),
    200,
  ],
  ['a repeated limit', () => request(mock.app).get('/members/m1/passes?limit=1&limit=2').set(AUTH), 400],
  ['an unknown path with a hostile body', () => post('/__proto__/x', 'application/json', '{"__proto__":1}'), 404],
];

/** Sends the case of that name. */
const sendCase = (name: string) => cases.find((c) => c[0] === name)![1]();

describe('hostile input gets a 4xx problem (or its documented answer), and the server stays healthy', () => {
  test.each(cases)('%s', async (_name, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    if (status >= 400) {
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.status).toBe(status);
      expect(res.text).not.toMatch(/node_modules|\/work\/|at \w+ \(|<html/i);
    }
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await request(mock.app).get('/__mock/health').expect(200);
  });

  test('HEAD and OPTIONS on known paths answer without a body', async () => {
    await request(mock.app).head('/members/m1/credentials').set(AUTH).expect(200);
    const options = await request(mock.app).options('/members/m1/credentials').expect(204);
    expect(options.headers.allow).toBe('GET, POST, HEAD, OPTIONS');
  });

  test('every hostile request is in the journal, readable, and the journal kept the odd keys as data', async () => {
    for (const [, hostile] of cases) await hostile();
    const calls = mock.calls();
    expect(calls).toHaveLength(cases.length);
    const proto = calls.find(
      (c) =>
        c.path === '/members/m1/passes' && c.response.status === 422 && JSON.stringify(c.body).includes('__proto__'),
    );
    expect(Object.hasOwn(proto!.body as object, '__proto__')).toBe(true);
    expect(((proto!.body as Record<string, unknown>).__proto__ as Record<string, unknown>).polluted).toBe(true);
  });

  test('a body nested too deep is kept out of the journal, which stays readable', async () => {
    await sendCase('JSON nested 1,500 deep');
    const deep = mock.calls().find((c) => c.body === '[not recorded: the body nests deeper than 64 levels]');
    expect(deep?.response.status).toBe(400);
    await request(mock.app).get('/__mock/calls').expect(200);
    await request(mock.app).get('/__mock/calls/wait?timeout=10&path=/nowhere').expect(408);
  });

  test('a hostile member id is only a name: its collection is plain data', async () => {
    await sendCase('__proto__ as a member id');
    // A read keeps nothing; a create makes the collection state.
    await request(mock.app).post('/members/__proto__/passes').set(AUTH).send({}).expect(201);
    const state = mock.state().collections;
    expect(Object.keys(state)).toContain('/members/__proto__/passes');
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype);
  });

  test('a caller X-Request-Id is echoed when sensible and replaced when not', async () => {
    expect(
      (await request(mock.app).get('/members/m1/passes').set(AUTH).set('X-Request-Id', 'trace-123')).headers[
        'x-request-id'
      ],
    ).toBe('trace-123');
    expect(
      (await request(mock.app).get('/members/m1/passes').set(AUTH).set('X-Request-Id', 'bad id with spaces')).headers[
        'x-request-id'
      ],
    ).toMatch(/^[0-9a-f-]{36}$/);
    expect(mock.calls().at(-2)!.requestId).toBe('trace-123');
  });
});

describe('JSON in another charset than UTF-8', () => {
  const utf16 = (json: string) => Buffer.from(json, 'utf16le');

  test('is refused with 415 before it is read, so its depth cannot slip past the check', async () => {
    const deep = `{"kind":"pin","x":"\\"${'['.repeat(500)}${']'.repeat(500)}"}`;
    const res = await request(mock.app)
      .post('/members/m1/credentials')
      .set(AUTH)
      .set('Content-Type', 'application/json; charset=utf-16le')
      .serialize((b: unknown) => b as string)
      .send(utf16(deep) as unknown as string)
      .expect(415);
    expect(res.body.detail).toContain('charset "utf-16le" is not supported');
  });

  test('is refused by the admin API too', async () => {
    await request(mock.app)
      .post('/__mock/calls/wait')
      .set('Content-Type', 'application/json; charset=utf-16le')
      .serialize((b: unknown) => b as string)
      .send(utf16('{"timeout":10}') as unknown as string)
      .expect(415);
  });
});
