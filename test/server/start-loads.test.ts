// What a start loads: a mock started with no --store loads no Redis client (150 ms of every start when it was
// imported with the server), with no --state-file no SQLite, and no Express until something asks for it (a tenth
// of a start); looked at in a separate Node process running the built package, the way the CLI starts.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { ROOT } from '../support/cli-process.js';

const run = promisify(execFile);

/**
 * The packages (under node_modules) a process has in its `require` cache after a mock started, ran `use` (a
 * script's lines, `mock` the started mock) and closed.
 */
async function packagesLoaded(options: object, use = ''): Promise<string[]> {
  const script = `
    import { createRequire } from 'node:module';
    const { startMock } = await import('./dist/mock/server.js');
    const mock = await startMock(${JSON.stringify(options)});
    ${use}
    await mock.close();
    const names = Object.keys(createRequire(import.meta.url).cache)
      .map((file) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file)?.[1])
      .filter(Boolean);
    console.log(JSON.stringify([...new Set(names)]));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as string[];
}

test('a mock with no --store and no --state-file loads neither a Redis client nor SQLite', async () => {
  const loaded = await packagesLoaded({ log: 'off' });
  // The same look finds what a start does load: the check would see them if they were there.
  expect(loaded).toContain('@stoplight/prism-http');
  expect(loaded).not.toContain('ioredis');
  expect(loaded).not.toContain('better-sqlite3');
}, 60_000);

test('a mock with a state file loads SQLite (and still no Redis client)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'start-loads-'));
  try {
    const loaded = await packagesLoaded({ log: 'off', stateFile: join(dir, 'state.db') });
    expect(loaded).toContain('better-sqlite3');
    expect(loaded).not.toContain('ioredis');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);

/** A create, then a read of the journal: a contract request with a JSON body, and the admin API. */
const ANSWER = `
    const auth = { authorization: 'Bearer t', 'content-type': 'application/json' };
    const created = await fetch(mock.url + '/members/m1/credentials', {
      method: 'POST', headers: auth, body: JSON.stringify({ kind: 'pin' }),
    });
    const calls = await fetch(mock.url + '/__mock/calls', { headers: auth });
    if (created.status !== 201 || calls.status !== 200) throw new Error(created.status + ' ' + calls.status);`;

test('a mock answering contract requests and reading its journal loads no Express', async () => {
  const loaded = await packagesLoaded({ log: 'off' }, ANSWER);
  expect(loaded).toContain('raw-body');
  expect(loaded).not.toContain('express');
  expect(loaded).not.toContain('body-parser');
}, 60_000);

test('Express is loaded once something asks for it: an admin request with a JSON body, or mock.app', async () => {
  const override = `
    const sent = await fetch(mock.url + '/__mock/overrides', {
      method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ operationId: 'listPasses', status: 500 }),
    });
    if (sent.status !== 201) throw new Error(await sent.text());`;
  expect(await packagesLoaded({ log: 'off' }, override)).toContain('body-parser');
  const app = `
    const { createApp } = await import('./dist/mock/app.js');
    const { loadContract } = await import('./dist/mock/node/load-contract.js');
    const made = createApp(await loadContract('contracts/membership.openapi.yaml'));
    if (typeof made.app.use !== 'function') throw new Error('no app');`;
  expect(await packagesLoaded({ log: 'off' }, app)).toContain('express');
}, 60_000);
