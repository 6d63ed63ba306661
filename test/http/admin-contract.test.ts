// contracts/admin.openapi.yaml holds to the admin API it documents: its operations are the endpoints GET /__mock
// lists, and each one answers a valid request (and refuses a wrong body) with a status, media type and body the
// document describes. Only through HTTP, as a client sees the API: never through the admin code's internals.
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import request, { type Response } from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { createApp, DEFAULT_CONTRACT, loadContract, type Contract, type MockApp } from '../../mock/index.js';
import { createContractValidator } from '../support/contract-validator.js';

const ADMIN_CONTRACT = fileURLToPath(new URL('../../contracts/admin.openapi.yaml', import.meta.url));
const validator = createContractValidator(ADMIN_CONTRACT);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** The document's operations, by `METHOD /path` as it writes them. */
const documented = new Map<string, { operationId: string; takesBody: boolean }>();
const { paths } = parse(readFileSync(ADMIN_CONTRACT, 'utf8')) as { paths: Record<string, Record<string, any>> };
for (const [path, item] of Object.entries(paths))
  for (const method of METHODS.filter((m) => item[m]))
    documented.set(`${method.toUpperCase()} ${path}`, {
      operationId: item[method].operationId,
      takesBody: item[method].requestBody !== undefined,
    });

/** A path with its parameters' names left out: `/__mock/state/{collection path}` and `{collectionPath}` alike. */
const shape = (endpoint: string) => endpoint.replace(/\{[^}]*\}/g, '{}');

const AUTH = { Authorization: 'Bearer test-token' };
const A_PASS = 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M';

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract(DEFAULT_CONTRACT);
});

type App = MockApp['app'];

/** A request to the admin API; a change goes as JSON, as a client that no page forges sends it. */
function send(app: App, method: string, path: string, body?: unknown) {
  const req = request(app)[method.toLowerCase() as 'get'](path);
  if (method === 'GET') return req;
  return req.set('Content-Type', 'application/json').send(body === undefined ? '' : JSON.stringify(body));
}

/** A call of the contract, for the journal to hold. */
const listPasses = (app: App) => request(app).get('/members/m1/passes').set(AUTH).expect(200);

/** The id of a record added to a collection of the state. */
async function addPass(app: App): Promise<string> {
  const res = await send(app, 'POST', '/__mock/state/members/m1/passes', { status: 'active' }).expect(201);
  return res.body.id as string;
}

/**
 * The first event of the stream, read as it arrives: the stream never ends by itself, so the client leaves
 * once it has one. Its data is a call record, checked against the document's `Call` schema apart.
 */
function firstEvent(app: App) {
  return request(app)
    .get('/__mock/events')
    .buffer(true)
    .parse((res, done) => {
      // superagent types it as its Response; in Node it hands the parser the message itself.
      const stream = res as unknown as IncomingMessage;
      let text = '';
      stream.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (!text.includes('\n\n')) return;
        stream.destroy();
        done(null, text);
      });
    });
}

/** A request checked against the document: what it answers, and the body it sent (checked too). */
interface Exchange {
  status: number;
  run(app: App): Promise<{ res: Response; sent?: unknown }>;
}

const HAR = {
  log: {
    version: '1.2',
    creator: { name: 'a browser', version: '1' },
    entries: [
      {
        request: { method: 'GET', url: 'http://127.0.0.1:4010/members/m1/passes', headers: [], queryString: [] },
        response: {
          status: 200,
          headers: [],
          content: { mimeType: 'application/json', text: JSON.stringify({ data: [], next_cursor: null }) },
        },
      },
    ],
  },
};

/**
 * For each documented operation: a valid request, and for one that takes a body, one the document says is refused.
 * Each runs against a mock of its own.
 */
