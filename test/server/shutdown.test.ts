import { once } from 'node:events';
import { watch } from 'node:fs';
import { Agent, request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { execFile } from 'node:child_process';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONTRACT } from '../../mock/index.js';
import { CliProcess } from '../support/cli-process.js';
import { AUTH, newServer } from '../support/harness.js';

const run = promisify(execFile);

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

describe('close() ends what is in flight promptly', () => {
  test('a request delayed 10 s is cut off well within a second, its client sees the connection close, and its change is saved', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'close-')), 'state.db');
    let changed = () => undefined as void;
    const received = new Promise<void>((resolve) => (changed = resolve));
    const mock = await newServer({ stateFile: file, onStateChange: () => changed() });
    mock.override({ operationId: 'createCredential', delay: 10_000 });
    const create = request(`${mock.url}/members/m1/credentials`, {
      method: 'POST',
      agent: false,
      headers: { ...AUTH, 'Content-Type': 'application/json' },
    });
    const failed = once(create, 'error') as Promise<[NodeJS.ErrnoException]>;
    create.end(JSON.stringify({ kind: 'card' }));
    // The create is stored when the mock has the request; its answer waits for the delay.
    await received;
    const stored = mock.state().collections['/members/m1/credentials'];
    const started = performance.now();
    expect(await mock.close()).toEqual({ cutOff: 1 });
    expect(performance.now() - started).toBeLessThan(1500);
    const [error] = await failed;
    expect(error.code).toBe('ECONNRESET');
    const reopened = await newServer({ stateFile: file });
    expect(reopened.state().collections['/members/m1/credentials']).toEqual(stored);
    await reopened.close();
  });

  test('a pending long-poll of /__mock/calls/wait is cut off well within a second, and its client sees it', async () => {
    const mock = await newServer();
    const wait = request(`${mock.url}/__mock/calls/wait?operationId=getPass&timeout=60000`, { agent: false });
    const failed = once(wait, 'error') as Promise<[NodeJS.ErrnoException]>;
    wait.end();
    while ((await openWaits(mock.url)) === 0);
    const started = performance.now();
    expect(await mock.close()).toEqual({ cutOff: 1 });
    expect(performance.now() - started).toBeLessThan(1500);
    const [error] = await failed;
    expect(error.code).toBe('ECONNRESET');
  });

  test('an idle keep-alive connection is closed at once, and is not counted as cut off', async () => {
    const mock = await newServer();
    const agent = new Agent({ keepAlive: true });
    const res = await new Promise<IncomingMessage>((resolve) =>
      request(`${mock.url}/members/m1/passes`, { agent, headers: AUTH }, resolve).end(),
    );
    const { socket } = res;
    res.resume();
    await once(res, 'end');
    const closed = once(socket, 'close');
    const started = performance.now();
    expect(await mock.close()).toEqual({ cutOff: 0 });
    expect(performance.now() - started).toBeLessThan(1500);
    await closed;
    agent.destroy();
  });

  test('a script whose mock closed with a delayed answer cut off exits at once: no timer holds the process', async () => {
    const index = fileURLToPath(new URL('../../dist/mock/index.js', import.meta.url));
    const script = `
      import { request } from 'node:http';
      import { startMock } from ${JSON.stringify(pathToFileURL(index).href)};
      const mock = await startMock({ onStateChange: () => mock.close() });
      mock.override({ operationId: 'createCredential', delay: 10000 });
      const req = request(mock.url + '/members/m1/credentials', {
        method: 'POST', headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' } });
      req.on('error', () => console.log('cut off'));
      req.end('{"kind":"card"}');`;
    const started = performance.now();
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
    expect(stdout).toBe('cut off\n');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  test('a request that finishes within a longer grace gets its answer', async () => {
    let changed = () => undefined as void;
    const received = new Promise<void>((resolve) => (changed = resolve));
    const mock = await newServer({ onStateChange: () => changed() });
    mock.override({ operationId: 'createCredential', delay: 300 });
    const answered = fetch(`${mock.url}/members/m1/credentials`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'card' }),
    });
    await received;
    expect(await mock.close({ grace: 5000 })).toEqual({ cutOff: 0 });
    expect((await answered).status).toBe(201);
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

/** How many long-polls are open on the mock, over all its sessions. */
async function openWaits(url: string): Promise<number> {
  const res = await fetch(`${url}/__mock/sessions`);
  const { sessions } = (await res.json()) as { sessions: { waiters: number }[] };
  return sessions.reduce((sum, s) => sum + s.waiters, 0);
}

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
