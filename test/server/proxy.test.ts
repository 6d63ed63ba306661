// The mock in front of a real backend (`proxy`): real upstream servers on free ports, the mock on a real socket.
import { mkdtemp, readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockOptions, RunningMock, ServerOptions } from '../../mock/index.js';
import { AUTH, newServer } from '../support/harness.js';
import { deadUrl, startUpstream, type Upstream } from '../support/upstream.js';

const PASS = {
  id: 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M',
  member_id: 'mbr_1',
  name: 'Gold from the backend',
  status: 'active',
  valid_from: '2026-01-05T09:30:00Z',
  valid_until: null,
  created_at: '2026-01-05T09:30:00Z',
};
const LIST = { data: [PASS], next_cursor: null };
const NOT_FOUND = {
  type: 'https://example.com/problems/not-found',
  title: 'Not found',
  status: 404,
  detail: 'Member mbr_1 has no pass pas_01JD40C2M5K8H1G4F7E0D3C6B9.',
};

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function upstream(...args: Parameters<typeof startUpstream>): Promise<Upstream> {
  const up = await startUpstream(...args);
  open.push(up);
  return up;
}

async function mockBefore(proxy: MockOptions['proxy'], options: ServerOptions = {}): Promise<RunningMock> {
  const mock = await newServer({ proxy, ...options });
  open.push(mock);
  return mock;
}

/**
 * A backend that has two of the seven operations (list and read passes) and answers everything else as a web
 * framework does for a route it lacks: 404 with an HTML page.
 */
function partialBackend(req: { method: string; url: string }, res: import('node:http').ServerResponse): void {
  if (req.method === 'GET' && /^\/api\/members\/[^/]+\/passes(\?|$)/.test(req.url)) {
    return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(LIST));
  }
  const read = /^\/api\/members\/[^/]+\/passes\/([^/?]+)/.exec(req.url);
  if (req.method === 'GET' && read) {
    if (read[1] === PASS.id)
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(PASS));
    return void res.writeHead(404, { 'content-type': 'application/problem+json' }).end(JSON.stringify(NOT_FOUND));
  }
  res.writeHead(404, { 'content-type': 'text/html' }).end(`<pre>Cannot ${req.method} ${req.url}</pre>`);
}

