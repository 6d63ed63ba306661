import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import type { RunningMock } from '../../mock/index.js';
import { formatReport, verifyProvider, type VerifyReport } from '../../mock/verify/verify-provider.js';
import { AUTH, newServer } from '../support/harness.js';

const SEED = 7;
const OPERATION_IDS = [
  'listPasses',
  'createPass',
  'getPass',
  'deletePass',
  'listCredentials',
  'createCredential',
  'deleteCredential',
];

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function startMockProvider(): Promise<RunningMock> {
  const mock = await newServer({ seed: 3 });
  cleanups.push(async () => void (await mock.close()));
  return mock;
}

/** A plain node:http server on a free port; closed after the test. */
async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler).listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(async () => {
    server.closeAllConnections();
    if (server.listening) await new Promise((resolve) => server.close(resolve));
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const PASS = {
  id: 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M',
  member_id: 'verify_1',
  name: 'Gold membership',
  status: 'active',
  valid_from: '2026-01-05T09:30:00Z',
  valid_until: null,
  created_at: '2026-01-05T09:30:00Z',
};
const CREDENTIAL = {
  id: 'crd_01JD3Z9Z8Y7X6W5V4T3S2R1Q0P',
  member_id: 'verify_1',
  kind: 'pin',
  label: null,
  created_at: '2026-01-05T09:31:00Z',
  last_used_at: null,
};

/** A provider that gets something wrong on almost every operation. */
function wrongProvider(): (req: IncomingMessage, res: ServerResponse) => void {
  let passDeleted = false;
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  return (req, res) => {
    req.resume();
    const shown = (req.url ?? '').replace(/\/members\/[^/]+/, '/m').replace(/\/(pas|crd)_\w+$/, '/:id');
    const route = `${req.method} ${shown}`;
    if (route === 'POST /m/passes') return json(res, 200, { ...PASS, extra: true });
    if (route === 'GET /m/passes') return json(res, 200, { data: 'oops' });
    if (route === 'GET /m/passes/:id' && passDeleted)
      return res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>still here</p>');
    if (route === 'GET /m/passes/:id') return json(res, 200, { ...PASS, name: 'Another name' });
    if (route === 'DELETE /m/passes/:id') {
      passDeleted = true;
      return res.writeHead(204).end();
    }
    if (route === 'POST /m/credentials') return json(res, 201, CREDENTIAL);
    if (route === 'GET /m/credentials') return json(res, 200, { data: [], next_cursor: null });
    if (route === 'DELETE /m/credentials/:id')
      return res.writeHead(418, { 'Content-Type': 'text/plain' }).end("I'm a teapot");
    return res.writeHead(404).end();
  };
}

function violationsOf(report: VerifyReport, operationId: string): string[][] {
  return report.steps.filter((s) => s.operationId === operationId).map((s) => s.violations);
}

describe('verifyProvider against our own mock', () => {
  test('finds no violation and walks all seven operations', async () => {
    const mock = await startMockProvider();
    const report = await verifyProvider({ baseUrl: mock.url, headers: AUTH, seed: SEED });
    expect(report.violations, formatReport(report)).toBe(0);
    expect(new Set(report.steps.map((s) => s.operationId))).toEqual(new Set(OPERATION_IDS));
    expect(report.requests).toBe(report.steps.length);
    expect(report.skipped).toEqual([]);
  });

  test('walks each collection in order: create, list, read, delete, read again', async () => {
    const mock = await startMockProvider();
    const report = await verifyProvider({ baseUrl: mock.url, headers: AUTH, seed: SEED });
    expect(report.steps.map((s) => `${s.operationId} ${s.status}`)).toEqual([
      'createPass 201',
      'listPasses 200',
      'getPass 200',
      'deletePass 204',
      'getPass 404',
      'createCredential 201',
      'listCredentials 200',
      'deleteCredential 204',
    ]);
    const [create, , read] = report.steps;
    expect(create?.path).toMatch(/^\/members\/verify_[a-z0-9]+\/passes$/);
    expect(read?.path).toMatch(/^\/members\/verify_[a-z0-9]+\/passes\/pas_[0-9A-Z]{26}$/);
  });

  test('walks a collection’s updates on the record it created, between the read and the delete', async () => {
    const contract = fileURLToPath(new URL('../fixtures/notes.openapi.yaml', import.meta.url));
    const mock = await newServer({ contract });
    cleanups.push(async () => void (await mock.close()));
    const report = await verifyProvider({ baseUrl: mock.url, contract, seed: SEED });
    expect(report.violations, formatReport(report)).toBe(0);
    // The PATCH's generated body may set the title `null`: the mock then refuses it with its documented 422.
    expect(report.steps.map((s) => `${s.operationId} ${s.operationId === 'updateNote' ? 'done' : s.status}`)).toEqual([
      // The boards' walk leaves the notes' item operations below /boards/{boardId}/ to the notes' own.
      'createBoard 201',
      'listBoards 200',
      'getBoard 200',
      'createNote 201',
      'listNotes 200',
      'getNote 200',
      'replaceNote 204',
      'updateNote done',
      'deleteNote 204',
      'getNote 404',
    ]);
    const [, , read, replace, update] = report.steps.slice(3);
    expect(read?.path).toMatch(/^\/boards\/[^/]+\/notes\/[^/]+$/);
    expect([replace?.path, update?.path]).toEqual([read?.path, read?.path]);
  });

  test('sends the same requests for the same seed', async () => {
    const mock = await startMockProvider();
    const first = await verifyProvider({ baseUrl: mock.url, headers: AUTH, seed: SEED });
    const second = await verifyProvider({ baseUrl: mock.url, headers: AUTH, seed: SEED });
    const creates = mock.calls({ method: 'POST' }).map((call) => [call.path, call.body]);
    expect(creates).toHaveLength(4);
    expect(creates.slice(2)).toEqual(creates.slice(0, 2));
    expect(second.steps[0]?.path).toBe(first.steps[0]?.path);
  });

  test('uses the params given instead of made-up values', async () => {
    const mock = await startMockProvider();
    const report = await verifyProvider({
      baseUrl: mock.url,
      headers: AUTH,
      seed: SEED,
      params: { member_id: 'mbr_42' },
    });
    expect(report.violations, formatReport(report)).toBe(0);
    expect(report.steps.every((s) => s.path.startsWith('/members/mbr_42/'))).toBe(true);
  });

  test('reports the 401s of a provider called without credentials', async () => {
    const mock = await startMockProvider();
    const report = await verifyProvider({ baseUrl: mock.url, seed: SEED });
    expect(violationsOf(report, 'createPass')).toEqual([['expected a success (201), got 401']]);
    expect(violationsOf(report, 'listCredentials')).toEqual([['expected a success (200), got 401']]);
  });
});

describe('verifyProvider against a provider that breaks the contract', () => {
  test('names every violation of every step', async () => {
    const { url } = await listen(wrongProvider());
    const report = await verifyProvider({ baseUrl: url, seed: SEED });
    expect(violationsOf(report, 'createPass')).toEqual([
      ['status 200 is not documented (documented: 201, 400, 401, 403, 404, 406, 413, 415, 422, 429, 500, 507)'],
    ]);
    expect(violationsOf(report, 'listPasses')).toEqual([
      ["body /next_cursor: must have required property 'next_cursor'", 'body /data: must be array'],
    ]);
    expect(violationsOf(report, 'getPass')).toEqual([
      ['read record differs from the created record at /name, /extra'],
      [
        'media type "text/html" is not documented for 200 (documented: application/json)',
        'body /: must be object',
        'expected 404 after delete, got 200',
      ],
    ]);
    expect(violationsOf(report, 'deletePass')).toEqual([[]]);
    expect(violationsOf(report, 'createCredential')).toEqual([[]]);
    expect(violationsOf(report, 'listCredentials')).toEqual([
      ['created record is not in the list (id crd_01JD3Z9Z8Y7X6W5V4T3S2R1Q0P, first page only)'],
    ]);
    expect(violationsOf(report, 'deleteCredential')).toEqual([
      [
        'status 418 is not documented (documented: 204, 400, 401, 403, 404, 406, 429, 500, 507)',
        'expected a success (204), got 418',
      ],
    ]);
    expect(report.violations).toBe(10);
  });

  test('formatReport marks the failed steps and lists their violations under them', async () => {
    const { url } = await listen(wrongProvider());
    const text = formatReport(await verifyProvider({ baseUrl: url, seed: SEED }));
    const failed = /^✗ POST {3}\/members\/verify_\w+\/passes +200 createPass\n {4}status 200 is not documented/m;
    expect(text).toMatch(failed);
    expect(text).toMatch(/^✓ DELETE \/members\/verify_\w+\/passes\/pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M +204 deletePass$/m);
    expect(text).toContain('\n    expected 404 after delete, got 200\n');
    expect(text).toMatch(
      /deleteCredential\n {4}status 418 is not documented .*\n {4}expected a success \(204\), got 418\n/,
    );
    expect(text.split('\n').at(-1)).toBe('7 operations, 8 requests, 10 violations');
  });
});

describe('verifyProvider when the provider does not answer', () => {
  test('reports a refused connection as a violation of each step instead of throwing', async () => {
    const { server, url } = await listen(() => undefined);
    await new Promise((resolve) => server.close(resolve));
    const report = await verifyProvider({ baseUrl: url, seed: SEED });
    expect(report.requests).toBeGreaterThan(0);
    expect(report.violations).toBe(report.requests);
    for (const step of report.steps) {
      expect(step.status).toBeNull();
      expect(step.violations).toEqual([expect.stringMatching(/^no answer: .*ECONNREFUSED/)]);
    }
  });

  test('reports a provider that stays silent past the timeout', async () => {
    const { url } = await listen(() => undefined);
    const report = await verifyProvider({ baseUrl: url, seed: SEED, timeoutMs: 100 });
    expect(report.steps.map((s) => s.violations)).toEqual(report.steps.map(() => ['no answer within 100 ms']));
    expect(formatReport(report)).toMatch(
      /^✗ POST +\/members\/verify_\w+\/passes +--- createPass\n {4}no answer within 100 ms$/m,
    );
  });

  test('stops reading an answer past 8 MiB and reports it, rather than holding it all', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const { url } = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Without end: the reader must stop by itself.
      const more = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    const report = await verifyProvider({ baseUrl: url, seed: SEED, timeoutMs: 20_000 });
    expect(report.steps[0]!.violations).toEqual([
      'the answer is larger than 8 MiB: it was not read whole, nor checked',
    ]);
  });

  test('refuses a base URL that is not an http(s) URL', async () => {
    await expect(verifyProvider({ baseUrl: 'localhost:4010' })).rejects.toThrow(
      'The base URL "localhost:4010" is not an http(s) URL.',
    );
  });
});

describe('formatReport', () => {
  const report: VerifyReport = {
    steps: [
      { operationId: 'createPass', method: 'POST', path: '/members/m1/passes', status: 201, violations: [] },
      {
        operationId: 'listPasses',
        method: 'GET',
        path: '/members/m1/passes',
        status: 200,
        violations: ['body /data: must be array', 'created record is not in the list (id pas_1, first page only)'],
      },
      {
        operationId: 'deletePass',
        method: 'DELETE',
        path: '/members/m1/passes/pas_1',
        status: null,
        violations: ['no answer within 10000 ms'],
      },
    ],
    violations: 3,
    requests: 3,
    skipped: [],
  };

  test('writes one aligned line per step, its violations indented under it, and a summary', () => {
    expect(formatReport(report)).toBe(
      [
        '✓ POST   /members/m1/passes       201 createPass',
        '✗ GET    /members/m1/passes       200 listPasses',
        '    body /data: must be array',
        '    created record is not in the list (id pas_1, first page only)',
        '✗ DELETE /members/m1/passes/pas_1 --- deletePass',
        '    no answer within 10000 ms',
        '3 operations, 3 requests, 3 violations',
      ].join('\n'),
    );
  });

  test('lists skipped operations and counts in the singular', () => {
    const one: VerifyReport = {
      steps: [report.steps[0]!],
      violations: 0,
      requests: 1,
      skipped: [{ operationId: 'uploadPhoto', reason: 'needs a multipart/form-data body, which verify cannot make' }],
    };
    expect(formatReport(one)).toBe(
      [
        '✓ POST /members/m1/passes 201 createPass',
        '- uploadPhoto skipped: needs a multipart/form-data body, which verify cannot make',
        '1 operation, 1 request, 0 violations, 1 skipped',
      ].join('\n'),
    );
  });
});
