// GET /__mock/metrics on a real socket: Prometheus's text format, behind the admin token, counting exactly the
// calls made, one registry per mock; the gauges read at the scrape; the proxy's outcomes; the store's errors.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT_CONTRACT, startMock, type RunningMock, type ServerOptions } from '../../mock/index.js';
import { AUTH, newServer } from '../support/harness.js';
import { histogramOf, readScrape, seriesOf, valueOf } from '../support/prometheus-text.js';
import { deadUrl, startUpstream } from '../support/upstream.js';
import { RedisServer } from '../support/redis-server.js';

const TOKEN = 'metrics-token';
const ADMIN = { Authorization: `Bearer ${TOKEN}` };
const REQUESTS = 'membership_mock_requests_total';
const LATENCY = 'membership_mock_request_duration_seconds';
const PROXY = 'membership_mock_proxy_requests_total';

const open: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

async function mockWith(options: ServerOptions = {}): Promise<RunningMock> {
  const mock = await newServer({ admin: { token: TOKEN }, log: 'off', ...options });
  open.push(mock);
  return mock;
}

async function scrape(mock: RunningMock) {
  const res = await fetch(`${mock.url}/__mock/metrics`, { headers: ADMIN });
  expect(res.status).toBe(200);
  return readScrape(await res.text());
}

const listPasses = (mock: RunningMock, headers: Record<string, string> = {}) =>
  fetch(`${mock.url}/members/m1/passes`, { headers: { ...AUTH, ...headers } });