describe('forwarding: what the upstream receives, and what the client gets back', () => {
  test("the mock's own query controls (?__delay, ?__code…) stay with the mock; the rest goes upstream as sent", async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(LIST));
    }, '/api');
    const mock = await mockBefore(up.url);
    const query = '?limit=2&__delay=1&x=%20a&__dynamic=false&__delay=2&cursor=';
    expect((await fetch(`${mock.url}/members/mbr_1/passes${query}`, { headers: AUTH })).status).toBe(200);
    expect(up.received.map((r) => r.url)).toEqual(['/api/members/mbr_1/passes?limit=2&x=%20a&cursor=']);
  });

  test('a routed request goes upstream under its base path, query, headers and body as sent; its answer comes back', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-backend': 'real', location: '/somewhere' });
      res.end(JSON.stringify(PASS));
    }, '/api');
    const mock = await mockBefore(up.url);
    // Spacing and a non-ASCII character the mock must not re-serialise.
    const body = '{ "name" :  "Gold \u00e9t\u00e9",\n "valid_until": null }';
    const headers = { ...AUTH, 'content-type': 'application/json', 'x-client': 'web', 'x-drop-me': '1' };
    const response = await rawRequest(
      mock.url,
      'POST',
      '/members/mbr_1/passes?trace=1&trace=2',
      {
        ...headers,
        connection: 'keep-alive, x-drop-me',
      },
      body,
    );
    expect(response.status).toBe(201);
    expect(response.headers['x-backend']).toBe('real');
    expect(response.headers.location).toBe('/somewhere');
    expect(response.headers['sl-violations']).toBeUndefined();
    expect(JSON.parse(response.body.toString())).toEqual(PASS);

    const [seen] = up.received;
    expect(seen!.method).toBe('POST');
    expect(seen!.url).toBe('/api/members/mbr_1/passes?trace=1&trace=2');
    expect(seen!.body.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(seen!.headers.host).toBe(new URL(up.url).host);
    expect(seen!.headers['x-client']).toBe('web');
    expect(seen!.headers.authorization).toBe(AUTH.Authorization);
    // Hop-by-hop: the Connection header and what it names belong to the client's connection to the mock.
    expect(seen!.headers['x-drop-me']).toBeUndefined();
    expect(seen!.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen!.headers['x-forwarded-host']).toBe(new URL(mock.url).host);

    const [call] = mock.calls();
    expect(call).toMatchObject({
      operationId: 'createPass',
      answeredBy: 'proxy',
      response: { status: 201, body: PASS },
    });
    expect(call!.body).toEqual({ name: 'Gold \u00e9t\u00e9', valid_until: null });
    // The client's credentials are journaled redacted, as any call's.
    expect(call!.headers.authorization).toMatch(/^Bearer \[redacted sha256:/);
  });

  test('a redirect is passed on untouched, not followed', async () => {
    const up = await upstream((_req, res) => res.writeHead(302, { location: 'https://elsewhere.example/login' }).end());
    const mock = await mockBefore({ url: up.url, fallback: 'off' });
    const response = await fetch(`${mock.url}/members/mbr_1/passes`, { headers: AUTH, redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://elsewhere.example/login');
    expect(up.received).toHaveLength(1);
  });

  test("--proxy-header reaches the upstream in place of the client's, and is never journaled", async () => {
    const up = await upstream((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(LIST)),
    );
    const mock = await mockBefore({ url: up.url, headers: { Authorization: 'Bearer upstream-secret' } });
    await fetch(`${mock.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(up.received[0]!.headers.authorization).toBe('Bearer upstream-secret');
    expect(JSON.stringify(mock.calls())).not.toContain('upstream-secret');
  });

  test('a request no operation matches is passed through unchecked, unless passthrough is off', async () => {
    const up = await upstream((req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`backend ${req.url}`),
    );
    const through = await mockBefore(up.url);
    const passed = await fetch(`${through.url}/healthz?deep=1`, { method: 'PUT', body: 'ping' });
    expect(passed.status).toBe(200);
    expect(await passed.text()).toBe('backend /healthz?deep=1');
    expect(up.received[0]!.body.toString()).toBe('ping');
    expect(through.calls()[0]).toMatchObject({ operationId: null, answeredBy: 'proxy', body: 'ping' });

    const closed = await mockBefore({ url: up.url, passthrough: false });
    const refused = await fetch(`${closed.url}/healthz`);
    expect(refused.status).toBe(404);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(up.received).toHaveLength(1);
  });

  test('a GET with a body is refused with 501 and never forwarded', async () => {
    const up = await upstream((_req, res) => res.writeHead(200).end());
    const mock = await mockBefore(up.url);
    const answer = await rawRequest(
      mock.url,
      'GET',
      '/members/mbr_1/passes',
      { ...AUTH, 'content-type': 'application/json' },
      '{}',
    );
    expect(answer.status).toBe(501);
    expect(JSON.parse(answer.body.toString())).toMatchObject({
      status: 501,
      type: expect.stringContaining('body-not-forwarded'),
    });
    expect(up.received).toHaveLength(0);
  });
});

describe('both directions checked against the contract', () => {
  const broken = { data: 'not a list', next_cursor: null };

  test('an answer that breaks the contract is passed on with sl-violations and journaled; with errors it is a 500', async () => {
    const up = await upstream((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(broken)),
    );
    const lenient = await mockBefore(up.url);
    const passed = await fetch(`${lenient.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(passed.status).toBe(200);
    expect(await passed.json()).toEqual(broken);
    const header = JSON.parse(passed.headers.get('sl-violations')!) as { location: string[]; code: string }[];
    expect(header).toContainEqual(expect.objectContaining({ location: ['response', 'body', 'data'], code: 'type' }));
    expect(lenient.calls()[0]!.responseViolations).toEqual([
      expect.objectContaining({ pointer: '/data', code: 'type' }),
    ]);

    const strict = await mockBefore(up.url, { errors: true });
    const refused = await fetch(`${strict.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(refused.status).toBe(500);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await refused.json()) as { type: string; violations: { pointer: string }[] };
    expect(problem.type).toContain('invalid-upstream-answer');
    expect(problem.violations).toEqual([expect.objectContaining({ pointer: '/data' })]);
  });

  test('a compressed answer is checked decompressed and passed on as the bytes the upstream sent', async () => {
    const zipped = gzipSync(JSON.stringify(broken));
    const up = await upstream((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(zipped),
    );
    const mock = await mockBefore(up.url);
    const answer = await rawRequest(mock.url, 'GET', '/members/mbr_1/passes', { ...AUTH, 'accept-encoding': 'gzip' });
    expect(answer.body.equals(zipped)).toBe(true);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['sl-violations']).toContain('"code":"type"');
    expect(mock.calls()[0]!.response.body).toEqual(broken);
  });

  test('a request that breaks the contract is forwarded and marked; with errors it is refused and never forwarded', async () => {
    const up = await upstream((_req, res) =>
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(PASS)),
    );
    const lenient = await mockBefore(up.url);
    const bad = { name: 42 };
    const forwarded = await fetch(`${lenient.url}/members/mbr_1/passes`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify(bad),
    });
    expect(forwarded.status).toBe(201);
    expect(forwarded.headers.get('sl-violations')).toContain('"location":["request","body","name"]');
    expect(lenient.calls()[0]!.violations).toEqual([expect.objectContaining({ location: 'body', pointer: '/name' })]);
    expect(up.received).toHaveLength(1);

    const strict = await mockBefore(up.url, { errors: true });
    const refused = await fetch(`${strict.url}/members/mbr_1/passes`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify(bad),
    });
    expect(refused.status).toBe(422);
    expect(up.received).toHaveLength(1);
    expect(strict.calls()[0]).toMatchObject({ answeredBy: 'mock', refusal: { status: 422 } });
  });
});

describe('fallback: the mock answers what the backend cannot', () => {
  test("auto: a route the backend lacks (a 404 unlike the documented one) is answered by the mock; a documented 404 is the backend's", async () => {
    const up = await upstream(partialBackend, '/api');
    const mock = await mockBefore(up.url);
    const listed = await fetch(`${mock.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(await listed.json()).toEqual(LIST);

    const created = await fetch(`${mock.url}/members/mbr_1/passes`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Made by the mock' }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: 'Made by the mock', member_id: 'mbr_1' });

    const missing = await fetch(`${mock.url}/members/mbr_1/passes/pas_01JD40C2M5K8H1G4F7E0D3C6B9`, { headers: AUTH });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual(NOT_FOUND);

    expect(mock.calls().map((c) => [c.operationId, c.answeredBy, c.fallback])).toEqual([
      ['listPasses', 'proxy', undefined],
      ['createPass', 'fallback', 'upstream answered 404'],
      ['getPass', 'proxy', undefined],
    ]);
  });

  test('501 falls back, as Prism does; fallback off passes every status on', async () => {
    const up = await upstream((_req, res) => res.writeHead(501, { 'content-type': 'text/plain' }).end('later'));
    const auto = await mockBefore(up.url);
    const mocked = await fetch(`${auto.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(mocked.status).toBe(200);
    expect(auto.calls()[0]).toMatchObject({ answeredBy: 'fallback', fallback: 'upstream answered 501' });

    const off = await mockBefore({ url: up.url, fallback: 'off' });
    const passed = await fetch(`${off.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(passed.status).toBe(501);
    expect(await passed.text()).toBe('later');
  });

  test('a list of statuses falls back on exactly those', async () => {
    const up = await upstream((_req, res) => res.writeHead(503, { 'content-type': 'text/plain' }).end('busy'));
    const listed = await mockBefore({ url: up.url, fallback: [503] });
    expect((await fetch(`${listed.url}/members/mbr_1/passes`, { headers: AUTH })).status).toBe(200);
    const auto = await mockBefore(up.url);
    expect((await fetch(`${auto.url}/members/mbr_1/passes`, { headers: AUTH })).status).toBe(503);
  });

  test('an upstream that is down: the mock answers; with fallback off, a 502 problem', async () => {
    const url = await deadUrl();
    const auto = await mockBefore(url);
    const mocked = await fetch(`${auto.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(mocked.status).toBe(200);
    expect(auto.calls()[0]!.fallback).toMatch(/^upstream unreachable: .*ECONNREFUSED/);

    const off = await mockBefore({ url, fallback: 'off' });
    const failed = await fetch(`${off.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ status: 502, type: expect.stringContaining('upstream-unreachable') });
  });

  test('an upstream slower than the timeout: its request is cut, the mock answers; with fallback off, a 504 problem', async () => {
    const up = await upstream(() => undefined); // never answers
    const auto = await mockBefore({ url: up.url, timeout: 200 });
    const mocked = await fetch(`${auto.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(mocked.status).toBe(200);
    expect(auto.calls()[0]!.fallback).toBe('upstream timeout: no answer within 200 ms');
    await up.received[0]!.aborted;

    const off = await mockBefore({ url: up.url, timeout: 200, fallback: 'off' });
    const failed = await fetch(`${off.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(failed.status).toBe(504);
  });

  test('mockOnly keeps operations on the mock; proxyOnly sends only those upstream', async () => {
    const up = await upstream(partialBackend, '/api');
    const mockOnly = await mockBefore({ url: up.url, mockOnly: ['listPasses'] });
    await fetch(`${mockOnly.url}/members/mbr_1/passes`, { headers: AUTH });
    await fetch(`${mockOnly.url}/members/mbr_1/passes/${PASS.id}`, { headers: AUTH });
    expect(up.received.map((r) => r.url)).toEqual([`/api/members/mbr_1/passes/${PASS.id}`]);
    expect(mockOnly.calls().map((c) => c.answeredBy)).toEqual(['mock', 'proxy']);

    const proxyOnly = await mockBefore({ url: up.url, proxyOnly: ['listPasses'] });
    await fetch(`${proxyOnly.url}/members/mbr_1/passes/${PASS.id}`, { headers: AUTH });
    await fetch(`${proxyOnly.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(proxyOnly.calls().map((c) => c.answeredBy)).toEqual(['mock', 'proxy']);
    expect(up.received).toHaveLength(2);
  });

  test('an override, Prefer and a failure fault still come first: the upstream never sees those calls', async () => {
    const up = await upstream(partialBackend, '/api');
    const mock = await mockBefore(up.url);
    mock.override({ operationId: 'listPasses', status: 500, times: 1 });
    expect((await fetch(`${mock.url}/members/mbr_1/passes`, { headers: AUTH })).status).toBe(500);
    expect((await fetch(`${mock.url}/members/mbr_1/passes`, { headers: { ...AUTH, Prefer: 'code=404' } })).status).toBe(
      404,
    );
    expect(up.received).toHaveLength(0);
    expect((await fetch(`${mock.url}/members/mbr_1/passes`, { headers: AUTH })).status).toBe(200);
    expect(mock.calls().map((c) => c.answeredBy)).toEqual(['override', 'prefer', 'proxy']);

    const failing = await mockBefore(up.url, { faults: { failureRate: 1 } });
    expect((await fetch(`${failing.url}/members/mbr_1/passes`, { headers: AUTH })).status).toBe(500);
    expect(failing.calls()[0]).toMatchObject({ fault: 'failure', answeredBy: 'mock' });
    expect(up.received).toHaveLength(1);
  });

  test("state beside a real backend: a record the backend created is not in the mock's state", async () => {
    const up = await upstream((_req, res) =>
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(PASS)),
    );
    const mock = await mockBefore({ url: up.url, proxyOnly: ['createPass'] });
    const created = await fetch(`${mock.url}/members/mbr_1/passes`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(((await created.json()) as { id: string }).id).toBe(PASS.id);
    // The mock answers the read from its own state, where the backend's record never went.
    const read = await fetch(`${mock.url}/members/mbr_1/passes/${PASS.id}`, { headers: AUTH });
    expect(read.status).toBe(404);
    const listed = (await (await fetch(`${mock.url}/members/mbr_1/passes`, { headers: AUTH })).json()) as {
      data: { id: string }[];
    };
    expect(listed.data.map((p) => p.id)).not.toContain(PASS.id);
  });
});

describe('answers in another charset', () => {
  test('a JSON answer in ISO-8859-1 is read in its charset: checked, and journaled whole', async () => {
    const named = { ...PASS, name: 'Café Gold' };
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=iso-8859-1' });
      res.end(Buffer.from(JSON.stringify({ data: [named], next_cursor: null }), 'latin1'));
    });
    const mock = await mockBefore(up.url);
    const answer = await rawRequest(mock.url, 'GET', '/members/mbr_1/passes', AUTH);
    expect(answer.body.toString('latin1')).toContain('Café Gold');
    const [call] = mock.calls();
    expect(call!.response.truncated).toBeUndefined();
    expect(call!.response.body).toEqual({ data: [named], next_cursor: null });
    expect(call!.responseViolations).toBeUndefined();
  });

  test('a JSON answer that breaks the contract in ISO-8859-1 is found out as in UTF-8', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=iso-8859-1' });
      const broken = { ...PASS, name: 'Café Gold', status: 'perdu' };
      res.end(Buffer.from(JSON.stringify({ data: [broken], next_cursor: null }), 'latin1'));
    });
    const mock = await mockBefore(up.url);
    await rawRequest(mock.url, 'GET', '/members/mbr_1/passes', AUTH);
    const [call] = mock.calls();
    expect(JSON.stringify(call!.responseViolations)).toMatch(/status/);
  });
});

describe('large bodies and stopping', () => {
  test('an answer larger than the check limit streams through whole; the journal keeps its start and its size', async () => {
    const item = JSON.stringify(PASS);
    const count = 20_000; // about 3.4 MB
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
      for (let i = 0; i < count; i++) res.write(i === 0 ? item : `,${item}`);
      res.end('],"next_cursor":null}');
    });
    const mock = await mockBefore(up.url, { journalBodyLimit: 1000 });
    const answer = await rawRequest(mock.url, 'GET', '/members/mbr_1/passes', AUTH);
    const whole = JSON.parse(answer.body.toString()) as { data: unknown[] };
    expect(whole.data).toHaveLength(count);
    const [call] = mock.calls();
    expect(call!.response.truncated).toEqual({ bytes: answer.body.length });
    expect(String(call!.response.body)).toHaveLength(1000);
  });

  test('close() cuts a proxied request in flight, and the upstream sees its request cut', async () => {
    const up = await upstream(() => undefined);
    const mock = await newServer({ proxy: { url: up.url, timeout: 60_000 } });
    const pending = fetch(`${mock.url}/members/mbr_1/passes`, { headers: AUTH }).catch((error: Error) => error);
    while (up.received.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const report = await mock.close({ grace: 50 });
    expect(report.cutOff).toBe(1);
    expect(await pending).toBeInstanceOf(Error);
    await up.received[0]!.aborted;
  });
});

describe("recording: the backend's answers kept for a run without it", () => {
  test('--record writes the proxied calls as HAR as they happen; imported into a mock with no backend, they answer alike', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'record-'));
    const file = join(dir, 'staging.har');
    const up = await upstream(partialBackend, '/api');
    const mock = await mockBefore(up.url, { record: file });
    await fetch(`${mock.url}/members/mbr_1/passes`, { headers: AUTH });
    await fetch(`${mock.url}/members/mbr_1/passes/${PASS.id}`, { headers: AUTH });
    await fetch(`${mock.url}/members/mbr_1/credentials`, { headers: AUTH }); // the backend lacks it: a fallback
    // Whole after every entry: read while the mock still runs.
    const har = JSON.parse(await readFile(file, 'utf8')) as { log: { entries: Record<string, unknown>[] } };
    expect(har.log.entries.map((e) => [e._operationId, e._answeredBy])).toEqual([
      ['listPasses', 'proxy'],
      ['getPass', 'proxy'],
    ]);
    expect(JSON.stringify(har)).not.toContain(AUTH.Authorization);

    const offline = await newServer();
    open.push(offline);
    expect(offline.importHar(har)).toMatchObject({ entries: 2, refusedCount: 0 });
    const listed = await fetch(`${offline.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(await listed.json()).toEqual(LIST);
    const read = await fetch(`${offline.url}/members/mbr_1/passes/${PASS.id}`, { headers: AUTH });
    expect(await read.json()).toEqual(PASS);
  });

  test('--record keeps a list page over the journal body limit whole; POST /__mock/har replays it whole', async () => {
    // 100 passes with long names: some 30 KiB of JSON, past the journal's 16 KiB on default flags.
    const passes = Array.from({ length: 100 }, (_, i) => ({
      ...PASS,
      id: `pas_01JD3Z6Q9V8X7W6T5S4R3P2N${String(i).padStart(2, '0')}`,
      name: `Gold pass number ${i} from the backend, with a name long enough to make a real list page large`,
    }));
    const page = JSON.stringify({ data: passes, next_cursor: null });
    expect(page.length).toBeGreaterThan(16_384);
    const up = await upstream(
      (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(page),
      '/api',
    );
    const dir = await mkdtemp(join(tmpdir(), 'record-'));
    const file = join(dir, 'staging.har');
    const mock = await mockBefore(up.url, { record: file });
    expect(await (await fetch(`${mock.url}/members/mbr_1/passes`, { headers: AUTH })).text()).toBe(page);
    // The journal still keeps its start only; the recording keeps it whole.
    expect(mock.calls()[0]!.response.truncated).toEqual({ bytes: page.length });
    const text = await readFile(file, 'utf8');
    const [entry] = (JSON.parse(text) as { log: { entries: { response: { content: Record<string, unknown> } }[] } }).log
      .entries;
    const { text: recorded, ...content } = entry!.response.content;
    expect(content).toEqual({ size: page.length, mimeType: 'application/json' });
    expect(recorded === page).toBe(true);

    const offline = await newServer();
    open.push(offline);
    const replayed = await fetch(`${offline.url}/__mock/har`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    });
    expect(await replayed.json()).toMatchObject({ entries: 1, refusedCount: 0 });
    const listed = await fetch(`${offline.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(await listed.text()).toBe(page);
  });

  test('--record keeps a request body over the journal body limit whole, and a binary answer whole as base64', async () => {
    const logo = Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7) % 256));
    const up = await upstream((req, res) => {
      if (req.url.endsWith('.png')) return void res.writeHead(200, { 'content-type': 'image/png' }).end(logo);
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(PASS));
    }, '/api');
    const dir = await mkdtemp(join(tmpdir(), 'record-'));
    const file = join(dir, 'staging.har');
    const mock = await mockBefore(up.url, { record: file });
    // Forwarded though it breaks the contract (no --errors): a client's large body, as sent.
    const sent = JSON.stringify({ name: 'Gold', valid_until: null, notes: 'n'.repeat(20_000) });
    const headers = { ...AUTH, 'content-type': 'application/json' };
    expect((await fetch(`${mock.url}/members/mbr_1/passes`, { method: 'POST', headers, body: sent })).status).toBe(201);
    const image = await fetch(`${mock.url}/static/logo.png`);
    expect(Buffer.from(await image.arrayBuffer()).equals(logo)).toBe(true);

    const text = await readFile(file, 'utf8');
    type Entry = { request: { postData?: Record<string, unknown> }; response: { content: Record<string, unknown> } };
    const [created, fetched] = (JSON.parse(text) as { log: { entries: Entry[] } }).log.entries;
    const { text: posted, ...postData } = created!.request.postData!;
    expect(postData).toEqual({ mimeType: 'application/json' });
    expect(posted === sent).toBe(true);
    const { text: base64, ...content } = fetched!.response.content;
    expect(content).toEqual({ size: logo.length, mimeType: 'image/png', encoding: 'base64' });
    expect(Buffer.from(String(base64), 'base64').equals(logo)).toBe(true);
    expect(text).not.toContain(AUTH.Authorization);
  });

  test('--record keeps the start of an answer past the 1 MiB the proxy holds, marked cut; its replay says why', async () => {
    const passes = Array.from({ length: 100 }, () => ({ ...PASS, name: 'x'.repeat(12_000) }));
    const page = JSON.stringify({ data: passes, next_cursor: null });
    expect(page.length).toBeGreaterThan(1024 * 1024);
    const up = await upstream(
      (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(page),
      '/api',
    );
    const dir = await mkdtemp(join(tmpdir(), 'record-'));
    const file = join(dir, 'staging.har');
    const mock = await mockBefore(up.url, { record: file });
    expect((await (await fetch(`${mock.url}/members/mbr_1/passes`, { headers: AUTH })).text()).length).toBe(
      page.length,
    );

    const har = JSON.parse(await readFile(file, 'utf8')) as {
      log: { entries: { response: { content: { text: string; _truncated?: unknown } } }[] };
    };
    const { content } = har.log.entries[0]!.response;
    expect(content._truncated).toEqual({ bytes: page.length });
    expect(page.startsWith(content.text)).toBe(true);
    const offline = await newServer();
    open.push(offline);
    expect(offline.importHar(har).refused[0]!.reasons).toEqual([
      `its body was cut when it was recorded (${page.length} bytes): --record keeps an answer whole up to 1 MiB, ` +
        'GET /__mock/calls.har up to --journal-body-limit',
    ]);
  });

  test('--record keeps a body passed through up to --body-limit whole, and marks a longer one cut', async () => {
    const up = await upstream((_req, res) => res.writeHead(204).end());
    const dir = await mkdtemp(join(tmpdir(), 'record-'));
    const file = join(dir, 'staging.har');
    const mock = await mockBefore(up.url, { record: file, bodyLimit: 32_768 });
    const [whole, long] = ['a'.repeat(20_000), 'b'.repeat(40_000)];
    for (const body of [whole, long])
      await fetch(`${mock.url}/uploads`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    expect(up.received.map((r) => r.body.length)).toEqual([20_000, 40_000]);
    expect(mock.calls().map((c) => c.truncated)).toEqual([{ bytes: 20_000 }, { bytes: 40_000 }]);

    type Entry = { request: { postData: { text: string; _truncated?: unknown } } };
    const entries = (JSON.parse(await readFile(file, 'utf8')) as { log: { entries: Entry[] } }).log.entries;
    const [first, second] = entries.map((e) => e.request.postData);
    expect(first!.text === whole && first!._truncated === undefined).toBe(true);
    expect(second!._truncated).toEqual({ bytes: 40_000 });
    expect(second!.text === long.slice(0, 32_768)).toBe(true);
  });

  test('a text body passed through and cut inside a character is kept as text, not as bytes', async () => {
    const up = await upstream((_req, res) => res.writeHead(204).end());
    const mock = await mockBefore(up.url, { bodyLimit: 32_768 });
    // Three bytes a character: 32,768 bytes end inside one.
    const body = '€'.repeat(12_000);
    await fetch(`${mock.url}/uploads`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    const [call] = mock.calls();
    expect(call).not.toHaveProperty('bodyEncoding');
    expect(call!.truncated).toEqual({ bytes: 36_000 });
    expect((call!.body as string).startsWith('€€€')).toBe(true);
    expect((call!.body as string).includes('\uFFFD')).toBe(false);
  });

  test('recordState keeps what the backend listed, so the mock serves it when the backend is gone', async () => {
    const up = await startUpstream(partialBackend, '/api');
    const mock = await mockBefore({ url: up.url, recordState: true });
    await fetch(`${mock.url}/members/mbr_1/passes`, { headers: AUTH });
    // Exactly what the backend listed: no placeholder the backend never had beside it.
    expect(mock.state().collections['/members/mbr_1/passes']).toEqual([PASS]);
    await up.close();
    const listed = await fetch(`${mock.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(await listed.json()).toEqual(LIST);
    const read = await fetch(`${mock.url}/members/mbr_1/passes/${PASS.id}`, { headers: AUTH });
    expect(await read.json()).toEqual(PASS);
    expect(mock.calls()[1]).toMatchObject({ answeredBy: 'fallback', fallback: expect.stringMatching(/unreachable/) });
  });

  test('recordState keeps a list the backend answered empty as empty, not as the placeholders', async () => {
    const up = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [], next_cursor: null }));
    }, '/api');
    const mock = await mockBefore({ url: up.url, recordState: true });
    expect(await (await fetch(`${mock.url}/members/mbr_2/passes`, { headers: AUTH })).json()).toEqual({
      data: [],
      next_cursor: null,
    });
    await up.close();
    const offline = await fetch(`${mock.url}/members/mbr_2/passes`, { headers: AUTH });
    expect(((await offline.json()) as { data: unknown[] }).data).toEqual([]);
  });

  test('recordState applies an update the backend answered 204 (no record) to the record it kept', async () => {
    const note = {
      id: 'n1',
      board_id: 'b1',
      title: 'Old',
      created_at: '2026-01-05T09:30:00Z',
      updated_at: '2026-01-05T09:30:00Z',
    };
    const up = await upstream((req, res) => {
      if (req.method === 'GET')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(note));
      res.writeHead(204).end();
    }, '/api');
    const contract = fileURLToPath(new URL('../fixtures/notes.openapi.yaml', import.meta.url));
    const mock = await mockBefore({ url: up.url, recordState: true }, { contract });
    expect((await fetch(`${mock.url}/boards/b1/notes/n1`)).status).toBe(200);
    const put = await fetch(`${mock.url}/boards/b1/notes/n1`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'New' }),
    });
    expect(put.status).toBe(204);
    const kept = mock.state().collections['/boards/b1/notes'] as { id: string }[];
    expect(kept.find((record) => record.id === 'n1')).toMatchObject({ title: 'New', created_at: note.created_at });
  });

  test("without recordState the backend's records stay out of the mock's state", async () => {
    const up = await upstream(partialBackend, '/api');
    const mock = await mockBefore(up.url);
    await fetch(`${mock.url}/members/mbr_1/passes`, { headers: AUTH });
    expect(mock.state().collections['/members/mbr_1/passes'] ?? []).not.toContainEqual(PASS);
  });
});

describe('who answered, wherever a call is shown', () => {
  test('the log line, coverage and the HAR export say proxy or fallback', async () => {
    const lines: string[] = [];
    const up = await upstream(partialBackend, '/api');
    const mock = await mockBefore(up.url, { log: 'pretty', logTo: (line) => void lines.push(line) });
    await fetch(`${mock.url}/members/mbr_1/passes`, { headers: AUTH });
    await fetch(`${mock.url}/members/mbr_1/credentials`, { headers: AUTH });
    expect(lines.filter((l) => l.startsWith('GET'))).toEqual([
      expect.stringMatching(/^GET \/members\/mbr_1\/passes listPasses 200 .* \[proxy\]$/),
      expect.stringMatching(/^GET \/members\/mbr_1\/credentials listCredentials 200 .* \[fallback\]$/),
    ]);
    const byOperation = Object.fromEntries(mock.coverage().operations.map((o) => [o.operationId, o.answeredBy]));
    expect(byOperation.listPasses).toEqual({ proxy: 1 });
    expect(byOperation.listCredentials).toEqual({ fallback: 1 });
    const har = (await (await fetch(`${mock.url}/__mock/calls.har`)).json()) as {
      log: { entries: Record<string, unknown>[] };
    };
    expect(har.log.entries.map((e) => [e._answeredBy, e._fallback])).toEqual([
      ['proxy', undefined],
      ['fallback', 'upstream answered 404'],
    ]);
  });
});

describe('https upstreams', () => {
  test('a certificate the system does not trust is refused: the mock answers instead, or a 502 with fallback off', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tls-'));
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const seen: string[] = [];
    const server = createHttpsServer({ key: await readFile(key), cert: await readFile(cert) }, (req, res) => {
      seen.push(req.url!);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(LIST));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise((resolve) => server.close(resolve)) });
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const auto = await mockBefore(url);
    expect((await fetch(`${auto.url}/members/mbr_1/passes`, { headers: AUTH })).status).toBe(200);
    expect(auto.calls()[0]!.fallback).toMatch(/^upstream unreachable: self[- ]signed certificate/);
    const off = await mockBefore({ url, fallback: 'off' });
    expect((await fetch(`${off.url}/members/mbr_1/passes`, { headers: AUTH })).status).toBe(502);
    expect(seen).toEqual([]);
  });
});

describe('options', () => {
  test('a misspelt operationId, a bad URL or both lists are refused at start', async () => {
    await expect(newServer({ proxy: { url: 'http://127.0.0.1:1', mockOnly: ['listPass'] } })).rejects.toThrow(
      /mockOnly: "listPass" is not an operationId of the contract\. Did you mean listPasses\?/,
    );
    await expect(newServer({ proxy: 'ftp://example.com' })).rejects.toThrow(/must be http or https/);
    await expect(newServer({ proxy: 'http://user:pw@example.com' })).rejects.toThrow(/may not hold credentials/);
    await expect(
      newServer({ proxy: { url: 'http://127.0.0.1:1', mockOnly: ['listPasses'], proxyOnly: ['getPass'] } }),
    ).rejects.toThrow(/not both/);
  });
});

/** A request by node:http, its answer's bytes as they came (fetch would decompress, and refuses a GET body). */
function rawRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const sent = httpRequest(`${base}${path}`, { method, headers: { ...headers, ...length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}
