// The contract's MSW handlers (membership-mock/msw) in a real MSW server (msw/node's setupServer): the app's fetch
// is answered in-process by the mock's engine, and the test API reads and steers it as startMock's does.
import { readFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import request from 'supertest';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createApp, DEFAULT_CONTRACT, loadContract, type CallRecord } from '../../mock/index.js';
import { createHandlers, type ContractHandlers } from '../../mock/msw.js';
import { mockMatchers } from '../../mock/testing/matchers.js';
import type { operations } from '../../contracts/membership.js';
import { track } from '../support/harness.js';

expect.extend(mockMatchers);

const API = 'https://membership.test';
const AUTH = { Authorization: 'Bearer t' };
const JSON_AUTH = { ...AUTH, 'Content-Type': 'application/json' };

let mock: ContractHandlers<operations>;
const server = setupServer();

beforeAll(async () => {
  // Every answer the handlers give is checked against the contract with ajv when the file ends, as the mocks of
  // the other tests are (test/support/conformance-setup.ts).
  const answered: CallRecord[] = [];
  mock = await createHandlers<operations>({
    contract: DEFAULT_CONTRACT,
    seed: 7,
    baseUrl: API,
    onCall: (call) => answered.push(call),
  });
  track(mock.contract.source, () => answered);
  server.use(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  mock.reset();
  mock.clearFaults();
});
afterAll(() => server.close());

const passes = (member = 'm1') => `${API}/members/${member}/passes`;
const createPass = (body: unknown, member = 'm1') =>
  fetch(passes(member), { method: 'POST', headers: JSON_AUTH, body: JSON.stringify(body) });
const listPasses = async (): Promise<{ id: string; name: string }[]> =>
  ((await (await fetch(passes(), { headers: AUTH })).json()) as { data: { id: string; name: string }[] }).data;

describe('the handlers answer the contract', () => {
  test('list: the seeded passes, recorded as a listPasses call', async () => {
    const res = await fetch(passes(), { headers: AUTH });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const { data } = (await res.json()) as { data: { member_id: string }[] };
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((pass) => pass.member_id === 'm1')).toBe(true);
    expect(mock).toHaveReceived('listPasses', { pathParams: { member_id: 'm1' } });
  });

  test('create, then read back: the created pass is in state', async () => {
    const created = await createPass({ name: 'Gold membership' });
    expect(created.status).toBe(201);
    const pass = (await created.json()) as { id: string; name: string };
    expect(pass.name).toBe('Gold membership');
    const read = await fetch(`${passes()}/${pass.id}`, { headers: AUTH });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(pass);
    expect(mock.calls({ operationId: 'createPass' })[0]?.body).toEqual({ name: 'Gold membership' });
  });

  test('delete: 204, then the pass is gone (404 problem)', async () => {
    const { id } = (await (await createPass({ name: 'Day pass' })).json()) as { id: string };
    const deleted = await fetch(`${passes()}/${id}`, { method: 'DELETE', headers: AUTH });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    const read = await fetch(`${passes()}/${id}`, { headers: AUTH });
    expect(read.status).toBe(404);
    expect(read.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  test('a body with one bad field is refused 422 with a problem naming it, and nothing is created', async () => {
    const before = (await listPasses()).length;
    const res = await createPass({ name: 42 });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await res.json()) as { violations: { pointer: string }[] };
    expect(problem.violations.map((v) => v.pointer)).toEqual(['/name']);
    expect(await listPasses()).toHaveLength(before);
    expect(mock.calls({ operationId: 'createPass' })[0]?.violations).toHaveLength(1);
  });

  test('a request without credentials is refused 401', async () => {
    expect((await fetch(passes())).status).toBe(401);
  });

  test('Prefer: code=404 answers the documented 404', async () => {
    const res = await fetch(passes(), { headers: { ...AUTH, Prefer: 'code=404' } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { status: number }).status).toBe(404);
  });

  test('X-Request-Id: a sensible one sent is answered back, else a new one counted up from the last', async () => {
    const sent = await fetch(passes(), { headers: { ...AUTH, 'X-Request-Id': 'trace-7.a:b' } });
    expect(sent.headers.get('x-request-id')).toBe('trace-7.a:b');
    const first = (await fetch(passes(), { headers: { ...AUTH, 'X-Request-Id': 'has space' } })).headers;
    const second = (await fetch(passes(), { headers: AUTH })).headers;
    const [a, b] = [first.get('x-request-id') ?? '', second.get('x-request-id') ?? ''];
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b.slice(0, 24)).toBe(a.slice(0, 24));
    expect(parseInt(b.slice(24), 16)).toBe(parseInt(a.slice(24), 16) + 1);
  });

  test('a path of no operation under the base URL answers 404; a known path with another method 405 with Allow', async () => {
    expect((await fetch(`${API}/nowhere`, { headers: AUTH })).status).toBe(404);
    const res = await fetch(passes(), { method: 'PATCH', headers: AUTH });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
  });
});

describe('the test API, in-process', () => {
  test('an override answers once, then the contract answers again', async () => {
    mock.override({ operationId: 'listPasses', status: 500, times: 1 });
    expect((await fetch(passes(), { headers: AUTH })).status).toBe(500);
    expect((await fetch(passes(), { headers: AUTH })).status).toBe(200);
    expect(mock.calls({ operationId: 'listPasses' }).map((c) => c.answeredBy ?? 'mock')).toEqual(['override', 'mock']);
  });

  test('a failure fault answers every call with a failure, marked in the journal', async () => {
    mock.setFaults({ failureRate: 1 });
    const res = await fetch(passes(), { headers: AUTH });
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(mock.calls({ operationId: 'listPasses' })[0]?.fault).toBe('failure');
  });

  test('a drop fault makes the fetch fail as a network error, and is recorded with status 0', async () => {
    mock.setFaults({ dropRate: 1 });
    await expect(fetch(passes(), { headers: AUTH })).rejects.toThrow(TypeError);
    expect(mock.calls({ operationId: 'listPasses' })[0]).toMatchObject({ fault: 'drop', response: { status: 0 } });
  });

  test('waitForCall resolves with the call of a fetch the test made after it started waiting', async () => {
    const waited = mock.waitForCall({ operationId: 'createPass', body: { name: 'Awaited' } }, { timeout: 5000 });
    const res = await createPass({ name: 'Awaited' });
    const call = await waited;
    expect(call.response.status).toBe(res.status);
    expect(call.pathParams).toEqual({ member_id: 'm1' });
  });

  test('reset empties the journal and takes state back to the seed', async () => {
    const before = await listPasses();
    await createPass({ name: 'Kept until reset' });
    expect(await listPasses()).toHaveLength(before.length + 1);
    mock.reset();
    expect(mock.calls()).toEqual([]);
    expect(await listPasses()).toEqual(before);
  });

  test('coverage counts the calls made through the handlers', async () => {
    mock.clearCoverage();
    await fetch(passes(), { headers: AUTH });
    await createPass({ name: 'Counted' });
    const { summary, operations } = mock.coverage();
    expect(summary.called).toBe(2);
    expect(operations.filter((op) => op.calls > 0).map((op) => op.operationId)).toEqual(['listPasses', 'createPass']);
  });

  test("a session header keeps a test's calls apart", async () => {
    await createPass({ name: 'In session a' });
    const headers = { ...AUTH, 'X-Mock-Session': 'a' };
    await fetch(passes(), { headers });
    expect(mock.calls({ operationId: 'listPasses' }, 'a')).toHaveLength(1);
    expect(mock.calls({ operationId: 'listPasses' })).toHaveLength(0);
  });
});

describe('one engine', () => {
  test('the handlers answer as the server does, byte for byte, for the same seed and requests', async () => {
    const app = createApp(await loadContract(DEFAULT_CONTRACT), { seed: 7 });
    for (const path of ['/members/m1/passes', '/members/m2/credentials', '/members/m1/passes/pas_x']) {
      const served = await request(app.app).get(path).set(AUTH);
      const handled = await fetch(`${API}${path}`, { headers: AUTH });
      expect(handled.status).toBe(served.status);
      expect(await handled.text()).toBe(served.text);
    }
  });

  test.each([
    ['one bad field', '{"name":42}'],
    ['malformed JSON', '{"name":'],
    ['a body past the limit', JSON.stringify({ name: 'x'.repeat(70_000) })],
    ['JSON nested too deep', '['.repeat(100) + ']'.repeat(100)],
  ])('%s is refused as the server refuses it', async (_, body) => {
    const app = createApp(await loadContract(DEFAULT_CONTRACT), { seed: 7 });
    const served = await request(app.app).post('/members/m1/passes').set(JSON_AUTH).send(body);
    const handled = await fetch(passes(), { method: 'POST', headers: JSON_AUTH, body });
    expect(handled.status).toBeGreaterThanOrEqual(400);
    expect([handled.status, await handled.json()]).toEqual([served.status, served.body]);
    const [call] = mock.calls({ operationId: 'createPass' });
    expect(call?.violations).toEqual(app.calls({ operationId: 'createPass' })[0]?.violations);
  });
});

describe('bodies read by the same rules as the server (http/body-kind.ts)', () => {
  test.each([
    ['JSON in another charset', 'application/json; charset=iso-8859-1', '{"name":"Gold"}'],
    ['JSON in UTF-16', 'application/json; charset=utf-16', '{"name":"Gold"}'],
    ['text in a charset nobody knows', 'text/plain; charset=x-nothing', 'Gold'],
    ['a form in a charset forms do not take', 'application/x-www-form-urlencoded; charset=utf-16', 'name=Gold'],
    ['a form of more than 1000 fields', 'application/x-www-form-urlencoded', Array(1001).fill('a=1').join('&')],
  ])('%s is refused as the server refuses it', async (_, type, body) => {
    const app = createApp(await loadContract(DEFAULT_CONTRACT), { seed: 7 });
    const headers = { ...AUTH, 'Content-Type': type };
    const served = await request(app.app).post('/members/m1/passes').set(headers).send(body);
    const handled = await fetch(passes(), { method: 'POST', headers, body });
    expect(handled.status).toBeGreaterThanOrEqual(400);
    expect([handled.status, await handled.json()]).toEqual([served.status, served.body]);
  });

  test('a gzip body is read decoded, and held to the limit as decoded', async () => {
    const zipped = gzipSync(JSON.stringify({ name: 'Gold' }));
    const headers = { ...JSON_AUTH, 'Content-Encoding': 'gzip' };
    const created = await fetch(passes(), { method: 'POST', headers, body: zipped });
    expect(created.status).toBe(201);
    expect(mock.calls({ operationId: 'createPass' })[0]?.body).toEqual({ name: 'Gold' });
    const bomb = gzipSync(JSON.stringify({ name: 'x'.repeat(200_000) }));
    expect(bomb.length).toBeLessThan(65_536);
    expect((await fetch(passes(), { method: 'POST', headers, body: bomb })).status).toBe(413);
  });

  test.each([
    ['a corrupt gzip body', '{"name":"not gzipped"}'],
    ['an empty gzip body', ''],
  ])('%s is refused 400, saying it could not be read, as the server says', async (_, body) => {
    const app = createApp(await loadContract(DEFAULT_CONTRACT), { seed: 7 });
    const headers = { ...JSON_AUTH, 'Content-Encoding': 'gzip' };
    const served = await request(app.app).post('/members/m1/passes').set(headers).send(body);
    const handled = await fetch(passes(), { method: 'POST', headers, body });
    const problem = (await handled.json()) as { type: string; title: string; detail: string };
    expect([handled.status, problem.type, problem.title]).toEqual([served.status, served.body.type, served.body.title]);
    // Why, in the decoder's words where it gives them (zlib's on Node 20, as the server says), else the mock's.
    expect(problem.detail).toMatch(/^The body could not be read: \S.*\.$/);
  });

  test('an encoding a Fetch runtime cannot decode (br) is refused 415, naming it', async () => {
    const headers = { ...JSON_AUTH, 'Content-Encoding': 'br' };
    const res = await fetch(passes(), { method: 'POST', headers, body: brotliCompressSync('{"name":"Gold"}') });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { detail: string }).detail).toContain('encoding "br"');
  });
});

