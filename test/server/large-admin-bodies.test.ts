// The admin API's large bodies (a whole state, a HAR) are parsed piece by piece as they arrive, so a HAR of
// millions of entries is refused at the first one too many, while its client is still sending.
import { request, type IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import type { RunningMock } from '../../mock/server.js';
import { newServer } from '../support/harness.js';

let mock: RunningMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** Sends `pieces` one by one, each after the last was written, and resolves with the answer and its body. */
function send(
  method: string,
  path: string,
  headers: Record<string, string | number>,
  pieces: (string | Buffer)[],
  { end = true } = {},
): { answer: Promise<{ res: IncomingMessage; body: string }>; cancel: () => void } {
  const { port } = new URL(mock!.url);
  const req = request({ host: '127.0.0.1', port, method, path, headers });
  const answer = new Promise<{ res: IncomingMessage; body: string }>((resolve, reject) => {
    req.on('response', async (res) => {
      let body = '';
      for await (const chunk of res) body += chunk;
      resolve({ res, body });
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  for (const piece of pieces) req.write(piece);
  if (end) req.end();
  return { answer, cancel: () => req.destroy() };
}

const JSON_TYPE = { 'Content-Type': 'application/json' };

describe('a HAR import', () => {
  test('of millions of entries is refused with 413 at the first one too many, before its client is done', async () => {
    mock = await newServer();
    // 10,001 entries of `0,` and the client never ends the body: only a reader that counts as it reads answers.
    const head = `{"log":{"entries":[${Array(10_001).fill('0').join(',')},`;
    const { answer, cancel } = send('POST', '/__mock/har', { ...JSON_TYPE, 'Content-Length': 8_000_000 }, [head], {
      end: false,
    });
    const { res, body } = await answer;
    cancel();
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(body).detail).toBe(
      'the HAR has more than 10000 entries; at most 10000 are read (export fewer, or split it)',
    );
    const listed = (await fetch(`${mock.url}/__mock/overrides`).then((r) => r.json())) as { overrides: unknown[] };
    expect(listed.overrides).toEqual([]);
  });

  test('sent gzipped is read as it is inflated, and its overrides are set', async () => {
    mock = await newServer();
    const har = {
      log: {
        entries: [
          {
            request: { method: 'GET', url: 'http://x/members/m1/passes', headers: [], queryString: [] },
            response: {
              status: 200,
              headers: [],
              content: { mimeType: 'application/json', text: '{"data":[],"next_cursor":null}' },
            },
          },
        ],
      },
    };
    const gz = gzipSync(JSON.stringify(har));
    const { res, body } = await send('POST', '/__mock/har', { ...JSON_TYPE, 'Content-Encoding': 'gzip' }, [gz]).answer;
    expect(res.statusCode, body).toBe(200);
    expect((JSON.parse(body) as { overrides: unknown[] }).overrides, body).toHaveLength(1);
  });
});

describe('a whole state replaced', () => {
  const state = { '/members/m1/passes': [{ id: 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M', name: 'Gold [", with \\" and }' }] };

  test('arriving in small pieces, split inside strings and escapes, is read whole', async () => {
    mock = await newServer();
    const text = JSON.stringify(state);
    const pieces = Array.from({ length: text.length }, (_, i) => text[i]!);
    const { res, body } = await send('PUT', '/__mock/state', JSON_TYPE, pieces).answer;
    expect(res.statusCode, body).toBe(200);
    const record = `${mock.url}/__mock/state/members/m1/passes/pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M`;
    const read = (await fetch(record).then((r) => r.json())) as { name: string };
    expect(read.name).toBe('Gold [", with \\" and }');
  });

  test.each([
    ['text after the value', `${JSON.stringify(state)} {}`, 400, /not valid JSON/],
    ['a body cut short', JSON.stringify(state).slice(0, -3), 400, /not valid JSON/],
    // JSON of the wrong type is the state's to refuse, saying what it expects; a number ends only with the body
    // (the reader waited for more, and the request was never answered).
    ['a string', '"state"', 422, /state|object/],
    ['a number', '5', 422, /state|object/],
    ['null', 'null', 422, /state|object/],
    ['nesting past 64 levels', `{"a":${'['.repeat(65)}${']'.repeat(65)}}`, 400, /nests deeper than 64/],
  ])('%s is refused, and the state is left as it was', async (_, text, status, detail) => {
    mock = await newServer();
    const before = await fetch(`${mock.url}/__mock/state`).then((r) => r.text());
    const { res, body } = await send('PUT', '/__mock/state', JSON_TYPE, [text]).answer;
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(body).detail).toMatch(detail);
    expect(await fetch(`${mock.url}/__mock/state`).then((r) => r.text())).toBe(before);
  });

  test.each([
    ['a charset other than UTF-8', { 'Content-Type': 'application/json; charset=latin1' }, /charset "latin1"/],
    ['an encoding it cannot undo', { ...JSON_TYPE, 'Content-Encoding': 'compress' }, /encoding "compress"/],
  ])('in %s is refused with 415', async (_, headers, detail) => {
    mock = await newServer();
    const { res, body } = await send('PUT', '/__mock/state', headers, [JSON.stringify(state)]).answer;
    expect(res.statusCode).toBe(415);
    expect(JSON.parse(body).detail).toMatch(detail);
  });

  test.each([
    ['the bare map', (collections: object) => collections],
    ['the form GET answers', (collections: object) => ({ collections })],
  ])('in %s is refused at the 10,001st record, before its client is done', async (_, form) => {
    mock = await newServer();
    const collections = Object.fromEntries(
      Array.from({ length: 11 }, (_, c) => [`/members/m${c}/passes`, Array(1000).fill({})]),
    );
    const text = JSON.stringify(form(collections));
    const { answer, cancel } = send(
      'PUT',
      '/__mock/state',
      { ...JSON_TYPE, 'Content-Length': text.length + 1 },
      [text],
      { end: false },
    );
    const { res, body } = await answer;
    cancel();
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(body).detail).toMatch(/^PUT \/__mock\/state: the state has more records than the 10000 /);
  });

  test('of many collections holding few records is not refused for its collections', async () => {
    mock = await newServer();
    const collections = Object.fromEntries(Array.from({ length: 50 }, (_, c) => [`/members/m${c}/passes`, [{}]]));
    const { res, body } = await send('PUT', '/__mock/state', JSON_TYPE, [JSON.stringify({ collections })]).answer;
    expect(res.statusCode, body).toBe(200);
  });

  test('larger than 4 MiB once inflated is refused with 413 however small it was sent', async () => {
    mock = await newServer();
    const big = gzipSync(`{"/members/m1/passes":[{"name":"${'x'.repeat(5 * 1024 * 1024)}"}]}`);
    expect(big.length).toBeLessThan(64 * 1024);
    const { res, body } = await send('PUT', '/__mock/state', { ...JSON_TYPE, 'Content-Encoding': 'gzip' }, [big])
      .answer;
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(body).detail).toMatch(/the limit is 4194304 bytes/);
  });

  test('announced larger than 4 MiB is refused with 413 before a byte is read', async () => {
    mock = await newServer();
    const { answer, cancel } = send('PUT', '/__mock/state', { ...JSON_TYPE, 'Content-Length': 5_000_000 }, [], {
      end: false,
    });
    const { res, body } = await answer;
    cancel();
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(body).detail).toBe('The body has 5000000 bytes; the limit is 4194304 bytes.');
  });
});
