// Several APIs in one mock (`contracts`): each under its mount, one journal and one set of overrides for all.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { connectMock, DEFAULT_CONTRACT, startMock, type RunningMock, type ServerOptions } from '../../mock/index.js';
import { AUTH } from '../support/harness.js';
import { deadUrl, startUpstream, type Upstream } from '../support/upstream.js';

/** A small payments API; `items` gives it an operationId another API has too. */
const PAYMENTS = `openapi: 3.0.3
info: { title: Payments, version: 2.0.0 }
paths:
  /charges:
    post:
      operationId: createCharge
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, additionalProperties: false, required: [amount], properties: { amount: { type: integer, minimum: 1 } } }
      responses:
        '201':
          description: made
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Charge' }
        '402': { description: declined }
        '422': { description: bad }
    get:
      operationId: listCharges
      responses:
        '200':
          description: all
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Charge' } }
  /charges/{charge_id}:
    get:
      operationId: getCharge
      parameters: [{ name: charge_id, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: one
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Charge' }
        '404': { description: none }
  /items:
    get:
      operationId: listItems
      responses:
        '200': { description: items, content: { application/json: { schema: { type: array, items: { type: string } } } } }
components:
  schemas:
    Charge:
      type: object
      required: [id, amount]
      properties: { id: { type: string, minLength: 1 }, amount: { type: integer, minimum: 1 } }
`;
const CATALOG = `openapi: 3.0.3
info: { title: Catalog, version: 1.0.0 }
paths:
  /items:
    get:
      operationId: listItems
      responses:
        '200': { description: items, content: { application/json: { schema: { type: array, items: { type: integer } } } } }
`;

const started: RunningMock[] = [];
const upstreams: Upstream[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.close()));
  await Promise.all(upstreams.splice(0).map((up) => up.close()));
});

async function files(): Promise<{ payments: string; catalog: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'apis-'));
  const payments = join(dir, 'payments.yaml');
  const catalog = join(dir, 'catalog.yaml');
  await writeFile(payments, PAYMENTS);
  await writeFile(catalog, CATALOG);
  return { payments, catalog };
}

async function three(extra: ServerOptions = {}): Promise<RunningMock> {
  const { payments, catalog } = await files();
  const mock = await startMock({
    contracts: [
      { name: 'membership', contract: DEFAULT_CONTRACT },
      { name: 'payments', contract: payments, mount: '/payments' },
      { name: 'catalog', contract: catalog, mount: '/catalog' },
    ],
    ...extra,
  });
  started.push(mock);
  return mock;
}

