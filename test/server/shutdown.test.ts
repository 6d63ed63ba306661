import { watch } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONTRACT } from '../../mock/index.js';
import { CliProcess } from '../support/cli-process.js';
import { AUTH } from '../support/harness.js';

describe('graceful shutdown', () => {
  test('SIGTERM lets a request in flight finish, then saves the state and exits 0', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'shutdown-')), 'state.json');
    const cli = await CliProcess.start(['--port', '0', '--log', 'off', '--state-file', file], {
      contract: DEFAULT_CONTRACT,
    });
    // The create changes the state as soon as the server has the request, and the state file is written
    // soon after, while the answer is still held back by the delay: that write says the request is in flight.
    const received = new Promise<void>((resolve, reject) => {
      const watcher = watch(dirname(file), (_event, name) => {
        if (name !== basename(file)) return;
        watcher.close();
        resolve();
      });
      watcher.on('error', reject);
    });
    const inFlight = fetch(`${cli.url}/members/m1/credentials`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json', Prefer: 'delay=700' },
      body: JSON.stringify({ kind: 'card' }),
    });
    await received;
    const stopped = cli.stop('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string };
    expect((await stopped).code).toBe(0);
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.collections['/members/m1/credentials'].map((c: { id: string }) => c.id)).toContain(created.id);
  });
});
