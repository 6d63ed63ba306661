// The contract's MSW handlers answer what the server answers where a request is odd (a malformed path, a base
// URL with a path, a raw body), and leave to the next handler what is not the contract's. Each test sets up
// handlers of its own, in an MSW server of its own (one at a time patches fetch).
import { readFileSync } from 'node:fs';
import { http, HttpResponse, type HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import request from 'supertest';
import { parse } from 'yaml';
import { expect, test } from 'vitest';
import { createApp, DEFAULT_CONTRACT, loadContract, type CallRecord } from '../../mock/index.js';
import { createHandlers } from '../../mock/msw.js';

const API = 'https://membership.test';
const AUTH = { Authorization: 'Bearer t' };
const JSON_AUTH = { ...AUTH, 'Content-Type': 'application/json' };

/** Runs `check` with `handlers` answering fetch, and anything they leave unanswered an error. */
async function withHandlers(handlers: HttpHandler[], check: () => Promise<void>): Promise<void> {
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    await check();
  } finally {
    server.close();
  }
}

/** The membership contract, served at `https://membership.test/v1`. */
function underV1(): object {
  const document = parse(readFileSync(DEFAULT_CONTRACT, 'utf8')) as object;
  return { ...document, servers: [{ url: `${API}/v1` }] };
}

test('a path with a malformed percent-encoding is refused 400, as the server refuses it', async () => {
  const app = createApp(await loadContract(DEFAULT_CONTRACT), { seed: 7 });
  const served = await request(app.app).get('/members/m%E0/passes').set(AUTH);
  const mock = await createHandlers({ seed: 7, baseUrl: API });
  await withHandlers(mock.handlers, async () => {
    const res = await fetch(`${API}/members/m%E0/passes`, { headers: AUTH });
    expect([res.status, await res.json()]).toEqual([served.status, served.body]);
  });
});

test('a malformed percent-encoding on another origin goes on to the next handler', async () => {
  const mock = await createHandlers({ seed: 7, baseUrl: API });
  const next = http.get(/^https:\/\/other\.test\//, () => HttpResponse.text('next'));
  await withHandlers([...mock.handlers, next], async () => {
    const res = await fetch('https://other.test/files/a%E0');
    expect([res.status, await res.text()]).toEqual([200, 'next']);
  });
});

test("under a base URL with a path, a create's Location keeps the path, and reads the pass back", async () => {
  const mock = await createHandlers({ seed: 7, baseUrl: `${API}/v1` });
  await withHandlers(mock.handlers, async () => {
    const body = JSON.stringify({ name: 'Gold' });
    const created = await fetch(`${API}/v1/members/m1/passes`, { method: 'POST', headers: JSON_AUTH, body });
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^\/v1\/members\/m1\/passes\/pas_\w+$/);
    expect((await fetch(new URL(location, API), { headers: AUTH })).status).toBe(200);
  });
});

test("under a base URL with a path, a problem's instance and the journal's path keep it, as the server's do", async () => {
  const mock = await createHandlers({ contract: underV1(), seed: 7, baseUrl: `${API}/v1` });
  const app = createApp(mock.contract, { seed: 7 });
  const paths = ['/v1/members/m1/passes', '/v1/members/m1/nothing'];
  const served = await Promise.all(paths.map((path) => request(app.app).post(path).set(JSON_AUTH).send('{"name":4}')));
  await withHandlers(mock.handlers, async () => {
    for (const [at, path] of paths.entries()) {
      const res = await fetch(`${API}${path}`, { method: 'POST', headers: JSON_AUTH, body: '{"name":4}' });
      expect((await res.json()) as unknown).toMatchObject({ instance: served[at]!.body.instance });
    }
    expect(mock.calls().map((call) => call.path)).toEqual(app.calls().map((call) => call.path));
  });
});

test('without a base URL, a request of no operation with a malformed session name goes on to the next handler', async () => {
  const mock = await createHandlers({ seed: 7 });
  const next = http.get('https://other.test/health', () => HttpResponse.json({ ok: true }));
  await withHandlers([...mock.handlers, next], async () => {
    const res = await fetch('https://other.test/health', { headers: { 'X-Mock-Session': 'a b' } });
    expect([res.status, await res.json()]).toEqual([200, { ok: true }]);
    expect(mock.calls()).toEqual([]);
  });
});