const exchanges: Record<string, { valid: Exchange; refused?: Exchange }> = {
  'GET /__mock': {
    valid: { status: 200, run: async (app) => ({ res: await send(app, 'GET', '/__mock') }) },
  },
  'GET /__mock/health': {
    valid: { status: 200, run: async (app) => ({ res: await send(app, 'GET', '/__mock/health') }) },
  },
  'GET /__mock/health/live': {
    valid: { status: 200, run: async (app) => ({ res: await send(app, 'GET', '/__mock/health/live') }) },
  },
  'GET /__mock/health/ready': {
    valid: { status: 200, run: async (app) => ({ res: await send(app, 'GET', '/__mock/health/ready') }) },
  },
  'GET /__mock/metrics': {
    valid: {
      status: 200,
      run: async (app) => {
        await listPasses(app);
        return { res: await send(app, 'GET', '/__mock/metrics') };
      },
    },
  },
  'GET /__mock/calls': {
    valid: {
      status: 200,
      run: async (app) => {
        await listPasses(app);
        await listPasses(app);
        return { res: await send(app, 'GET', '/__mock/calls?limit=1') };
      },
    },
  },
  'DELETE /__mock/calls': {
    valid: { status: 204, run: async (app) => ({ res: await send(app, 'DELETE', '/__mock/calls') }) },
  },
  'GET /__mock/calls.har': {
    valid: {
      status: 200,
      run: async (app) => {
        await listPasses(app);
        return { res: await send(app, 'GET', '/__mock/calls.har') };
      },
    },
  },
  'GET /__mock/calls/count': {
    valid: { status: 200, run: async (app) => ({ res: await send(app, 'GET', '/__mock/calls/count?method=GET') }) },
  },
  'GET /__mock/calls/wait': {
    valid: {
      status: 200,
      run: async (app) => {
        await listPasses(app);
        return { res: await send(app, 'GET', '/__mock/calls/wait?operationId=listPasses&timeout=2000') };
      },
    },
  },
  'POST /__mock/calls/wait': {
    valid: {
      status: 200,
      run: async (app) => {
        await listPasses(app);
        const sent = { match: { operationId: 'listPasses', pathParams: { member_id: 'm1' } }, timeout: 2000 };
        return { res: await send(app, 'POST', '/__mock/calls/wait', sent), sent };
      },
    },
    refused: {
      status: 400,
      run: async (app) => ({ res: await send(app, 'POST', '/__mock/calls/wait', { match: { params: {} } }) }),
    },
  },
  // The stream never ends: the client reads its first event and leaves (see firstEvent).
  'GET /__mock/events': {
    valid: {
      status: 200,
      run: async (app) => {
        await listPasses(app);
        return { res: await firstEvent(app) };
      },
    },
  },
  'GET /__mock/operations': {
    valid: { status: 200, run: async (app) => ({ res: await send(app, 'GET', '/__mock/operations') }) },
  },
  'POST /__mock/har': {
    valid: {
      status: 200,
      run: async (app) => ({ res: await send(app, 'POST', '/__mock/har?replay=last', HAR), sent: HAR }),
    },
    refused: { status: 400, run: async (app) => ({ res: await send(app, 'POST', '/__mock/har', { entries: [] }) }) },
  },
  'GET /__mock/coverage': {
    valid: {
      status: 200,
      run: async (app) => {
        await listPasses(app);
        return { res: await send(app, 'GET', '/__mock/coverage') };
      },
    },
  },
  'DELETE /__mock/coverage': {
    valid: { status: 204, run: async (app) => ({ res: await send(app, 'DELETE', '/__mock/coverage') }) },
  },
  'GET /__mock/pact': {
    valid: {
      status: 200,
      run: async (app) => {
        await listPasses(app);
        return { res: await send(app, 'GET', '/__mock/pact?consumer=web-app&provider=membership') };
      },
    },
  },
  'GET /__mock/state': {
    valid: {
      status: 200,
      run: async (app) => {
        await addPass(app);
        return { res: await send(app, 'GET', '/__mock/state') };
      },
    },
  },
  'PUT /__mock/state': {
    valid: {
      status: 200,
      run: async (app) => {
        const sent = { collections: { '/members/m1/passes': [{ name: 'Gold membership', status: 'suspended' }] } };
        return { res: await send(app, 'PUT', '/__mock/state', sent), sent };
      },
    },
    refused: {
      status: 422,
      run: async (app) => ({
        res: await send(app, 'PUT', '/__mock/state', { '/members/m1/passes': [{ status: 'retired' }] }),
      }),
    },
  },
  'GET /__mock/state/{collectionPath}': {
    valid: { status: 200, run: async (app) => ({ res: await send(app, 'GET', '/__mock/state/members/m1/passes') }) },
  },
  'POST /__mock/state/{collectionPath}': {
    valid: {
      status: 201,
      run: async (app) => {
        const sent = { name: 'Gold membership', status: 'suspended' };
        return { res: await send(app, 'POST', '/__mock/state/members/m1/passes', sent), sent };
      },
    },
    refused: {
      status: 422,
      run: async (app) => ({ res: await send(app, 'POST', '/__mock/state/members/m1/passes', { status: 'retired' }) }),
    },
  },
  'GET /__mock/state/{collectionPath}/{id}': {
    valid: {
      status: 200,
      run: async (app) => ({ res: await send(app, 'GET', `/__mock/state/members/m1/passes/${await addPass(app)}`) }),
    },
  },
  'PUT /__mock/state/{collectionPath}/{id}': {
    valid: {
      status: 201,
      run: async (app) => {
        const sent = { status: 'suspended' };
        return { res: await send(app, 'PUT', `/__mock/state/members/m1/passes/${A_PASS}`, sent), sent };
      },
    },
    refused: {
      status: 422,
      run: async (app) => ({
        res: await send(app, 'PUT', `/__mock/state/members/m1/passes/${A_PASS}`, { id: 'pas_other' }),
      }),
    },
  },
  'PATCH /__mock/state/{collectionPath}/{id}': {
    valid: {
      status: 200,
      run: async (app) => {
        const sent = { status: 'suspended' };
        const path = `/__mock/state/members/m1/passes/${await addPass(app)}`;
        return { res: await send(app, 'PATCH', path, sent), sent };
      },
    },
    refused: {
      status: 422,
      run: async (app) => {
        const path = `/__mock/state/members/m1/passes/${await addPass(app)}`;
        return { res: await send(app, 'PATCH', path, { status: 'retired' }) };
      },
    },
  },
  'DELETE /__mock/state/{collectionPath}/{id}': {
    valid: {
      status: 204,
      run: async (app) => ({
        res: await send(app, 'DELETE', `/__mock/state/members/m1/passes/${await addPass(app)}`),
      }),
    },
  },
  'GET /__mock/overrides': {
    valid: {
      status: 200,
      run: async (app) => {
        await send(app, 'POST', '/__mock/overrides', { operationId: 'getPass', status: 404 }).expect(201);
        return { res: await send(app, 'GET', '/__mock/overrides') };
      },
    },
  },
  'POST /__mock/overrides': {
    valid: {
      status: 201,
      run: async (app) => {
        const sent = { operationId: 'createPass', status: 500, times: 1 };
        return { res: await send(app, 'POST', '/__mock/overrides', sent), sent };
      },
    },
    refused: {
      status: 422,
      run: async (app) => ({
        res: await send(app, 'POST', '/__mock/overrides', { operationId: 'createPass', status: 299 }),
      }),
    },
  },
  'DELETE /__mock/overrides': {
    valid: { status: 204, run: async (app) => ({ res: await send(app, 'DELETE', '/__mock/overrides') }) },
  },
  'DELETE /__mock/overrides/{id}': {
    valid: {
      status: 204,
      run: async (app) => {
        const made = await send(app, 'POST', '/__mock/overrides', { operationId: 'getPass', status: 404 }).expect(201);
        return { res: await send(app, 'DELETE', `/__mock/overrides/${made.body.id as string}`) };
      },
    },
  },
  'GET /__mock/faults': {
    valid: { status: 200, run: async (app) => ({ res: await send(app, 'GET', '/__mock/faults') }) },
  },
  'PUT /__mock/faults': {
    valid: {
      status: 200,
      run: async (app) => {
        const sent = { latency: '100-300', failureRate: 0.1, dropRate: 0 };
        return { res: await send(app, 'PUT', '/__mock/faults', sent), sent };
      },
    },
    refused: {
      status: 400,
      run: async (app) => ({ res: await send(app, 'PUT', '/__mock/faults', { latency: [100, 300] }) }),
    },
  },
  'DELETE /__mock/faults': {
    valid: { status: 204, run: async (app) => ({ res: await send(app, 'DELETE', '/__mock/faults') }) },
  },
  'GET /__mock/sessions': {
    valid: {
      status: 200,
      run: async (app) => {
        await request(app)
          .get('/members/m1/passes')
          .set({ ...AUTH, 'X-Mock-Session': 'one' })
          .expect(200);
        return { res: await send(app, 'GET', '/__mock/sessions') };
      },
    },
  },
  'GET /__mock/sessions/{name}/join': {
    valid: {
      status: 303,
      run: async (app) => ({ res: await send(app, 'GET', '/__mock/sessions/w1/join?to=/passes') }),
    },
  },
  'GET /__mock/sessions/leave': {
    valid: { status: 303, run: async (app) => ({ res: await send(app, 'GET', '/__mock/sessions/leave') }) },
  },
  'POST /__mock/reset': {
    valid: { status: 204, run: async (app) => ({ res: await send(app, 'POST', '/__mock/reset') }) },
  },
  'GET /__mock/inspector/{file}': {
    valid: { status: 200, run: async (app) => ({ res: await send(app, 'GET', '/__mock/inspector/app.js') }) },
  },
};