const createPass = (mock: RunningMock, body: unknown) =>
  fetch(`${mock.url}/members/m1/passes`, {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('GET /__mock/metrics', () => {
  test('answers 401 without the admin token, and with it Prometheus text format 0.0.4', async () => {
    const mock = await mockWith();
    const refused = await fetch(`${mock.url}/__mock/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await refused.json()).toMatchObject({ type: 'https://example.com/problems/unauthorized' });

    const res = await fetch(`${mock.url}/__mock/metrics`, { headers: ADMIN });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const families = readScrape(await res.text());
    expect(Object.fromEntries([...families].map(([name, family]) => [name, family.type]))).toEqual({
      [REQUESTS]: 'counter',
      [LATENCY]: 'histogram',
      [PROXY]: 'counter',
      membership_mock_journal_bytes: 'gauge',
      membership_mock_journal_limit_bytes: 'gauge',
      membership_mock_state_records: 'gauge',
      membership_mock_sessions: 'gauge',
      membership_mock_store_errors_total: 'counter',
    });
  });

  test('counts exactly the calls made, by operation and status; the histogram counts each once', async () => {
    const mock = await mockWith();
    for (let i = 0; i < 3; i++) expect((await listPasses(mock)).status).toBe(200);
    expect((await createPass(mock, { kind: 5 })).status).toBe(422);
    expect((await fetch(`${mock.url}/nowhere`)).status).toBe(404);

    const families = await scrape(mock);
    expect(valueOf(families, REQUESTS, { operation: 'listPasses', status: '200' })).toBe(3);
    expect(valueOf(families, REQUESTS, { operation: 'createPass', status: '422' })).toBe(1);
    // A path no operation matches is counted without an operation.
    expect(valueOf(families, REQUESTS, { status: '404' })).toBe(1);
    expect(seriesOf(families, REQUESTS)).toHaveLength(3);
    const listed = histogramOf(families, LATENCY, { operation: 'listPasses' });
    expect(listed.count).toBe(3);
    expect(listed.buckets['+Inf']).toBe(3);
    expect(listed.sum).toBeGreaterThan(0);
    expect(histogramOf(families, LATENCY, { operation: 'createPass' }).count).toBe(1);
    // The admin API's own requests (the scrape among them) are not calls.
    const again = await scrape(mock);
    expect(valueOf(again, REQUESTS, { operation: 'listPasses', status: '200' })).toBe(3);
  });

  test('two mocks in one process keep their own counts', async () => {
    const first = await mockWith();
    const second = await mockWith();
    await listPasses(first);
    await listPasses(first);
    await listPasses(second);
    expect(valueOf(await scrape(first), REQUESTS, { operation: 'listPasses', status: '200' })).toBe(2);
    expect(valueOf(await scrape(second), REQUESTS, { operation: 'listPasses', status: '200' })).toBe(1);
  });

  test('the gauges are read at the scrape; a reset empties them, the counters keep counting', async () => {
    const mock = await mockWith();
    expect((await createPass(mock, { name: 'Gold' })).status).toBe(201);
    expect((await createPass(mock, { name: 'Silver' })).status).toBe(201);
    expect((await listPasses(mock, { 'X-Mock-Session': 'other' })).status).toBe(200);
    const health = (await (await fetch(`${mock.url}/__mock/health`, { headers: ADMIN })).json()) as {
      memory: { journal: number; journalLimit: number };
    };
    const families = await scrape(mock);
    expect(valueOf(families, 'membership_mock_state_records')).toBe(2);
    expect(valueOf(families, 'membership_mock_sessions')).toBe(2);
    expect(valueOf(families, 'membership_mock_journal_bytes')).toBe(health.memory.journal);
    expect(health.memory.journal).toBeGreaterThan(0);
    expect(valueOf(families, 'membership_mock_journal_limit_bytes')).toBe(health.memory.journalLimit);

    const reset = await fetch(`${mock.url}/__mock/reset`, { method: 'POST', headers: ADMIN });
    expect(reset.status).toBe(204);
    const after = await scrape(mock);
    expect(valueOf(after, 'membership_mock_state_records')).toBe(0);
    expect(valueOf(after, 'membership_mock_sessions')).toBe(1);
    expect(valueOf(after, 'membership_mock_journal_bytes')).toBe(0);
    expect(valueOf(after, REQUESTS, { operation: 'createPass', status: '201' })).toBe(2);
  });

  test('the proxy counts what it forwarded, where the mock fell back, and an upstream that failed', async () => {
    const up = await startUpstream((req, res) => {
      if (req.method === 'GET')
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: [], next_cursor: null }));
      res.writeHead(501, { 'content-type': 'text/plain' }).end('not here');
    });
    open.push(up);
    const mock = await mockWith({ proxy: up.url });
    expect((await listPasses(mock)).status).toBe(200);
    expect((await listPasses(mock)).status).toBe(200);
    expect((await createPass(mock, { name: 'Gold' })).status).toBe(201);
    const down = await mockWith({ proxy: { url: await deadUrl(), fallback: 'off' } });
    expect((await listPasses(down)).status).toBe(502);

    expect(mock.calls().map((c) => c.answeredBy)).toEqual(['proxy', 'proxy', 'fallback']);
    const families = await scrape(mock);
    expect(valueOf(families, PROXY, { outcome: 'forwarded' })).toBe(2);
    expect(valueOf(families, PROXY, { outcome: 'fallback' })).toBe(1);
    expect(valueOf(families, PROXY, { outcome: 'upstream_error' })).toBe(0);
    const failed = await scrape(down);
    expect(valueOf(failed, PROXY, { outcome: 'upstream_error' })).toBe(1);
    expect(seriesOf(failed, PROXY)).toHaveLength(1);
    expect(valueOf(failed, REQUESTS, { operation: 'listPasses', status: '502' })).toBe(1);
  });

  test("counts the changes a deleted state file refused, as the store's errors", async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'metrics-')), 'state.db');
    const mock = await mockWith({ stateFile: file });
    expect((await createPass(mock, { name: 'Kept' })).status).toBe(201);
    expect(valueOf(await scrape(mock), 'membership_mock_store_errors_total')).toBe(0);
    await rm(file);
    expect((await createPass(mock, { name: 'Refused' })).status).toBe(500);
    expect((await createPass(mock, { name: 'Refused too' })).status).toBe(500);
    const families = await scrape(mock);
    expect(valueOf(families, 'membership_mock_store_errors_total')).toBe(2);
    expect(valueOf(families, 'membership_mock_state_records')).toBe(1);
  });

  test('a mock of several APIs names the API of each call', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'metrics-apis-'));
    const catalog = join(dir, 'catalog.yaml');
    await writeFile(
      catalog,
      `openapi: 3.0.3
info: { title: Catalog, version: 1.0.0 }
paths:
  /items:
    get:
      operationId: listItems
      responses:
        '200': { description: items, content: { application/json: { schema: { type: array, items: { type: integer } } } } }
`,
    );
    const mock = await startMock({
      contracts: [
        { name: 'membership', contract: DEFAULT_CONTRACT },
        { name: 'catalog', contract: catalog, mount: '/catalog' },
      ],
      log: 'off',
    });
    open.push(mock);
    expect((await fetch(`${mock.url}/catalog/items`)).status).toBe(200);
    expect((await listPasses(mock)).status).toBe(200);
    const families = readScrape(await (await fetch(`${mock.url}/__mock/metrics`)).text());
    expect(valueOf(families, REQUESTS, { api: 'catalog', operation: 'listItems', status: '200' })).toBe(1);
    expect(valueOf(families, REQUESTS, { api: 'membership', operation: 'listPasses', status: '200' })).toBe(1);
    expect(histogramOf(families, LATENCY, { api: 'catalog', operation: 'listItems' }).count).toBe(1);
  });
});

describe('readScrape', () => {
  test.each([
    ['a word for a value', '# TYPE a counter\na line\n'],
    ['a sample of no family', 'a 1\n'],
    ['an unquoted label', '# TYPE a counter\na{b=c} 1\n'],
    ['no last line feed', '# TYPE a counter\na 1'],
    ['a label twice', '# TYPE a counter\na{b="1",b="2"} 1\n'],
  ])('refuses %s', (_, text) => {
    expect(() => readScrape(text)).toThrow();
  });

  test('reads the histograms of each label set apart, whatever the place of le', () => {
    const families = readScrape(
      '# TYPE h histogram\nh_bucket{le="0.1",op="a"} 1\nh_bucket{op="a",le="+Inf"} 2\nh_sum{op="a"} 0.3\n' +
        'h_count{op="a"} 2\nh_bucket{le="+Inf"} 1\nh_sum 0.1\nh_count 1\n',
    );
    expect(histogramOf(families, 'h', { op: 'a' })).toEqual({ count: 2, sum: 0.3, buckets: { '0.1': 1, '+Inf': 2 } });
    expect(histogramOf(families, 'h')).toEqual({ count: 1, sum: 0.1, buckets: { '+Inf': 1 } });
  });
});

describe('replicas sharing one Redis (--store)', () => {
  test("each counts the calls it served: one that served none shows none, though it holds the other's", async () => {
    const redis = await RedisServer.start();
    try {
      const store = `${redis.url}?prefix=metrics:`;
      const served = await mockWith({ redis: store });
      const idle = await mockWith({ redis: store });
      for (let i = 0; i < 5; i++) expect((await listPasses(served)).status).toBe(200);
      // A request to the idle one runs in a section: its journal then holds the five calls it did not serve.
      const counted = await fetch(`${idle.url}/__mock/calls/count`, { headers: ADMIN });
      expect(((await counted.json()) as { count: number }).count).toBe(5);
      expect(seriesOf(await scrape(idle), REQUESTS)).toEqual([]);
      expect(valueOf(await scrape(served), REQUESTS, { operation: 'listPasses', status: '200' })).toBe(5);
    } finally {
      await Promise.all(open.splice(0).map((o) => o.close()));
      await redis.stop();
    }
  }, 60_000);
});
