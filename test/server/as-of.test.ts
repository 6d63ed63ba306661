// The day placeholders are read as of, from the command line and startMock: the CLI (a demo, with a state file
// or not) reads as of today unless it is asked to repeat byte for byte (--clock seed); startMock (tests) as of the
// seed's day.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT_CONTRACT, type MockOptions } from '../../mock/index.js';
import { CliProcess, runCli } from '../support/cli-process.js';
import { AUTH, newMock, newServer } from '../support/harness.js';

const DEMO_DAY = '2026-11-26';
const PATHS = ['/members/mbr_1/passes', '/members/mbr_1/credentials', '/members/m2/passes'];
const started: CliProcess[] = [];
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'as-of-'));
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop('SIGKILL')));
  await rm(dir, { recursive: true, force: true });
});

/** What the CLI started with `args` answers for {@link PATHS}. */
async function cliTexts(args: string[]): Promise<string[]> {
  const cli = await CliProcess.start(['--port', '0', '--log', 'off', ...args], {
    env: { PORT: '', INIT_CWD: dir },
    contract: DEFAULT_CONTRACT,
  });
  started.push(cli);
  return Promise.all(PATHS.map(async (path) => (await fetch(`${cli.url}${path}`, { headers: AUTH })).text()));
}

/** What a mock made in this process with `options` answers for {@link PATHS}. */
async function texts(options: MockOptions): Promise<string[]> {
  const mock = await newMock(options);
  return Promise.all(PATHS.map(async (path) => (await request(mock.app).get(path).set(AUTH)).text));
}

/** The UTC day now. */
const today = () => new Date().toISOString().slice(0, 10) as `${number}-${number}-${number}`;

describe('the CLI', () => {
  test('reads placeholders as of today by default, with a state file too', async () => {
    // The CLI reads the clock itself: a run that crosses midnight (UTC) is run again.
    for (let attempt = 0; attempt < 2; attempt++) {
      const day = today();
      const served = await cliTexts(['--state-file', join(dir, `state-${attempt}.db`)]);
      const expected = await texts({ asOf: day });
      if (today() !== day) continue;
      expect(served).toEqual(expected);
      expect(served).not.toEqual(await texts({}));
      return;
    }
  });

  test('reads them as of the seed’s day with --clock seed, so a whole session repeats on every day', async () => {
    expect(await cliTexts(['--clock', 'seed'])).toEqual(await texts({}));
  });

  test('reads them as of the day --as-of gives, or the config file’s asOf', async () => {
    const config = join(dir, 'membership-mock.config.json');
    await writeFile(config, JSON.stringify({ asOf: DEMO_DAY }));
    const expected = await texts({ asOf: DEMO_DAY });
    expect(await cliTexts(['--as-of', DEMO_DAY])).toEqual(expected);
    expect(await cliTexts(['--config', config])).toEqual(expected);
  });

  test('refuses a day that is not one with exit code 2, naming the flag or the key', async () => {
    const flag = await runCli(['--port', '0', '--as-of', '2026-02-30'], { PORT: '' });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--as-of must be today, seed or a day such as 2026-11-26, not "2026-02-30".');
    const config = join(dir, 'membership-mock.config.json');
    await writeFile(config, JSON.stringify({ asOf: 'tomorrow' }));
    const key = await runCli(['--port', '0', '--config', config], { PORT: '' });
    expect(key.code).toBe(2);
    expect(key.stderr).toMatch(/"asOf" in \S*membership-mock\.config\.json must be today, seed or a day/);
  });
});

describe('startMock', () => {
  test('reads placeholders as of the seed’s day unless asked, as createApp does', async () => {
    const mock = await newServer();
    const served = await Promise.all(
      PATHS.map(async (path) => (await fetch(`${mock.url}${path}`, { headers: AUTH })).text()),
    );
    await mock.close();
    expect(served).toEqual(await texts({}));
  });

  test('completes fixtures as of the day it reads', async () => {
    const mock = await newServer({ asOf: DEMO_DAY, state: { '/members/f1/passes': [{ name: 'Kept' }] } });
    const { data } = (await (await fetch(`${mock.url}/members/f1/passes`, { headers: AUTH })).json()) as {
      data: unknown[];
    };
    await mock.close();
    expect(data).toEqual([expect.objectContaining({ name: 'Kept', created_at: `${DEMO_DAY}T00:00:00Z` })]);
  });
});