/** What a response's body is to the document: JSON parsed, any other media type its text (none: undefined). */
function bodyOf(res: Response): unknown {
  if (/json/.test(res.headers['content-type'] ?? '') || typeof res.body === 'string') return res.body;
  return res.text || undefined;
}

/** Runs an exchange on a mock of its own and checks the answer (and the body sent) against the document. */
async function check(endpoint: string, exchange: Exchange): Promise<Response> {
  const { operationId } = documented.get(endpoint)!;
  const { res, sent } = await exchange.run(createApp(contract, { seed: 1 }).app);
  expect(res.status, `${endpoint}: ${res.text}`).toBe(exchange.status);
  expect(validator.check(operationId, res.status, res.headers['content-type'], bodyOf(res))).toEqual([]);
  if (sent !== undefined) expect(validator.checkRequest(operationId, 'application/json', sent)).toEqual([]);
  return res;
}

describe('contracts/admin.openapi.yaml', () => {
  test('documents exactly the endpoints GET /__mock lists, and the index itself', async () => {
    const res = await request(createApp(contract).app).get('/__mock').expect(200);
    const listed = (res.body.endpoints as { method: string; path: string }[]).flatMap(({ method, path }) =>
      method.split('|').map((one) => shape(`${one} ${path}`)),
    );
    expect(listed.length).toBeGreaterThan(20);
    expect([...documented.keys()].map(shape).sort()).toEqual(['GET /__mock', ...listed].sort());
  });

  test('has a request here for every operation it documents, and a refused one for each that takes a body', () => {
    expect(Object.keys(exchanges).sort()).toEqual([...documented.keys()].sort());
    const withBody = [...documented].filter(([, { takesBody }]) => takesBody).map(([endpoint]) => endpoint);
    expect(withBody.filter((endpoint) => !exchanges[endpoint]?.refused)).toEqual([]);
  });

  test.each(Object.entries(exchanges))('%s answers a valid request as documented', async (endpoint, { valid }) => {
    await check(endpoint, valid);
  });

  test.each(Object.entries(exchanges).filter(([, { refused }]) => refused))(
    '%s refuses a wrong body as documented',
    async (endpoint, { refused }) => {
      const res = await check(endpoint, refused!);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    },
  );

  test('the event stream sends each call as an event whose data is a documented Call', async () => {
    const app = createApp(contract).app;
    await listPasses(app);
    const res = await firstEvent(app);
    const data = /^data: (.*)$/m.exec(res.body as string)?.[1];
    expect(res.body).toMatch(/^id: call-1\nevent: call\n/);
    expect(validator.checkSchema('Call', JSON.parse(data!))).toEqual([]);
  });

  test('a record added answers with its Location, as documented', async () => {
    const res = await check(
      'POST /__mock/state/{collectionPath}',
      exchanges['POST /__mock/state/{collectionPath}']!.valid,
    );
    expect(res.headers.location).toBe(`/__mock/state/members/m1/passes/${res.body.id as string}`);
  });

  test('readiness answers the documented 503 once the mock closes', async () => {
    const mock = createApp(contract);
    mock.endStreams();
    const res = await request(mock.app).get('/__mock/health/ready').expect(503);
    expect(validator.check('getReadiness', 503, res.headers['content-type'], res.body)).toEqual([]);
  });

  test('behind a token, an endpoint answers the documented 401 without it', async () => {
    const app = createApp(contract, { admin: { token: 's3cret' } }).app;
    const res = await request(app).get('/__mock/calls').expect(401);
    expect(validator.check('listCalls', 401, res.headers['content-type'], res.body)).toEqual([]);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
  });
});
