import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import request from 'supertest';
import { describe, expect, test, vi } from 'vitest';
import {
  checkCoverage,
  coverageJunit,
  coverageMarkdown,
  coverageSummary,
  mockGlobalSetup,
  type Coverage,
  type OperationCoverage,
} from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';
import { AUTH, newMock } from '../support/harness.js';

const of = (coverage: Coverage, operationId: string): OperationCoverage =>
  coverage.operations.find((o) => o.operationId === operationId)!;

/** An operation with object query parameters: one deepObject, one form exploded (its properties sent alone). */
const OBJECT_QUERY = `openapi: 3.0.3
info: { title: Q, version: '1' }
paths:
  /search:
    get:
      operationId: search
      parameters:
        - { name: filter, in: query, style: deepObject, explode: true, schema: { type: object, properties: { a: { type: string } } } }
        - name: page
          in: query
          schema: { type: object, properties: { size: { type: integer }, number: { type: integer } } }
        - { name: q, in: query, schema: { type: string } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object } } } }
`;

/** A drop and a 200 of listPasses, a call that breaks createCredential, and one of no operation. */
async function mixed(): Promise<Coverage> {
  const mock = await newMock();
  mock.override({ operationId: 'listPasses', fault: 'drop', times: 1 });
  await request(mock.app)
    .get('/members/m1/passes')
    .set(AUTH)
    .catch(() => undefined);
  await request(mock.app).get('/members/m1/passes?limit=2').set(AUTH).expect(200);
  await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'password' });
  await request(mock.app).get('/nowhere').set(AUTH);
  return mock.coverage();
}

