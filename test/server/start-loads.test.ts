// What a start loads: a mock started with no --store loads no Redis client (150 ms of every start when it was
// imported with the server), with no --state-file no SQLite; looked at in a separate Node process running the
// built package, the way the CLI starts.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { ROOT } from '../support/cli-process.js';

const run = promisify(execFile);

/** The packages (under node_modules) a process has in its `require` cache after a mock started and closed. */
async function packagesLoaded(options: object): Promise<string[]> {
  const script = `
    import { createRequire } from 'node:module';
    const { startMock } = await import('./dist/mock/server.js');
    const mock = await startMock(${JSON.stringify(options)});
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
  expect(loaded).toContain('express');
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
