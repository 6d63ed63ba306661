// A streamed reply read by a client as fast as the mock writes it must still let other requests be answered:
// Node says `drain` on its next tick, so a writer that resumes on `drain` alone never lets the server read
// another request until the whole reply is sent (the hostile soak's health probe waited seconds behind four
// HAR exports).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { writeReply } from '../../mock/handler/write-reply.js';

// Small chunks each made with some work, as a HAR export makes its entries: the reader keeps up with the mock.
const CHUNKS = 400_000;
const TEXT = 'x'.repeat(1000);

let server: Server | undefined;
afterEach(() => server?.close());

test('a small answer is sent while a streamed reply to a fast reader is still being written', async () => {
  let streamEnded = false;
  server = createServer((req, res) => {
    if (req.url === '/small') return writeReply(res, { status: 200, headers: {}, body: { ok: true } });
    res.on('finish', () => (streamEnded = true));
    const chunks = (function* () {
      for (let i = 0; i < CHUNKS; i++) yield JSON.stringify({ i, text: TEXT, at: new Date(i).toISOString() });
    })();
    writeReply(res, { status: 200, headers: {}, contentType: 'text/plain', chunks });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  // The reader runs in a process of its own, so it takes the bytes as fast as the kernel hands them over.
  const reader = spawn(
    process.execPath,
    [
      '-e',
      `require('node:http').get('http://127.0.0.1:${port}/big', (res) => {
        console.log('started');
        res.on('data', () => undefined).on('end', () => process.exit(0));
      });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = once(reader, 'exit');
  await once(reader.stdout, 'data');

  const small = await fetch(`http://127.0.0.1:${port}/small`);
  expect(await small.json()).toEqual({ ok: true });
  expect(streamEnded).toBe(false);
  reader.kill();
  await exited;
}, 60_000);