describe('coverage of the contract by the calls made', () => {
  test('before any call, no operation is called and every documented status is unseen', async () => {
    const mock = await newMock();
    const coverage = mock.coverage();
    expect(coverage.summary).toMatchObject({ operations: 7, called: 0, statusesSeen: 0, calls: 0 });
    expect(coverage.summary.statuses).toBe(coverage.operations.reduce((n, o) => n + o.statuses.documented.length, 0));
    for (const operation of coverage.operations)
      expect(operation.statuses.unseen).toEqual(operation.statuses.documented);
  });

  test('counts the statuses seen, and leaves the others unseen', async () => {
    const mock = await newMock();
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    await request(mock.app).get('/members/m1/passes').expect(401);
    const list = of(mock.coverage(), 'listPasses');
    expect(list.calls).toBe(2);
    expect(list.statuses.seen).toEqual({ '200': 1, '401': 1 });
    expect(list.statuses.unseen).toEqual(list.statuses.documented.filter((c) => c !== '200' && c !== '401'));
    expect(mock.coverage().summary).toMatchObject({ called: 1, statusesSeen: 2, calls: 2 });
  });

  test('lists the query parameters and body fields sent, and those never sent', async () => {
    const mock = await newMock();
    await request(mock.app).get('/members/m1/passes?limit=5').set(AUTH).expect(200);
    await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'pin' }).expect(201);
    const coverage = mock.coverage();
    expect(of(coverage, 'listPasses').query).toEqual({ sent: ['limit'], never: ['cursor'] });
    expect(of(coverage, 'createCredential').body).toEqual({ sent: ['kind'], never: ['label'] });
    expect(of(coverage, 'getPass').body).toEqual({ sent: [], never: [] });
  });

  test.each([
    ['a deepObject parameter, by a key of its own (filter[a]=x)', '/search?filter[a]=x', ['filter'], ['page', 'q']],
    ['a form object exploded, by a property arriving alone (size=10)', '/search?size=10', ['page'], ['filter', 'q']],
    ['a plain parameter beside them, by its name', '/search?q=x', ['q'], ['filter', 'page']],
  ])('counts %s as sent', async (_, path, sent, never) => {
    const mock = await newMock({ contract: await inlineContract(OBJECT_QUERY) });
    await request(mock.app).get(path).expect(200);
    expect(of(mock.coverage(), 'search').query).toEqual({ sent, never });
  });

  test('names declared must be sent to count: undeclared ones never hide a field never sent', async () => {
    const mock = await newMock();
    const send = (body: object) => request(mock.app).post('/members/m1/passes').set(AUTH).send(body);
    await send({ name: 'a', bogus: 1, other: 2 });
    await send({ valid_from: '2026-01-01T00:00:00Z' });
    await request(mock.app).get('/members/m1/passes?whatever=1').set(AUTH);
    const coverage = mock.coverage();
    expect(of(coverage, 'createPass').body).toEqual({ sent: ['name', 'valid_from'], never: ['valid_until'] });
    expect(of(coverage, 'listPasses').query).toEqual({ sent: [], never: ['limit', 'cursor'] });
  });

  test('names the calls that broke the contract', async () => {
    const mock = await newMock();
    await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'password' });
    const create = of(mock.coverage(), 'createCredential');
    expect(create.violationCount).toBe(1);
    expect(create.violations).toEqual([
      { callId: expect.stringMatching(/^call-\d+$/), messages: [expect.stringMatching(/^body \/kind: /)] },
    ]);
    expect(mock.coverage().summary.callsWithViolations).toBe(1);
  });

  test('an answer under a range or default covers that code', async () => {
    const file = await inlineContract(`openapi: 3.0.3
info: { title: ranges, version: '1' }
paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object } } } }
        '4XX': { description: refused, content: { application/json: { schema: { type: object } } } }
        default: { description: other, content: { application/json: { schema: { type: object } } } }
`);
    const mock = await newMock({ contract: file });
    mock.override({ operationId: 'getThing', status: 404, times: 1 });
    await request(mock.app).get('/things/a').expect(404);
    expect(of(mock.coverage(), 'getThing').statuses).toEqual({
      documented: ['200', '4XX', 'default'],
      seen: { '404': 1 },
      unseen: ['200', 'default'],
    });
  });

  test('a dropped call is seen as "0" and covers no documented status', async () => {
    const list = of(await mixed(), 'listPasses');
    expect(list.statuses.seen).toEqual({ '0': 1, '200': 1 });
    expect(list.statuses.unseen).toEqual(list.statuses.documented.filter((code) => code !== '200'));
  });

  test('counts the calls of every session, and keeps them through resets and past the journal bound', async () => {
    const mock = await newMock({ journalLimit: 1 });
    await request(mock.app).get('/members/m1/passes').set(AUTH).set('X-Mock-Session', 'a').expect(200);
    await request(mock.app).get('/members/m1/credentials').set(AUTH).expect(200);
    await request(mock.app).post('/__mock/reset').set('Content-Type', 'application/json').expect(204);
    await request(mock.app).get('/members/m1/credentials').set(AUTH).expect(200);
    const res = await request(mock.app).get('/__mock/coverage').expect(200);
    expect(res.body).toEqual(mock.coverage());
    expect(res.body.summary).toMatchObject({ called: 2, calls: 3 });
    expect(of(res.body, 'listCredentials').calls).toBe(2);
  });

  test('DELETE /__mock/coverage starts counting again', async () => {
    const mock = await newMock();
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    await request(mock.app).delete('/__mock/coverage').set('Content-Type', 'application/json').expect(204);
    expect(mock.coverage().summary).toMatchObject({ called: 0, calls: 0 });
    expect(mock.pact({ consumer: 'a', provider: 'b' }).interactions).toEqual([]);
  });
});

