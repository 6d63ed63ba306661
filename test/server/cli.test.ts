import { mkdtemp, readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLValidator } from 'fast-xml-parser';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT_CONTRACT } from '../../mock/index.js';
import { CliProcess, runCli } from '../support/cli-process.js';
import { freePort } from '../support/free-port.js';
import { AUTH } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

const BROKEN_EXAMPLE = fileURLToPath(new URL('../fixtures/broken-example.openapi.yaml', import.meta.url));
const BOOKSHOP = fileURLToPath(new URL('../fixtures/bookshop.openapi.yaml', import.meta.url));
const started: CliProcess[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop('SIGKILL')));
});

async function start(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; contract?: string } = {},
): Promise<CliProcess> {
  const cli = await CliProcess.start(args, {
    env: { PORT: '', ...options.env },
    contract: options.contract ?? DEFAULT_CONTRACT,
  });
  started.push(cli);
  return cli;
}

/** The status of a GET sent with a Host header of our choosing (fetch may not set Host). */
function statusWithHost(url: string, host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { Host: host } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    })
      .on('error', reject)
      .end();
  });
}

describe('the CLI as a real process', () => {
  test('serves the default contract and prints a one-line banner', async () => {
    const cli = await start(['--port', '0']);
    expect(cli.banner).toMatch(
      new RegExp(
        String.raw`^membership-mock: serving 7 operations of "Membership Passes and Credentials API" 1\.0\.0 ` +
          String.raw`at http:\/\/127\.0\.0\.1:\d+ \(seed 1; admin at http:\/\/127\.0\.0\.1:\d+\/__mock\)$`,
      ),
    );
    expect((await fetch(`${cli.url}/members/m1/passes`, { headers: AUTH })).status).toBe(200);
  });

  test('listens on the port from --port, then from PORT', async () => {
    const port = await freePort();
    const byFlag = await start(['--port', String(port)]);
    expect(byFlag.url).toBe(`http://127.0.0.1:${port}`);
    await byFlag.stop();
    const byEnv = await start([], { env: { PORT: String(port) } });
    expect(byEnv.url).toBe(`http://127.0.0.1:${port}`);
  });

  test('--contract serves another file, relative to where npm was run', async () => {
    const cli = await start(['--port', '0', '--contract', 'bookshop.openapi.yaml'], {
      env: { INIT_CWD: fileURLToPath(new URL('../fixtures/', import.meta.url)) },
      contract: BOOKSHOP,
    });
    expect(cli.banner).toContain('serving 3 operations of "Bookshop" 2.3.0');
    expect(
      (await fetch(`${cli.url}/shops/corner/books?genre=poetry`, { headers: { 'X-Tenant': 'acme' } })).status,
    ).toBe(200);
  });

  test('names the server paths the operations are also served under in the banner, and counts 1 operation', async () => {
    const contract = await inlineContract(`openapi: 3.0.3
info: { title: Pets, version: '1' }
servers: [{ url: 'https://api.example.com/v1' }]
paths:
  /pets:
    get: { operationId: listPets, responses: { '204': { description: none } } }
`);
    const cli = await start(['--port', '0', '--contract', contract], { contract });
    expect(cli.banner).toMatch(/serving 1 operation of "Pets" 1 at http:\/\/127\.0\.0\.1:\d+ and under \/v1 \(seed/);
    expect((await fetch(`${cli.url}/v1/pets`)).status).toBe(204);
  });

  test('--seed makes bodies repeat across restarts', async () => {
    const read = async () => {
      // A day given: the CLI reads as of today, which a run across midnight would see change.
      const cli = await start(['--port', '0', '--seed', '77', '--as-of', '2026-11-26']);
      const body = await (await fetch(`${cli.url}/members/m1/credentials`, { headers: AUTH })).json();
      await cli.stop();
      return body;
    };
    expect(await read()).toEqual(await read());
  });

  test('stops cleanly with exit code 0 on SIGTERM and on SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const cli = await start(['--port', '0']);
      const { code, output } = await cli.stop(signal);
      expect(code).toBe(0);
      expect(output).toContain(`${signal} received, stopping`);
    }
  });

  test('--help describes every flag and exits 0', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--config',
      'membership-mock.config.json',
      '--contract',
      '--port',
      '--host',
      '--seed',
      '--static',
      '--stateless',
      '--placeholders',
      '--clock',
      '--data',
      '--state-file',
      '--cors-origin',
      '--allowed-hosts',
      '--no-cors',
      '--no-watch',
      '--log',
      '--body-limit',
      '--journal-limit',
      '--journal-bytes',
      '--journal-body-limit',
      '--session-limit',
      '--collection-limit',
      '--state-bytes',
      '--latency',
      '--failure-rate',
      '--drop-rate',
      '--admin-token',
      '--no-admin',
      '--no-security-check',
      '--errors',
      'PORT',
      'verify',
    ])
      expect(stdout).toContain(flag);
  });

  test.each([
    [['--port', 'abc'], /--port \(or PORT\) must be a whole number from 0 to 65535, not "abc"/],
    [['--bogus'], /Unknown option '--bogus'\.\n/],
    [['--contracts', 'api.yaml'], /Unknown option '--contracts'\. Did you mean --contract\?/],
    [['--stateles'], /Unknown option '--stateles'\. Did you mean --stateless\?/],
    [['--body-limit', '0'], /--body-limit must be a whole number/],
    [['--collection-limit', '0'], /--collection-limit must be a whole number from 1 to 10000000, not "0"/],
    [['--state-bytes', 'lots'], /--state-bytes must be a size from 1KB to 1TB, such as 67108864 or 64MB, not "lots"/],
    [['--state-bytes', '64MiB'], /--state-bytes must be a size from 1KB to 1TB, such as 67108864 or 64MB, not "64MiB"/],
    [
      ['--state-limit', '1500'],
      /--state-limit is gone: state is bounded by bytes now, and placeholders are free\. Give --state-bytes/,
    ],
    [['--allowed-hosts', 'http://mock.lan'], /--allowed-hosts must be host names, comma-separated/],
    [['--journal-bytes', '1000'], /--journal-bytes must be a whole number from 1024 to 1099511627776, not "1000"/],
    [['--journal-body-limit', 'all'], /--journal-body-limit must be a whole number from 0 to 1073741824, not "all"/],
    [['--proxy-timeout', '500'], /--proxy-timeout needs --proxy URL: there is no backend to send requests to\./],
    [['--stateless', '--data', 'fixtures.json'], /--stateless keeps no state, so --data would do nothing/],
    [['--stateless', '--state-file', 'state.db'], /--stateless keeps no state, so --state-file would do nothing/],
    [
      ['--stateless', '--proxy', 'http://127.0.0.1:9', '--record-state'],
      /--stateless keeps no state, so --record-state would do nothing/,
    ],
    [
      ['--proxy', 'http://127.0.0.1:9', '--proxy-fallback', 'sometimes'],
      /--proxy-fallback must be auto, off or statuses/,
    ],
    [
      ['--proxy', 'http://127.0.0.1:9', '--proxy-fallback', '404,200'],
      /--proxy-fallback must be auto, off or statuses of the backend's failures \(400 to 599\) such as 404,501, not "404,200"/,
    ],
    [['--proxy', 'http://127.0.0.1:9', '--proxy-header', 'no colon'], /--proxy-header must be "Name: value"/],
    [
      ['--placeholders', '5', '--collection-limit', '4'],
      /--placeholders \(5\) is more than --collection-limit \(4\): every collection would start over its limit/,
    ],
  ])('refuses %j with exit code 2 and a message', async (args, message) => {
    const { code, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  test('--journal-body-limit cuts the bodies the journal keeps, and --journal-bytes bounds it', async () => {
    const cli = await start(['--port', '0', '--journal-body-limit', '4', '--journal-bytes', '4096']);
    const headers = { ...AUTH, 'Content-Type': 'application/json' };
    for (const kind of ['pin', 'card']) {
      const body = JSON.stringify({ kind });
      await fetch(`${cli.url}/members/m1/credentials`, { method: 'POST', headers, body });
    }
    const page = await (await fetch(`${cli.url}/__mock/calls`)).json();
    // Each call costs more than 2 KB: the budget keeps the last one.
    expect(page).toMatchObject({ calls: [{ body: '{"ki', truncated: { bytes: 15 } }], dropped: 1 });
  });

  test('a missing contract exits 1 naming the file', async () => {
    const { code, stderr } = await runCli(['--contract', '/nowhere/api.yaml', '--port', '0']);
    expect(code).toBe(1);
    expect(stderr).toContain('Cannot read the contract /nowhere/api.yaml: no such file');
  });

  test('verify exits 0 against the mock and 1 naming the violations when requests are refused', async () => {
    const cli = await start(['--port', '0', '--log', 'off']);
    const clean = await runCli(['verify', '--base-url', cli.url, '--token', 't']);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('7 operations, 8 requests, 0 violations');
    const refused = await runCli(['verify', '--base-url', cli.url]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('expected a success (201), got 401');
    const usage = await runCli(['verify']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--base-url is required.');
  });

  test('verify --format junit writes well-formed JUnit, and hints at --token when every answer is 401', async () => {
    const cli = await start(['--port', '0', '--log', 'off']);
    const { code, stdout } = await runCli(['verify', '--base-url', cli.url, '--format', 'junit']);
    expect(code).toBe(1);
    expect(XMLValidator.validate(stdout)).toBe(true);
    expect(stdout).toMatch(/<testsuite name="Membership Passes and Credentials API 1\.0\.0" tests="7" failures="4"/);
    expect(stdout).toContain('hint: every answer was 401: the server wants credentials. Pass --token TOKEN');
  });

  test('verify --output writes the report in its format over the file, appended to the job summary', async () => {
    const cli = await start(['--port', '0', '--log', 'off']);
    const file = join(await mkdtemp(join(tmpdir(), 'verify-')), 'summary.md');
    const args = ['verify', '--base-url', cli.url, '--token', 't', '--format', 'markdown', '--output', file];
    const summaries = async () => (await readFile(file, 'utf8')).match(/^\*\*✓ 7 operations/gm)?.length;
    const { code, stdout } = await runCli(args, { GITHUB_STEP_SUMMARY: '' });
    expect(code).toBe(0);
    expect(stdout).toContain('7 operations, 8 requests, 0 violations');
    expect((await readFile(file, 'utf8')).split('\n')[2]).toBe('**✓ 7 operations, 8 requests, no violation**');
    await runCli(args, { GITHUB_STEP_SUMMARY: '' });
    expect(await summaries()).toBe(1);
    // A step of GitHub Actions writing its job summary: appended to, as GitHub asks.
    await runCli(args, { GITHUB_STEP_SUMMARY: file });
    expect(await summaries()).toBe(2);
  });

  test('verify refuses a format it does not write', async () => {
    const { code, stderr } = await runCli(['verify', '--base-url', 'http://127.0.0.1:1', '--format', 'xml']);
    expect(code).toBe(2);
    expect(stderr).toContain('--format must be one of text, json, junit, markdown, not "xml".');
  });

  test('verify names the flag a misspelt one most likely meant, as the main command does', async () => {
    const { code, stderr } = await runCli(['verify', '--base-ur', 'http://127.0.0.1:1']);
    expect(code).toBe(2);
    expect(stderr).toContain("membership-mock verify: Unknown option '--base-ur'. Did you mean --base-url?");
  });

  test('fault flags make a running mock fail, repeatably', async () => {
    const cli = await start(['--port', '0', '--log', 'off', '--failure-rate', '1', '--latency', '50-60']);
    const res = await fetch(`${cli.url}/members/m1/passes`, { headers: AUTH });
    expect(res.status).toBe(500);
    expect((await runCli(['--failure-rate', '1.5'])).stderr).toContain('--failure-rate must be a share from 0 to 1');
    expect((await runCli(['--latency', '9-1'])).stderr).toContain(
      '--latency must be milliseconds (0-60000) or a range "MIN-MAX" such as "100-300", not "9-1".',
    );
    // The admin API answers the CLI's latency in the form the CLI took it.
    const faults = await (await fetch(`${cli.url}/__mock/faults`)).json();
    expect(faults).toEqual({ faults: { latency: '50-60', failureRate: 1 } });
  });

  test.each([
    [['--collection-limit', '3'], 'of 3 records (collectionLimit)'],
    [['--state-bytes', '1KB'], 'of 1KB (stateBytes; placeholders are free)'],
  ])('%j makes a create past the limit answer 507 naming it', async (flags, named) => {
    const cli = await start(['--port', '0', '--log', 'off', ...flags]);
    const create = () =>
      fetch(`${cli.url}/members/m1/passes`, {
        method: 'POST',
        headers: { ...AUTH, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'N'.repeat(100) }),
      });
    let res = await create();
    for (let i = 0; i < 3 && res.status === 201; i++) res = await create();
    expect(res.status).toBe(507);
    expect(((await res.json()) as { detail: string }).detail).toContain(named);
  });

  test('an empty --admin-token is a usage error, not an open admin API', async () => {
    const { code, stderr } = await runCli(['--admin-token', '']);
    expect(code).toBe(2);
    expect(stderr).toContain('--admin-token is empty');
  });

  test('an empty MOCK_ADMIN_TOKEN is a usage error, not an open admin API', async () => {
    const { code, stderr } = await runCli(['--port', '0'], { MOCK_ADMIN_TOKEN: '' });
    expect(code).toBe(2);
    expect(stderr).toContain('MOCK_ADMIN_TOKEN is set but empty');
  });

  test('warns on stderr, in one line, when it listens beyond loopback without an admin token', async () => {
    const cli = await start(['--port', '0', '--log', 'off', '--host', '0.0.0.0'], {
      env: { MOCK_ADMIN_TOKEN: undefined },
    });
    await cli.stop();
    const port = new URL(cli.url).port;
    expect(cli.stderr).toBe(
      `membership-mock: warning: listening on 0.0.0.0 without an admin token: anyone who can reach port ${port} ` +
        'can read the journal (with its Authorization and Cookie headers) and reset the state; ' +
        'set one with --admin-token or MOCK_ADMIN_TOKEN.\n',
    );
  });

  test.each([
    [['--host', '127.0.0.1']],
    [['--host', 'localhost']],
    [['--host', '0.0.0.0', '--admin-token', 's3cret']],
    [['--host', '0.0.0.0', '--no-admin']],
  ])('does not warn with %j', async (args) => {
    const cli = await start(['--port', '0', '--log', 'off', ...args], {
      env: { MOCK_ADMIN_TOKEN: undefined },
    });
    await cli.stop();
    expect(cli.stderr).toBe('');
  });

  test('reports at start each example that breaks its schema; with --errors such an answer is a 500', async () => {
    const file = BROKEN_EXAMPLE;
    const cli = await start(['--contract', file, '--port', '0', '--log', 'off', '--static', '--errors'], {
      contract: file,
    });
    const res = await fetch(`${cli.url}/path`);
    expect(res.status).toBe(500);
    expect(((await res.json()) as { violations: unknown[] }).violations).toEqual([
      { location: 'body', pointer: '', message: 'must be object' },
    ]);
    await cli.stop();
    expect(cli.stderr).toContain(
      'membership-mock: warning: the example "one" of getPath 200 application/json breaks its schema ((root): must be object).\n',
    );
  });

  test('--allowed-hosts answers the names listed, and refuses others with 403', async () => {
    const cli = await start(['--port', '0', '--log', 'off', '--allowed-hosts', 'mock.lan, .demo.example']);
    expect(await statusWithHost(`${cli.url}/__mock/health`, 'mock.lan:4010')).toBe(200);
    expect(await statusWithHost(`${cli.url}/__mock/health`, 'eu.demo.example')).toBe(200);
    expect(await statusWithHost(`${cli.url}/__mock/health`, 'evil.example')).toBe(403);
  });

  test('--allowed-hosts all answers every host name', async () => {
    const cli = await start(['--port', '0', '--log', 'off', '--allowed-hosts', 'all']);
    expect(await statusWithHost(`${cli.url}/__mock/health`, 'evil.example')).toBe(200);
  });

  test('serves a contract read from a URL, without trying to watch it', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(DEFAULT_CONTRACT, 'utf8');
    const { createServer } = await import('node:http');
    const files = createServer((_req, res) => res.end(text)).listen(0, '127.0.0.1');
    await new Promise((r) => files.once('listening', r));
    try {
      const cli = await start([
        '--port',
        '0',
        '--contract',
        `http://127.0.0.1:${(files.address() as { port: number }).port}/membership.openapi.yaml`,
      ]);
      expect(cli.banner).toContain('serving 7 operations');
    } finally {
      files.close();
    }
  });

  test('a taken port exits 1 saying so', async () => {
    const cli = await start(['--port', '0']);
    const port = new URL(cli.url).port;
    const { code, stderr } = await runCli(['--port', port]);
    expect(code).toBe(1);
    expect(stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
  });
});