describe('the contract as a document object (no file system, as in a browser)', () => {
  test('a parsed OpenAPI document is served, and paths of no operation are left to the next handler', async () => {
    const document: unknown = parse(readFileSync(DEFAULT_CONTRACT, 'utf8'));
    const own = await createHandlers({ contract: document as object, seed: 7 });
    const other = setupServer(
      ...own.handlers,
      http.get('*/health', () => HttpResponse.json({ ok: true })),
    );
    // One MSW server at a time patches fetch: this test's takes over, then gives it back.
    server.close();
    other.listen({ onUnhandledRequest: 'error' });
    try {
      expect((await fetch('https://anywhere.test/members/m1/passes', { headers: AUTH })).status).toBe(200);
      expect(await (await fetch('https://anywhere.test/health')).json()).toEqual({ ok: true });
      expect(own.calls().map((c) => c.operationId)).toEqual(['listPasses']);
    } finally {
      other.close();
      server.listen({ onUnhandledRequest: 'error' });
    }
  });

  test('a document that refers to another file is refused, naming it', async () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      paths: {
        '/things': { get: { responses: { '200': { $ref: 'other.yaml#/components/responses/Things' } } } },
      },
    };
    await expect(createHandlers({ contract: document })).rejects.toThrow(/other\.yaml/);
  });
});