describe('coverage reports', () => {
  test('counts calls of no operation apart', async () => {
    expect((await mixed()).summary).toEqual({
      operations: 7,
      called: 2,
      statuses: 66,
      statusesSeen: 2,
      calls: 4,
      callsWithViolations: 1,
      unrouted: 1,
    });
  });

  test('a threshold met exactly passes', async () => {
    const coverage = await mixed();
    expect(checkCoverage(coverage, { operations: 2 / 7, statuses: 2 / 66, violations: 1 })).toEqual([]);
  });

  test("a Markdown row says each operation's calls, statuses seen and not, names never sent, broken calls", async () => {
    const rows = coverageMarkdown(await mixed()).split('\n');
    expect(rows).toContain(
      '| `GET /members/{member_id}/passes` listPasses | 2 | dropped ×1, 200 ×1 | 400, 401, 403, 404, 406, 429, 500 | ?cursor | — |',
    );
    expect(rows).toContain(
      '| `POST /members/{member_id}/credentials` createCredential | 1 | 422 ×1 | 201, 400, 401, 403, 404, 406, 413, 415, 429, 500, 507 | label | 1 |',
    );
    expect(rows).toContain(
      '| ✗ `GET /members/{member_id}/passes/{pass_id}` getPass | 0 | — | 200, 400, 401, 403, 404, 406, 429, 500 | — | — |',
    );
  });

  test('a JUnit case holds the statuses seen, and a failure lists the calls that broke the contract', async () => {
    const text = coverageJunit(await mixed());
    expect(text).toContain(
      '<testcase classname="api-coverage" name="listPasses (GET /members/{member_id}/passes)">\n' +
        '      <system-out>statuses seen: dropped ×1, 200 ×1; never seen: 400, 401, 403, 404, 406, 429, 500</system-out>',
    );
    expect(text).toMatch(
      /<failure message="1 call broke the contract" type="contract">call-\d+: body \/kind: must be equal to one of the allowed values: pin, card, mobile<\/failure>/,
    );
    // The mock times no operation as a whole: the suites say no time rather than a made-up one.
    expect(text).not.toContain('time=');
  });

  async function covered(): Promise<Coverage> {
    const mock = await newMock();
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'password' });
    return mock.coverage();
  }

  test('checkCoverage names each threshold not met, and nothing when all are', async () => {
    const coverage = await covered();
    expect(checkCoverage(coverage, { operations: 1 })).toEqual([
      expect.stringMatching(/^2 of 7 \(28%\) of operations were called, below 100%; never called: createPass, getPass/),
    ]);
    expect(checkCoverage(coverage, { violations: 0 })).toEqual([
      expect.stringMatching(/^1 call broke the contract, more than the 0 allowed: call-\d+ createCredential \(body /),
    ]);
    expect(checkCoverage(coverage, { statuses: 0.9 })).toEqual([
      expect.stringMatching(/documented statuses were seen, below 90%$/),
    ]);
    expect(checkCoverage(coverage, { operations: 0.2, statuses: 0, violations: 1 })).toEqual([]);
  });

  test('the summary counts in words that agree with their numbers: 1 operation, 1 documented status, 1 call', async () => {
    const file = await inlineContract(`openapi: 3.0.3
info: { title: one, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object } } } }
`);
    const mock = await newMock({ contract: file });
    expect(coverageSummary(mock.coverage())).toBe(
      '0 of 1 operation called, 0 of 1 documented status seen, 0 of 0 calls broke the contract',
    );
    await request(mock.app).get('/things?x=1').expect(200);
    expect(coverageSummary(mock.coverage())).toBe(
      '1 of 1 operation called, 1 of 1 documented status seen, 0 of 1 call broke the contract',
    );
  });

  test('the Markdown report has the summary, the failures and a row per operation, uncalled first', async () => {
    const coverage = await covered();
    const lines = coverageMarkdown(coverage, ['too few']).split('\n');
    expect(lines[0]).toBe('### API coverage: Membership Passes and Credentials API 1.0.0');
    expect(lines[2]).toMatch(/^\*\*✗ 2 of 7 operations called, 2 of \d+ documented statuses seen, 1 of 2 calls broke/);
    expect(lines[4]).toBe('> ✗ too few');
    const rows = lines.filter((l) => l.startsWith('| ') && !l.startsWith('| operation'));
    expect(rows).toHaveLength(7);
    expect(rows[0]).toMatch(/^\| ✗ `POST \/members\/\{member_id\}\/passes` createPass \| 0 \| — \|/);
    expect(rows.at(-1)).toMatch(
      /^\| `POST \/members\/\{member_id\}\/credentials` createCredential \| 1 \| (400|422) ×1 \|/,
    );
  });

  test('the JUnit report is well-formed: uncalled operations skipped, broken calls failed, the threshold a case', async () => {
    const coverage = await covered();
    const text = coverageJunit(coverage, ['2 of 7 operations were called']);
    expect(XMLValidator.validate(text)).toBe(true);
    expect(text).toMatch(/<testsuites name="API coverage" tests="8" failures="2" errors="0" skipped="5">/);
    expect(text).toContain('<testcase classname="api-coverage" name="threshold">');
  });
});

