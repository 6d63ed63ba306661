import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningMock } from '../../mock/index.js';
import { AUTH, newServer } from '../support/harness.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await newServer();
});
afterAll(() => mock.close());

/** Sends raw bytes and resolves with everything the server wrote before closing. */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(mock.port, '127.0.0.1', () => socket.end(text));
    let out = '';
    socket.on('data', (d) => (out += d));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('requests Node refuses before the app', () => {
  test('an unknown method gets a 400 problem+json', async () => {
    const answer = await raw('FOO /members/m1/passes HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain('Content-Type: application/problem+json');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      status: 400,
      title: 'The request is not valid HTTP',
    });
  });

  test('headers over the limit get a 431 problem+json', async () => {
    const answer = await raw(`GET /members/m1/passes HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain('"status":431');
  });

  test('headers over the limit from a page of an allowed origin get CORS headers, so its script reads the 431', async () => {
    const big = 'a'.repeat(20_000);
    const answer = await raw(
      `GET /members/m1/passes HTTP/1.1\r\nHost: x\r\nOrigin: http://app.test\r\nCookie: ${big}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain('\r\nAccess-Control-Allow-Origin: http://app.test\r\n');
    expect(answer).toContain('\r\nVary: Origin\r\n');
  });

  test('headers over the limit to the admin API get no CORS headers for an origin not listed', async () => {
    const big = 'a'.repeat(20_000);
    const answer = await raw(
      `GET /__mock/calls HTTP/1.1\r\nHost: x\r\nOrigin: http://app.test\r\nCookie: ${big}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).not.toContain('Access-Control-Allow-Origin');
  });

  test('the server answers normally afterwards', async () => {
    await raw('FOO /members/m1/passes HTTP/1.1\r\nHost: x\r\n\r\n');
    await raw(`GET /members/m1/passes HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect((await fetch(`${mock.url}/members/m1/passes`, { headers: AUTH })).status).toBe(200);
  });
});

describe('request targets as sent on the wire', () => {
  const get = (target: string, headers = '') =>
    raw(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer t\r\nConnection: close\r\n${headers}\r\n`);
  const status = (answer: string) => Number(answer.slice(9, 12));

  test('the absolute form (as sent to a proxy) is served like the path it names', async () => {
    expect(status(await get('http://x/members/m1/passes?limit=2'))).toBe(200);
    expect(mock.calls().at(-1)).toMatchObject({
      operationId: 'listPasses',
      path: '/members/m1/passes',
      query: { limit: '2' },
    });
  });

  test('dot segments are not resolved: /members/x/../m1/passes is no path of the contract', async () => {
    expect(status(await get('http://x/members/x/../m1/passes'))).toBe(404);
    expect(status(await get('/members/x/../m1/passes'))).toBe(404);
    expect(mock.calls().at(-1)).toMatchObject({ operationId: null, path: '/members/x/../m1/passes' });
  });

  test.each([
    'http://h;/__mock/health',
    "http://h'/__mock/health",
    'http://h%2F/__mock/health',
    '//__mock/health',
    '/__mock%2Fhealth',
  ])('an odd target such as %s still gets problem+json, never an HTML page', async (target) => {
    const answer = await get(target);
    expect(status(answer)).toBeGreaterThanOrEqual(400);
    expect(answer).toContain('application/problem+json');
    expect(answer).not.toMatch(/<html|Cannot GET/i);
  });

  test('the admin API path is exact: /__MOCK/calls is a contract 404, journaled, with no journal in it', async () => {
    const answer = await get('/__MOCK/calls', 'Origin: http://elsewhere.example\r\n');
    expect(status(answer)).toBe(404);
    expect(answer).toContain('application/problem+json');
    expect(answer).not.toContain('"calls"');
    expect(mock.calls().at(-1)).toMatchObject({ operationId: null, path: '/__MOCK/calls' });
  });
});

describe('kept texts on the wire', () => {
  /** One request on its own connection; the answer's head and its body as the bytes sent. */
  const exchange = (target: string) =>
    new Promise<{ length: number; body: Buffer }>((resolve, reject) => {
      const socket = connect(mock.port, '127.0.0.1', () =>
        socket.end(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer t\r\nConnection: close\r\n\r\n`),
      );
      const chunks: Buffer[] = [];
      socket.on('data', (d: Buffer) => chunks.push(d));
      socket.on('error', reject);
      socket.on('close', () => {
        const all = Buffer.concat(chunks);
        const end = all.indexOf('\r\n\r\n');
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(all.subarray(0, end).toString('latin1'))?.[1]);
        resolve({ length, body: all.subarray(end + 4) });
      });
    });

  test('a record and a page read again go as the same UTF-8 bytes, their length counted in bytes', async () => {
    const name = 'Café ☕ pass';
    const created = await fetch(`${mock.url}/members/m_wire/passes`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    const { id } = (await created.json()) as { id: string };
    for (const target of [`/members/m_wire/passes/${id}`, '/members/m_wire/passes']) {
      const first = await exchange(target);
      const again = await exchange(target);
      expect(first.length).toBe(first.body.length);
      expect(first.body.toString('utf8')).toContain(`"name":"${name}"`);
      expect(again.body.equals(first.body)).toBe(true);
    }
  });
});
