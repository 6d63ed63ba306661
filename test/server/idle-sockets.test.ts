// Connections that send nothing, or their request too slowly, are answered 408 and closed: idle sockets cannot
// use up the process's open files while the mock goes on answering.
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RunningMock } from '../../mock/index.js';
import { AUTH, newServer } from '../support/harness.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await newServer({ headersTimeout: 400, requestTimeout: 800 });
});
afterAll(() => mock.close());

/** Opens a socket, writes `text` (nothing, by default), and resolves with what the server wrote before closing. */
async function idle(text = ''): Promise<string> {
  const socket: Socket = connect(mock.port, '127.0.0.1');
  await once(socket, 'connect');
  if (text) socket.write(text);
  let out = '';
  socket.on('data', (d) => (out += d));
  await once(socket, 'close');
  return out;
}

test('a connection that sends no request is answered 408 with a problem, and closed', async () => {
  const answer = await idle();
  expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
    status: 408,
    title: 'The request did not arrive in time',
  });
});

test('a request whose headers never end is answered 408 too', async () => {
  const answer = await idle('GET /members/m1/passes HTTP/1.1\r\nHost: x\r\n');
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
});

test('many idle sockets are all freed, and the mock answers meanwhile and after', async () => {
  const sockets = Array.from({ length: 50 }, () => idle());
  expect((await fetch(`${mock.url}/__mock/health`)).status).toBe(200);
  expect(await Promise.all(sockets)).toEqual(Array(50).fill(expect.stringMatching(/^HTTP\/1\.1 408 /)));
  expect((await fetch(`${mock.url}/members/m1/passes`, { headers: AUTH })).status).toBe(200);
});