describe('mockGlobalSetup', () => {
  test('starts a mock for the run, and at its end writes the reports and the pact, and stops it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'coverage-'));
    // What an earlier run left: written over, never added to.
    await mkdir(join(dir, 'md'));
    await writeFile(join(dir, 'md/coverage.md'), '### API coverage of the last run\n');
    const setup = mockGlobalSetup({
      coverage: { markdown: join(dir, 'md/coverage.md'), junit: join(dir, 'coverage.xml'), json: join(dir, 'c.json') },
      pact: { consumer: 'web-app', provider: 'membership', dir: join(dir, 'pacts') },
    });
    const provided: Record<string, unknown> = {};
    const teardown = await setup({ provide: (key, value) => void (provided[key] = value) });
    const url = provided.mockUrl as string;
    expect(process.env.MOCK_URL).toBe(url);
    expect((await fetch(`${url}/members/m1/passes`, { headers: AUTH })).status).toBe(200);
    await teardown();
    expect(await readFile(join(dir, 'md/coverage.md'), 'utf8')).toMatch(
      /^### API coverage: Membership Passes and Credentials API 1\.0\.0\n\n\*\*✓ 1 of 7 operations called/,
    );
    expect(XMLValidator.validate(await readFile(join(dir, 'coverage.xml'), 'utf8'))).toBe(true);
    expect(JSON.parse(await readFile(join(dir, 'c.json'), 'utf8')).summary.called).toBe(1);
    const pact = JSON.parse(await readFile(join(dir, 'pacts/web-app-membership.json'), 'utf8'));
    expect(pact.interactions.map((i: { description: string }) => i.description)).toEqual([
      'listPasses: GET /members/{member_id}/passes → 200',
    ]);
    await expect(fetch(`${url}/__mock/health`)).rejects.toThrow('fetch failed');
  });

  test('two mocks of one run (two vitest projects) leave one pact of both, and both coverage tables', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'coverage-'));
    const options = {
      coverage: { markdown: join(dir, 'coverage.md') },
      pact: { consumer: 'web-app', provider: 'membership', dir },
    };
    const [first, second] = [mockGlobalSetup(options), mockGlobalSetup(options)];
    const firstTeardown = await first();
    await fetch(`${process.env.MOCK_URL}/members/m1/passes`, { headers: AUTH });
    const secondTeardown = await second();
    await fetch(`${process.env.MOCK_URL}/members/m1/credentials`, { headers: AUTH });
    const logs = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await secondTeardown();
      await firstTeardown();
      expect(logs).toHaveBeenCalledWith(
        `membership-mock: wrote the pact ${join(dir, 'web-app-membership.json')}: 2 interactions, with the run's other mocks'`,
      );
    } finally {
      logs.mockRestore();
    }
    const pact = JSON.parse(await readFile(join(dir, 'web-app-membership.json'), 'utf8'));
    expect(pact.interactions.map((i: { description: string }) => i.description)).toEqual([
      'listCredentials: GET /members/{member_id}/credentials → 200',
      'listPasses: GET /members/{member_id}/passes → 200',
    ]);
    const markdown = await readFile(join(dir, 'coverage.md'), 'utf8');
    expect(markdown.match(/^### API coverage/gm)).toHaveLength(2);
  });

  test("appends the Markdown to GitHub's job summary, as GitHub asks of every step", async () => {
    const summary = join(await mkdtemp(join(tmpdir(), 'summary-')), 'step_summary');
    await writeFile(summary, '## The build\n');
    vi.stubEnv('GITHUB_STEP_SUMMARY', summary);
    try {
      const teardown = await mockGlobalSetup({ coverage: { markdown: summary } })();
      const logs = vi.spyOn(console, 'log').mockImplementation(() => {});
      await teardown();
      logs.mockRestore();
    } finally {
      vi.unstubAllEnvs();
    }
    expect(await readFile(summary, 'utf8')).toMatch(/^## The build\n### API coverage: Membership/);
  });

  test('fails the run when the threshold is not met (exit code 1, what is missing on stderr), and stops the mock', async () => {
    const setup = mockGlobalSetup({ coverage: { threshold: { operations: 1 } } });
    const teardown = await setup();
    const url = process.env.MOCK_URL!;
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      // Vitest logs an error a global teardown throws, and exits 0 all the same: the exit code is what fails CI.
      await teardown();
      expect(process.exitCode).toBe(1);
      expect(errors).toHaveBeenCalledWith(
        expect.stringMatching(
          /^membership-mock: API coverage below the threshold:\n- 0 of 7 \(0%\) of operations were called, below 100%; never called: listPasses/,
        ),
      );
    } finally {
      process.exitCode = undefined;
      errors.mockRestore();
    }
    await expect(fetch(`${url}/__mock/health`)).rejects.toThrow('fetch failed');
  });
});
