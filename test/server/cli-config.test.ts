// The config file with the CLI as a real process: found where the command was run, read from --config, beaten by
// the flags given, and refused, with exit code 2 and the key's name, when it is wrong.
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT_CONTRACT, startMock } from '../../mock/index.js';
import { CliProcess, runCli } from '../support/cli-process.js';
import { freePort } from '../support/free-port.js';
import { AUTH } from '../support/harness.js';
import { startUpstream } from '../support/upstream.js';

const BOOKSHOP = fileURLToPath(new URL('../fixtures/bookshop.openapi.yaml', import.meta.url));
const started: CliProcess[] = [];
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-config-'));
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop('SIGKILL')));
  await rm(dir, { recursive: true, force: true });
});

/** Writes a config file (membership-mock.config.json in the test's folder unless named). */
async function writeConfig(config: unknown, name = 'membership-mock.config.json'): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  return path;
}

/** The CLI run from the test's folder, as `npx membership-mock` there would be. */
async function start(args: string[], options: { env?: NodeJS.ProcessEnv; contract?: string } = {}) {
  const cli = await CliProcess.start(args, {
    env: { PORT: '', INIT_CWD: dir, MOCK_ADMIN_TOKEN: undefined, ...options.env },
    contract: options.contract ?? DEFAULT_CONTRACT,
  });
  started.push(cli);
  return cli;
}

const run = (args: string[], env: NodeJS.ProcessEnv = {}) => runCli(args, { PORT: '', INIT_CWD: dir, ...env });

