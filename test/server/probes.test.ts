// Liveness and readiness for an orchestrator, on real sockets: both answer without the admin token (a probe
// sends none); readiness fails with a problem while the mock closes, or while its state file refuses changes.
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { RunningMock, ServerOptions } from '../../mock/index.js';
import { newServer } from '../support/harness.js';

const TOKEN = 'probe-token';
const open: RunningMock[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((mock) => mock.close()));
});

async function mockWith(options: ServerOptions = {}): Promise<RunningMock> {
  const mock = await newServer({ admin: { token: TOKEN }, log: 'off', ...options });
  open.push(mock);
  return mock;
}

describe('GET /__mock/health/live and /__mock/health/ready', () => {
  test('answer 200 without the admin token, which the other admin endpoints still ask for', async () => {
    const mock = await mockWith();
    const live = await fetch(`${mock.url}/__mock/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'live' });
    const ready = await fetch(`${mock.url}/__mock/health/ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({
      status: 'ready',
      contract: { title: 'Membership Passes and Credentials API', version: '1.0.0' },
    });
    expect((await fetch(`${mock.url}/__mock/health/ready`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${mock.url}/__mock/health`)).status).toBe(401);
    expect((await fetch(`${mock.url}/__mock/calls`)).status).toBe(401);
  });

  test('ready answers 503 with a problem once close() began, to a request on a connection still open', async () => {
    const mock = await newServer({ log: 'off' });
    const { port } = new URL(mock.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    // A create whose body waits for 100 Continue: the server has it in hand, so closing keeps the connection.
    const body = '{"kind":"card"}';
    socket.write(
      'POST /members/m1/credentials HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    expect(chunk.toString()).toMatch(/^HTTP\/1\.1 100 /);
    const closed = mock.close({ grace: 5000 });
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString()));
    const ended = once(socket, 'close');
    socket.write(`${body}GET /__mock/health/ready HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await ended;
    const [created, ready] = responses(text);
    expect(created!.status).toBe(201);
    expect(ready!.status).toBe(503);
    expect(ready!.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(ready!.body)).toMatchObject({
      type: 'https://example.com/problems/not-ready',
      status: 503,
      detail: expect.stringContaining('The mock is closing'),
      instance: '/__mock/health/ready',
    });
    expect(await closed).toEqual({ cutOff: 0 });
  });

  test('ready and live answer 503 once the state file is deleted (a restart mends it), without naming it', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'probes-')), 'state.db');
    const mock = await mockWith({ stateFile: file });
    expect((await fetch(`${mock.url}/__mock/health/ready`)).status).toBe(200);
    await rm(file);
    const ready = await fetch(`${mock.url}/__mock/health/ready`);
    expect(ready.status).toBe(503);
    const problem = (await ready.json()) as { type: string; detail: string };
    expect(problem).toMatchObject({
      type: 'https://example.com/problems/not-ready',
      detail: expect.stringContaining('The state file was deleted or replaced'),
    });
    // The file's path and error are for the token's holder, in GET /__mock/health.
    expect(problem.detail).not.toContain(file);
    const health = await fetch(`${mock.url}/__mock/health`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(health.status).toBe(503);
    const live = await fetch(`${mock.url}/__mock/health/live`);
    expect(live.status).toBe(503);
    expect(((await live.json()) as { type: string }).type).toBe('https://example.com/problems/not-live');
  });
});

/** The responses read from a connection, one after another: status, headers (lower-case names) and body. */
function responses(text: string): { status: number; headers: Record<string, string>; body: string }[] {
  const read = [];
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length']);
    const body = Buffer.from(rest.slice(end + 4))
      .subarray(0, length)
      .toString();
    read.push({ status: Number(statusLine!.split(' ')[1]), headers, body });
    rest = rest.slice(end + 4 + body.length);
  }
  return read;
}