describe('several APIs in one mock', () => {
  test('each is served under its mount, with its own state; one journal names the API of each call', async () => {
    const mock = await three();
    const created = await fetch(`${mock.url}/payments/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 5 }),
    });
    expect(created.status).toBe(201);
    const charge = (await created.json()) as { id: string };
    const read = await fetch(`${mock.url}/payments/charges/${charge.id}`);
    expect(await read.json()).toEqual({ id: charge.id, amount: 5 });
    expect((await fetch(`${mock.url}/members/m1/passes`, { headers: AUTH })).status).toBe(200);
    // Two APIs share a path at different mounts, and an operationId: each answers from its own contract.
    const strings = (await (await fetch(`${mock.url}/payments/items`)).json()) as unknown[];
    const numbers = (await (await fetch(`${mock.url}/catalog/items`)).json()) as unknown[];
    expect(strings.every((s) => typeof s === 'string')).toBe(true);
    expect(numbers.every((n) => typeof n === 'number')).toBe(true);
    expect((await fetch(`${mock.url}/items`)).status).toBe(404);

    expect(mock.calls().map((c) => [c.contract, c.operationId])).toEqual([
      ['payments', 'createCharge'],
      ['payments', 'getCharge'],
      ['membership', 'listPasses'],
      ['payments', 'payments:listItems'],
      ['catalog', 'catalog:listItems'],
      // No operation matched: the API whose mount the path is under, here the one at the root.
      ['membership', null],
    ]);
    expect(mock.calls({ contract: 'catalog' })).toHaveLength(1);
    expect(() => mock.calls({ contract: 'payment' })).toThrow(
      /"payment" is not an API of this mock\. Did you mean payments\?/,
    );
    // A bare operationId two APIs share names neither: the qualified one is plain.
    expect(() => mock.calls({ operationId: 'listItems' })).toThrow(
      /"listItems" is an operationId of several APIs: name one, payments:listItems or catalog:listItems\./,
    );
    expect(mock.calls({ operationId: 'catalog:listItems' })).toHaveLength(1);
  });

  test('routes that collide are refused at start, naming both operations and the path', async () => {
    const { payments, catalog } = await files();
    await expect(
      startMock({
        contracts: [
          { name: 'payments', contract: payments },
          { name: 'catalog', contract: catalog },
        ],
      }),
    ).rejects.toThrow(/Two APIs answer GET \/items: payments's listItems \(\/items\) and catalog's listItems/);
  });

  test('one API typed from its own operations: its ids as its contract names them; overrides reach it alone', async () => {
    const mock = await three();
    const payments = mock.api('payments');
    payments.override({ operationId: 'listItems', status: 200, body: ['overridden'], times: 1 });
    expect(await (await fetch(`${mock.url}/payments/items`)).json()).toEqual(['overridden']);
    expect(
      ((await (await fetch(`${mock.url}/catalog/items`)).json()) as unknown[]).every((n) => typeof n === 'number'),
    ).toBe(true);
    expect(payments.calls().map((c) => c.operationId)).toEqual(['listItems']);
    const waited = payments.waitForCall({ operationId: 'createCharge', body: { amount: 7 } }, { timeout: 2000 });
    await fetch(`${mock.url}/payments/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"amount":7}',
    });
    expect((await waited).operationId).toBe('createCharge');
    expect(() => payments.override({ operationId: 'listPasses', status: 500 })).toThrow(
      /"listPasses" is not an operationId/,
    );
    expect(() => mock.api('paymets')).toThrow(/Did you mean payments\?/);
  });

  test('coverage and the Pact per API, the Pact with the paths its provider serves', async () => {
    const mock = await three();
    await fetch(`${mock.url}/payments/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"amount":3}',
    });
    await fetch(`${mock.url}/members/m1/passes`, { headers: AUTH });
    const payments = mock.coverage('payments');
    expect(payments.contract).toEqual({ title: 'Payments', version: '2.0.0' });
    expect(payments.summary).toMatchObject({ operations: 4, called: 1, calls: 1 });
    expect(mock.coverage('membership').summary).toMatchObject({ operations: 7, called: 1, calls: 1 });
    expect(mock.coverage().summary).toMatchObject({ operations: 12, called: 2, calls: 2 });
    const pact = mock.mock.pact({ consumer: 'web', provider: 'payments', api: 'payments' });
    expect(pact.interactions.map((i) => `${i.request.method} ${i.request.path}`)).toEqual(['POST /charges']);
    const res = await fetch(`${mock.url}/__mock/coverage?api=catalogue`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/Did you mean catalog\?/);
  });
});

describe('several APIs through connectMock, as in process', () => {
  const charge = (url: string, amount: number) =>
    fetch(`${url}/payments/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount }),
    });

  test("pact({ api }) holds that API's interactions, with the paths its provider serves", async () => {
    const mock = await three();
    await charge(mock.url, 3);
    await fetch(`${mock.url}/members/m1/passes`, { headers: AUTH });
    const parties = { consumer: 'web', provider: 'payments', api: 'payments' };
    const pact = await connectMock(mock.url).pact(parties);
    expect(pact.interactions.map((i) => `${i.request.method} ${i.request.path}`)).toEqual(['POST /charges']);
    expect(pact).toEqual(mock.pact(parties));
  });

  test("coverage(api) counts that API's operations and calls alone", async () => {
    const mock = await three();
    await charge(mock.url, 3);
    await fetch(`${mock.url}/members/m1/passes`, { headers: AUTH });
    const payments = await connectMock(mock.url).coverage('payments');
    expect(payments.summary).toMatchObject({ operations: 4, called: 1, calls: 1 });
    expect(payments).toEqual(mock.coverage('payments'));
    await expect(connectMock(mock.url).coverage('catalogue')).rejects.toThrow(/Did you mean catalog\?/);
  });

  test("api(name) takes the API's ids as its contract names them: calls, waits and overrides reach it alone", async () => {
    const mock = await three();
    const payments = connectMock(mock.url).api('payments');
    expect(payments.name).toBe('payments');
    await payments.override({ operationId: 'listItems', status: 200, body: ['overridden'], times: 1 });
    expect(await (await fetch(`${mock.url}/payments/items`)).json()).toEqual(['overridden']);
    expect(((await (await fetch(`${mock.url}/catalog/items`)).json()) as unknown[]).every(Number.isInteger)).toBe(true);
    expect((await payments.calls()).map((c) => c.operationId)).toEqual(['listItems']);
    const waited = payments.waitForCall({ operationId: 'createCharge', body: { amount: 7 } }, { timeout: 2000 });
    await charge(mock.url, 7);
    expect((await waited).operationId).toBe('createCharge');
    await expect(payments.override({ operationId: 'listPasses', status: 500 })).rejects.toThrow(
      /"listPasses" is not an operationId/,
    );
  });

  test('api(name) of an API the mock does not serve rejects, naming the nearest', async () => {
    const mock = await three();
    await expect(connectMock(mock.url).api('paymets').calls()).rejects.toThrow(/Did you mean payments\?/);
  });
});

