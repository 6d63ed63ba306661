import { once } from 'node:events';
import { createServer, request, type ClientRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApp, MockOptions } from '../../mock/index.js';
import { newMock } from '../support/harness.js';

let server: Server | undefined;
let base = '';

/** Serves a mock on a real socket of our own, to see its connections and requests. */
async function serve(options: MockOptions = {}): Promise<MockApp> {
  const mock = await newMock(options);
  server = createServer(mock.handle).listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return mock;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

interface OpenWait {
  req: ClientRequest;
  /** The server's end of the connection. */
  socket: Socket;
  answer: Promise<IncomingMessage>;
}

/** Opens a long-poll on a connection of its own; resolves once the mock has taken it. */
async function openWait(query: string, headers: Record<string, string> = {}): Promise<OpenWait> {
  const connected = once(server!, 'connection') as Promise<[Socket]>;
  // The mock's own listener runs first: by this event, the wait is open.
  const taken = once(server!, 'request');
  const req = request(`${base}/__mock/calls/wait?${query}`, { agent: false, headers });
  req.on('error', () => undefined);
  const answer = once(req, 'response').then(([res]) => res as IncomingMessage);
  answer.catch(() => undefined);
  req.end();
  const [[socket]] = await Promise.all([connected, taken]);
  return { req, socket, answer };
}

async function openWaits(): Promise<number> {
  const res = await fetch(`${base}/__mock/sessions`);
  const { sessions } = (await res.json()) as { sessions: { waiters: number }[] };
  return sessions.reduce((sum, s) => sum + s.waiters, 0);
}

async function textOf(res: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of res) text += chunk;
  return text;
}

describe('long-polls of /__mock/calls/wait on a real socket', () => {
  test('a wait whose client disconnects stops listening at once, not at its timeout', async () => {
    await serve();
    const wait = await openWait('path=/nowhere&timeout=60000');
    expect(await openWaits()).toBe(1);
    wait.req.destroy();
    await once(wait.socket, 'close');
    // The response's own 'close' runs in the same turn as the socket's; let it finish.
    await new Promise(setImmediate);
    expect(await openWaits()).toBe(0);
  });

  test('a wait whose client leaves is no failure of the mock: nothing is logged as an error', async () => {
    const errors: string[] = [];
    await serve({ logTo: (line, level) => void (level === 'error' && errors.push(line)) });
    const wait = await openWait('path=/nowhere&timeout=60000');
    wait.req.destroy();
    await once(wait.socket, 'close');
    await new Promise(setImmediate);
    expect(await openWaits()).toBe(0);
    expect(errors).toEqual([]);
  });

  test('past 1000 open waits, another answers 429 with Retry-After: 1', async () => {
    await serve();
    const waits: OpenWait[] = [];
    for (let i = 0; i < 1000; i++) waits.push(await openWait('path=/nowhere&timeout=60000'));
    const refused = await fetch(`${base}/__mock/calls/wait?path=/nowhere&timeout=60000`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await refused.json()).toMatchObject({ status: 429, title: 'Too many waits are open' });
    for (const wait of waits) wait.req.destroy();
  });

  test('a wait on a session dropped past the session limit answers 410 at once', async () => {
    await serve({ sessionLimit: 1 });
    const wait = await openWait('path=/nowhere&timeout=60000', { 'X-Mock-Session': 'waiting' });
    await fetch(`${base}/members/m1/passes`, { headers: { 'X-Mock-Session': 'newcomer', Authorization: 'Bearer t' } });
    const res = await wait.answer;
    expect(res.statusCode).toBe(410);
    expect(JSON.parse(await textOf(res))).toMatchObject({
      status: 410,
      title: 'The session was dropped',
      detail: expect.stringContaining('"waiting"'),
    });
  });
});
