import { once } from 'node:events';
import { watch } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONTRACT } from '../../mock/index.js';
import { CliProcess } from '../support/cli-process.js';
import { AUTH, newServer } from '../support/harness.js';

describe('graceful shutdown', () => {
  test('SIGTERM lets a request in flight finish, with its change in the state file, and exits 0', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'shutdown-')), 'state.db');
    const cli = await CliProcess.start(['--port', '0', '--log', 'off', '--state-file', file], {
      contract: DEFAULT_CONTRACT,
    });
    // The create is committed as soon as the server has the request, while the answer is still held back by
    // the delay: the write to the database's log says the request is in flight.
    const received = new Promise<void>((resolve, reject) => {
      const watcher = watch(dirname(file), (_event, name) => {
        if (name !== `${basename(file)}-wal`) return;
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
    const db = new Database(file, { readonly: true });
    try {
      const ids = db.prepare('SELECT id FROM records WHERE collection = ?').pluck().all('/members/m1/credentials');
      expect(ids).toContain(created.id);
    } finally {
      db.close();
    }
  });

  test('SIGTERM with a client sending its body slowly still exits 0, and says what it cut off', async () => {
    const cli = await CliProcess.start(['--port', '0', '--log', 'off'], { contract: DEFAULT_CONTRACT });
    const slow = await slowBodyClient(cli.url);
    const started = Date.now();
    const { code } = await cli.stop('SIGTERM');
    expect(code).toBe(0);
    // A warning: a client lost its answer.
    expect(cli.stderr).toContain('membership-mock: warning: cut off 1 connection still open after 5 s');
    expect(Date.now() - started).toBeLessThan(12_000);
    slow.destroy();
  });
});

describe('close()', () => {
  test('cuts off a client sending its body slowly once the grace period is over', async () => {
    const mock = await newServer();
    const slow = await slowBodyClient(mock.url);
    const closed = once(slow, 'close');
    expect(await mock.close({ grace: 100 })).toEqual({ cutOff: 1 });
    await closed;
  });

  test('cuts off nothing when every request finishes in time', async () => {
    const mock = await newServer();
    await fetch(`${mock.url}/members/m1/passes`, { headers: AUTH });
    expect(await mock.close({ grace: 100 })).toEqual({ cutOff: 0 });
  });
});

/**
 * A client that sent the headers of a create and a byte of its body, and will send no more. It returns once
 * the server has the request (it answered `100 Continue`), so the connection is busy, never idle.
 */
async function slowBodyClient(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  socket.write(
    'POST /members/m1/credentials HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\n' +
      'Content-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n',
  );
  const [chunk] = (await once(socket, 'data')) as [Buffer];
  if (!chunk.toString().startsWith('HTTP/1.1 100')) throw new Error(`expected 100 Continue, got ${chunk}`);
  socket.write('{');
  return socket;
}