describe('each API with its own backend (contracts[].proxy)', () => {
  /** A payments backend under /api that answers every create with a charge, and 404 JSON elsewhere. */
  async function paymentsBackend(): Promise<Upstream> {
    const up = await startUpstream((req, res) => {
      if (req.method === 'POST' && req.url === '/api/charges')
        return res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"ch_real","amount":9}');
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such route"}');
    }, '/api');
    upstreams.push(up);
    return up;
  }

  test("an API's operations go to its backend without the mount; the other APIs are mocked", async () => {
    const up = await paymentsBackend();
    const { payments, catalog } = await files();
    const proxied = await startMock({
      contracts: [
        { name: 'membership', contract: DEFAULT_CONTRACT },
        {
          name: 'payments',
          contract: payments,
          mount: '/payments',
          // The API's own operationId, though the mock qualifies it (catalog has a listItems too).
          proxy: { url: up.url, mockOnly: ['listItems'], headers: { 'X-Api-Key': 'k1' } },
        },
        { name: 'catalog', contract: catalog, mount: '/catalog' },
      ],
    });
    started.push(proxied);
    const created = await fetch(`${proxied.url}/payments/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"amount":9}',
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ id: 'ch_real', amount: 9 });
    expect((await fetch(`${proxied.url}/payments/items`)).status).toBe(200);
    expect((await fetch(`${proxied.url}/catalog/items`)).status).toBe(200);
    expect((await fetch(`${proxied.url}/members/m1/passes`, { headers: AUTH })).status).toBe(200);
    // Only the proxied operation reached the backend, at its own path under the backend's, with its header.
    expect(up.received.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /api/charges']);
    expect(up.received[0]!.headers['x-api-key']).toBe('k1');
    expect(proxied.calls().map((c) => [c.contract, c.operationId, c.answeredBy])).toEqual([
      ['payments', 'createCharge', 'proxy'],
      ['payments', 'payments:listItems', 'mock'],
      ['catalog', 'catalog:listItems', 'mock'],
      ['membership', 'listPasses', 'mock'],
    ]);
  });

  test('a path no operation matches goes to the backend of the API whose mount it is under', async () => {
    const up = await paymentsBackend();
    const { payments } = await files();
    const mock = await startMock({
      contracts: [
        { name: 'membership', contract: DEFAULT_CONTRACT },
        { name: 'payments', contract: payments, mount: '/payments', proxy: up.url },
      ],
    });
    started.push(mock);
    const res = await fetch(`${mock.url}/payments/refunds?limit=2`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'no such route' });
    // Under the membership API's paths, nothing goes upstream: it has no backend.
    expect((await fetch(`${mock.url}/nowhere`)).status).toBe(404);
    expect(up.received.map((r) => r.url)).toEqual(['/api/refunds?limit=2']);
  });

  test('a mount written percent-encoded is taken off too before forwarding, as the router reads it', async () => {
    const up = await paymentsBackend();
    const { payments } = await files();
    const mock = await startMock({
      contracts: [
        { name: 'membership', contract: DEFAULT_CONTRACT },
        { name: 'payments', contract: payments, mount: '/payments', proxy: up.url },
      ],
    });
    started.push(mock);
    const created = await fetch(`${mock.url}/p%61yments/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"amount":9}',
    });
    expect(created.status).toBe(201);
    expect((await fetch(`${mock.url}/p%61yments/refunds`)).status).toBe(404);
    expect(up.received.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /api/charges', 'GET /api/refunds']);
  });

  test('a backend that gives no answer: the 502 names where the request went (its base path hidden), not the mock’s path', async () => {
    const url = `${await deadUrl()}/api`;
    const { payments } = await files();
    const mock = await startMock({
      contracts: [
        { name: 'membership', contract: DEFAULT_CONTRACT },
        { name: 'payments', contract: payments, mount: '/payments', proxy: { url, fallback: 'off' } },
      ],
    });
    started.push(mock);
    const failed = await fetch(`${mock.url}/payments/charges?expand=all`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"amount":9}',
    });
    expect(failed.status).toBe(502);
    const { detail, instance } = (await failed.json()) as { detail: string; instance: string };
    const shown = `${new URL(url).origin}/…/charges`;
    expect(detail.startsWith(`The upstream gave no answer to POST ${shown} (for /payments/charges): `)).toBe(true);
    expect(detail).not.toContain('/api');
    expect(instance).toBe('/payments/charges');
  });

  test('two backends for one API, or the whole mock’s backend naming an operation of an API with its own, are refused', async () => {
    const { payments } = await files();
    const membership = { name: 'membership', contract: DEFAULT_CONTRACT };
    const mounted = { name: 'payments', contract: payments, mount: '/payments', proxy: 'http://127.0.0.1:9' };
    await expect(
      startMock({ contracts: [membership, mounted], proxies: { payments: 'http://127.0.0.1:10' } }),
    ).rejects.toThrow(/payments has a backend in its contracts entry and another in proxies: give one\./);
    await expect(
      startMock({
        contracts: [membership, mounted],
        proxy: { url: 'http://127.0.0.1:11', mockOnly: ['listPasses', 'createCharge'] },
      }),
    ).rejects.toThrow(
      /proxy\.mockOnly: createCharge is an operation of payments, which has its own backend: name it in that backend's mockOnly\./,
    );
  });

  test('an API mounted under the admin API’s /__mock is refused: none of its requests could reach it', async () => {
    const { payments } = await files();
    for (const mount of ['/__mock', '/__mock/payments', '/__mock/'])
      await expect(
        startMock({
          contracts: [
            { name: 'membership', contract: DEFAULT_CONTRACT },
            { name: 'payments', contract: payments, mount },
          ],
        }),
      ).rejects.toThrow(/The mount "\/__mock\/?(payments)?" is the admin API's \(\/__mock\): mount payments elsewhere/);
  });

  test('a backend for an API the mock does not serve, or a misspelt operationId of its own, is refused', async () => {
    const { payments } = await files();
    const contracts = [
      { name: 'membership', contract: DEFAULT_CONTRACT },
      { name: 'payments', contract: payments, mount: '/payments' },
    ];
    await expect(startMock({ contracts, proxies: { paymnts: 'http://127.0.0.1:9' } })).rejects.toThrow(
      /proxies: "paymnts" is not an API of this mock\. Did you mean payments\?/,
    );
    await expect(
      startMock({
        contracts: [
          contracts[0]!,
          { ...contracts[1]!, proxy: { url: 'http://127.0.0.1:9', mockOnly: ['getCharges'] } },
        ],
      }),
    ).rejects.toThrow(/The backend of payments: .*getCharges.*getCharge/);
  });
});