test('a malformed session name on a path of the contract is refused 400, as the server refuses it', async () => {
  const app = createApp(await loadContract(DEFAULT_CONTRACT), { seed: 7 });
  const headers = { ...AUTH, 'X-Mock-Session': 'a b' };
  const served = await request(app.app).get('/members/m1/passes').set(headers);
  const mock = await createHandlers({ seed: 7 });
  await withHandlers(mock.handlers, async () => {
    const res = await fetch(`${API}/members/m1/passes`, { headers });
    expect([res.status, await res.json()]).toEqual([served.status, served.body]);
  });
});

/** A contract that takes bytes. */
const UPLOADS = {
  openapi: '3.0.3',
  info: { title: 'Uploads', version: '1' },
  paths: {
    '/uploads': {
      post: {
        operationId: 'upload',
        requestBody: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
        responses: { '204': { description: 'stored' } },
      },
    },
  },
};

test('a raw body of bytes that are no UTF-8 text is journaled as base64, as the server journals it', async () => {
  const mock = await createHandlers({ contract: UPLOADS, seed: 7, baseUrl: API });
  const app = createApp(mock.contract, { seed: 7 });
  const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe]);
  const headers = { 'Content-Type': 'application/octet-stream' };
  await request(app.app).post('/uploads').set(headers).send(Buffer.from(bytes));
  await withHandlers(mock.handlers, async () => {
    expect((await fetch(`${API}/uploads`, { method: 'POST', headers, body: bytes })).status).toBe(204);
    expect(mock.calls()[0]).toMatchObject({ body: Buffer.from(bytes).toString('base64'), bodyEncoding: 'base64' });
    expect(mock.calls()[0]?.body).toBe(app.calls()[0]?.body);
  });
});

test('a raw body keeps a leading byte order mark, as the server keeps it', async () => {
  const mock = await createHandlers({ contract: UPLOADS, seed: 7, baseUrl: API });
  const app = createApp(mock.contract, { seed: 7 });
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x41, 0x42]);
  const headers = { 'Content-Type': 'application/octet-stream' };
  await request(app.app).post('/uploads').set(headers).send(Buffer.from(bytes));
  await withHandlers(mock.handlers, async () => {
    expect((await fetch(`${API}/uploads`, { method: 'POST', headers, body: bytes })).status).toBe(204);
    expect(mock.calls()[0]?.body).toBe('\uFEFFAB');
    expect(mock.calls()[0]?.body).toBe(app.calls()[0]?.body);
  });
});

/** A contract that takes a JSON string and a form. */
const NOTES = {
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1' },
  paths: {
    '/notes': {
      post: {
        operationId: 'addNote',
        requestBody: { content: { 'application/json': { schema: { type: 'string' } } } },
        responses: { '204': { description: 'kept' } },
      },
    },
    '/login': {
      post: {
        operationId: 'login',
        requestBody: {
          content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
        },
        responses: { '204': { description: 'signed in' } },
      },
    },
  },
};

test('a JSON string body and a form body are journaled with their text as sent, as the server journals them', async () => {
  const mock = await createHandlers({ contract: NOTES, seed: 7, baseUrl: API });
  const app = createApp(mock.contract, { seed: 7 });
  const sent: [string, string, string][] = [
    ['/notes', 'application/json', '"hello"'],
    ['/login', 'application/x-www-form-urlencoded', 'user=bob%20smith&tag=a&x=%26&tag=b'],
  ];
  for (const [path, type, body] of sent) await request(app.app).post(path).set('Content-Type', type).send(body);
  await withHandlers(mock.handlers, async () => {
    for (const [path, type, body] of sent) {
      const res = await fetch(`${API}${path}`, { method: 'POST', headers: { 'Content-Type': type }, body });
      expect(res.status).toBe(204);
    }
    const texts = (calls: CallRecord[]) => calls.map((c) => [c.body, c.bodyJson, c.bodyText]);
    expect(texts(mock.calls())).toEqual([
      ['hello', true, undefined],
      [{ user: 'bob smith', tag: ['a', 'b'], x: '&' }, undefined, sent[1]![2]],
    ]);
    expect(texts(mock.calls())).toEqual(texts(app.calls()));
  });
});
