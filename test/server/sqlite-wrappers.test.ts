// On Node 24, a process aborts when the garbage collector destroys one of better-sqlite3 12's wrappers
// (mock/node/sqlite-wrappers.ts): state files opened, used and closed hundreds of times amid garbage must leave
// the process alive and exiting cleanly. Before the wrappers were kept, 400 rounds aborted every time on Node
// 24.21 (200 did not); on Node 20 and 22 this passes either way. `.ci/run` runs it on each. Reads `dist/`.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const run = promisify(execFile);

test('state files opened and closed 500 times amid garbage: the process is not aborted', async () => {
  const open = fileURLToPath(new URL('../../dist/mock/node/open-state-file.js', import.meta.url));
  const folder = await mkdtemp(join(tmpdir(), 'sqlite-wrappers-'));
  const script = `
    import { join } from 'node:path';
    import { openStateFile } from ${JSON.stringify(pathToFileURL(open).href)};
    const passes = '/members/m1/passes';
    let garbage = [];
    for (let round = 0; round < 500; round++) {
      const { store } = await openStateFile(join(${JSON.stringify(folder)}, 'state' + (round % 3) + '.db'), {
        limits: {}, initial: { [passes]: [{ id: 'p0' }] }, accept: (all) => all, idOf: (_, record) => record.id });
      store.put(passes, 'p' + round, { id: 'p' + round, name: 'x'.repeat(100) });
      store.list(passes);
      store.snapshot();
      store.close();
      garbage.push(new Array(20_000).fill(round));
      if (garbage.length > 50) garbage = [];
    }
    console.log('done on ' + process.version);`;
  try {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
    expect(stdout).toBe(`done on ${process.version}\n`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}, 120_000);