describe('the config file', () => {
  test('is read from the folder the command was run in, and the banner says so', async () => {
    await writeConfig({ port: 0, seed: 77, log: 'off', checkSecurity: false });
    const cli = await start([]);
    expect(cli.banner).toMatch(/\(seed 77; admin at \S+; settings from membership-mock\.config\.json\)$/);
    expect((await fetch(`${cli.url}/members/m1/passes`)).status).toBe(200);
  });

  test('--config reads another file, whose paths are relative to its own folder', async () => {
    await mkdir(join(dir, 'mock'));
    await copyFile(BOOKSHOP, join(dir, 'mock', 'bookshop.yaml'));
    await writeConfig({ port: 0, contract: './bookshop.yaml' }, 'mock/ci.json');
    const cli = await start(['--config', 'mock/ci.json'], { contract: BOOKSHOP });
    expect(cli.banner).toContain('serving 3 operations of "Bookshop" 2.3.0');
    expect(cli.banner).toContain('settings from mock/ci.json)');
  });

  test('serves the APIs of "contracts", each under its mount, with paths from the file’s folder', async () => {
    await mkdir(join(dir, 'mock'));
    await copyFile(BOOKSHOP, join(dir, 'mock', 'bookshop.yaml'));
    await writeConfig(
      {
        port: 0,
        contracts: [
          { name: 'membership', contract: DEFAULT_CONTRACT },
          { name: 'shop', contract: './bookshop.yaml', mount: '/shop' },
        ],
      },
      'mock/membership-mock.config.json',
    );
    const cli = await start(['--config', 'mock/membership-mock.config.json']);
    await cli.stop(); // the lines after the banner all read
    expect(cli.stdout).toContain('membership-mock:   shop: 3 operations of "Bookshop" 2.3.0 under /shop\n');
    expect(cli.stdout).toContain(
      'membership-mock:   membership: 7 operations of "Membership Passes and Credentials API" 1.0.0 at its own paths\n',
    );
  });

  test("gives an API its own backend, its header's secret read from the environment", async () => {
    const up = await startUpstream((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    try {
      await copyFile(BOOKSHOP, join(dir, 'bookshop.yaml'));
      const shop = { name: 'shop', contract: './bookshop.yaml', mount: '/shop' };
      const proxy = { url: up.url, headers: { 'X-Api-Key': { env: 'SHOP_KEY' } } };
      await writeConfig({
        port: 0,
        contracts: [
          { name: 'membership', contract: DEFAULT_CONTRACT },
          { ...shop, proxy },
        ],
      });
      const cli = await start([], { env: { SHOP_KEY: 'k-123' } });
      const res = await fetch(`${cli.url}/shop/shops/abc/books?genre=poetry`, { headers: { 'X-Tenant': 't1' } });
      expect(res.status).toBe(200);
      expect((await fetch(`${cli.url}/members/m1/passes`, { headers: AUTH })).status).toBe(200);
      expect(up.received.map((r) => [r.url, r.headers['x-api-key']])).toEqual([
        ['/shops/abc/books?genre=poetry', 'k-123'],
      ]);
      await cli.stop();
      expect(cli.stdout).toContain(`shop: 3 operations of "Bookshop" 2.3.0 under /shop, its backend ${up.url}\n`);
      const { code, stderr } = await run([]);
      expect(code).toBe(2);
      expect(stderr).toContain(
        '"contracts[1].proxy.headers.X-Api-Key" in membership-mock.config.json is the environment variable SHOP_KEY, which is not set.',
      );
    } finally {
      await up.close();
    }
  });

  test('verify --api checks one API of the file against its backend, with its headers', async () => {
    // The membership API's "backend": a mock that wants a token, as the real one would.
    const backend = await startMock({ log: 'off' });
    try {
      await copyFile(BOOKSHOP, join(dir, 'bookshop.yaml'));
      const proxy = { url: backend.url, headers: { Authorization: { env: 'MEMBERSHIP_TOKEN' } } };
      await writeConfig({
        contracts: [
          { name: 'membership', contract: DEFAULT_CONTRACT, proxy },
          // Its backend's secret is not set: verifying the other API does not need it.
          {
            name: 'shop',
            contract: './bookshop.yaml',
            mount: '/shop',
            proxy: { url: 'http://127.0.0.1:9', headers: { 'X-Key': { env: 'UNSET_SHOP_KEY' } } },
          },
        ],
      });
      const clean = await run(['verify', '--api', 'membership'], { MEMBERSHIP_TOKEN: 'Bearer t' });
      expect(clean.stderr).toBe('');
      expect(clean.stdout).toContain('7 operations, 8 requests, 0 violations');
      expect(clean.code).toBe(0);
      // Every request carried the header the file names, its value from the environment (journaled as a hash).
      const sent = backend.calls().map((call) => call.headers.authorization);
      expect(sent).toEqual(Array(8).fill(`Bearer [redacted sha256:e3b98a4d]`));

      // Another server than the file's backend gets none of the file's headers (its secrets).
      const elsewhere = await run(['verify', '--api', 'membership', '--base-url', backend.url], {
        MEMBERSHIP_TOKEN: 'Bearer t',
      });
      expect([elsewhere.code, elsewhere.stdout]).toEqual([1, expect.stringContaining('got 401')]);

      const which = await run(['verify']);
      expect([which.code, which.stderr]).toEqual([
        2,
        expect.stringContaining(
          'membership-mock.config.json serves several APIs: name the one to verify with --api (membership, shop).',
        ),
      ]);
      const misspelt = await run(['verify', '--api', 'membrship'], { MEMBERSHIP_TOKEN: 'Bearer t' });
      expect(misspelt.stderr).toContain('"membrship" is not an API of this mock. Did you mean membership?');
      const noBackend = await run(['verify', '--api', 'shop']);
      expect(noBackend.stderr).toContain(
        '"contracts[1].proxy.headers.X-Key" in membership-mock.config.json is the environment variable UNSET_SHOP_KEY',
      );
    } finally {
      await backend.close();
    }
  });

  test("verify checks the file's one contract against its backend, with its headers", async () => {
    const backend = await startMock({ log: 'off' });
    try {
      const proxy = { url: backend.url, headers: { Authorization: { env: 'MEMBERSHIP_TOKEN' } } };
      await writeConfig({ contract: DEFAULT_CONTRACT, proxy });
      const clean = await run(['verify'], { MEMBERSHIP_TOKEN: 'Bearer t' });
      expect([clean.code, clean.stderr]).toEqual([0, '']);
      expect(clean.stdout).toContain('7 operations, 8 requests, 0 violations');
      expect(backend.calls().every((call) => call.headers.authorization !== undefined)).toBe(true);
    } finally {
      await backend.close();
    }
  });

  test("verify takes the file's backend when the file names no contract (the bundled one)", async () => {
    const backend = await startMock({ log: 'off', checkSecurity: false });
    try {
      await writeConfig({ proxy: { url: backend.url } });
      const clean = await run(['verify']);
      expect([clean.code, clean.stderr]).toEqual([0, '']);
      expect(clean.stdout).toContain('7 operations, 8 requests, 0 violations');
    } finally {
      await backend.close();
    }
  });

  test('a switch\'s opposite undoes the file\'s: --security-check after "checkSecurity": false', async () => {
    await writeConfig({ port: 0, checkSecurity: false });
    const cli = await start(['--security-check']);
    expect((await fetch(`${cli.url}/members/m1/passes`)).status).toBe(401);
  });

  test('a flag given beats the key of the file', async () => {
    await writeConfig({ port: 0, seed: 77 });
    const cli = await start(['--seed', '5']);
    expect(cli.banner).toContain('(seed 5;');
  });

  test('stands where the flags would: its port beats PORT', async () => {
    const [filePort, envPort] = [await freePort(), await freePort()];
    await writeConfig({ port: filePort });
    const cli = await start([], { env: { PORT: String(envPort) } });
    expect(cli.url).toBe(`http://127.0.0.1:${filePort}`);
  });

  test('names the file read in the start event of the JSON log', async () => {
    await writeConfig({ port: 0, log: 'json' });
    const cli = await start([]);
    expect(JSON.parse(cli.banner)).toMatchObject({ event: 'start', config: 'membership-mock.config.json' });
  });

  test('reads the admin token from the environment variable the file names, over MOCK_ADMIN_TOKEN', async () => {
    await writeConfig({ port: 0, admin: { token: { env: 'TEAM_MOCK_TOKEN' } } });
    const cli = await start([], { env: { TEAM_MOCK_TOKEN: 's3cret', MOCK_ADMIN_TOKEN: 'other' } });
    expect(cli.banner).toContain('/__mock, token required;');
    expect((await fetch(`${cli.url}/__mock/calls`)).status).toBe(401);
    expect((await fetch(`${cli.url}/__mock/calls`, { headers: { Authorization: 'Bearer s3cret' } })).status).toBe(200);
    expect((await fetch(`${cli.url}/members/m1/passes`, { headers: AUTH })).status).toBe(200);
  });

  test.each<[string, unknown, string]>([
    ['an unknown key', { prot: 4010 }, 'Unknown key "prot" in membership-mock.config.json. Did you mean port?'],
    [
      'a wrong type',
      { proxy: { url: 'http://x', timeout: '10s' } },
      '"proxy.timeout" in membership-mock.config.json must be a whole number, not "10s".',
    ],
    [
      'a value its flag refuses',
      { faults: { latency: '9-1' } },
      '"faults.latency" in membership-mock.config.json must be milliseconds (0-60000) or a range',
    ],
    [
      'a number out of its flag’s range',
      { bodyLimit: 0 },
      '"bodyLimit" in membership-mock.config.json must be a whole number from 1 to 1073741824, not "0".',
    ],
    [
      'a file that is not JSON',
      '{\n  "port": 4010,\n}\n',
      'membership-mock.config.json is not JSON: line 3, column 1: Expected double-quoted property name.',
    ],
    [
      'a secret whose variable is not set',
      { admin: { token: { env: 'NO_SUCH_TOKEN_VAR' } } },
      '"admin.token" in membership-mock.config.json is the environment variable NO_SUCH_TOKEN_VAR, which is not set.',
    ],
  ])('refuses %s with exit code 2, saying where', async (_, config, message) => {
    await writeConfig(config);
    const { code, stderr } = await run([]);
    expect(code).toBe(2);
    expect(stderr).toContain(`membership-mock: ${message}`);
  });

  test('refuses a --config file that is not there with exit code 2', async () => {
    const { code, stderr } = await run(['--config', 'ci.json']);
    expect(code).toBe(2);
    expect(stderr).toContain(`Cannot read the config file ${join(dir, 'ci.json')}: no such file`);
  });

  test('a flag given beats a key of the file the flag’s checks would refuse', async () => {
    await writeConfig({ port: 0, bodyLimit: 0 });
    const cli = await start(['--body-limit', '10']);
    const res = await fetch(`${cli.url}/members/m1/credentials`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'pin' }),
    });
    expect(res.status).toBe(413);
  });

  test('--stateless on the command line beats the file’s fixtures: a one-off run answers without state', async () => {
    await writeFile(join(dir, 'fixtures.json'), JSON.stringify({ '/members/m9/passes': [{ name: 'Fixture pass' }] }));
    await writeConfig({ port: 0, data: 'fixtures.json' });
    const stateful = await start([]);
    const kept = await fetch(`${stateful.url}/members/m9/passes`, { headers: AUTH });
    expect(((await kept.json()) as { data: { name: string }[] }).data.map((p) => p.name)).toEqual(['Fixture pass']);
    const stateless = await start(['--stateless']);
    const drawn = await fetch(`${stateless.url}/members/m9/passes`, { headers: AUTH });
    expect(((await drawn.json()) as { data: { name: string }[] }).data.map((p) => p.name)).not.toEqual([
      'Fixture pass',
    ]);
  });

  test('stateless and data both in the file are refused with exit code 2, saying why', async () => {
    await writeConfig({ stateless: true, data: 'fixtures.json' });
    const { code, stderr } = await run([]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /"stateless" in membership-mock\.config\.json keeps no state, so "data" in membership-mock\.config\.json would do nothing/,
    );
  });

  test('--help and --version answer without reading it', async () => {
    await writeConfig('not json');
    expect((await run(['--help'])).code).toBe(0);
    expect((await run(['--version'])).code).toBe(0);
  });
});
