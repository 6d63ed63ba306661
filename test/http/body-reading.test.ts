// How a contract request's body is read: decoded, bounded by bytes after decoding, checked, parsed by its media type.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { beforeEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

let mock: MockApp;

beforeEach(async () => {
  mock = await newMock({ bodyLimit: 1024 });
});

const PASSES = '/members/m1/passes';
const PASS = JSON.stringify({ name: 'Gold' });
const lastRequest = () => mock.calls().at(-1)!;

function post(type: string | undefined, body: Buffer | string, headers: Record<string, string> = {}) {
  const sent = request(mock.app).post(PASSES).set(AUTH).set(headers);
  // The bytes as they are: superagent would write a Buffer sent as JSON out as JSON.
  const typed = (type === undefined ? sent : sent.set('Content-Type', type)).serialize(
    (bytes: unknown) => bytes as string,
  );
  return typed.send(Buffer.from(body));
}

describe('a compressed body', () => {
  test.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('sent with Content-Encoding %s is read inflated', async (encoding, compress) => {
    const res = await post('application/json', compress(PASS), { 'Content-Encoding': encoding });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Gold');
    expect(lastRequest().body).toEqual({ name: 'Gold' });
  });

  test('is held to the limit as inflated: a small gzip of a large body is refused, 413', async () => {
    const large = JSON.stringify({ name: 'x'.repeat(4000) });
    const zipped = gzipSync(large);
    expect(zipped.length).toBeLessThan(1024);
    const res = await post('application/json', zipped, { 'Content-Encoding': 'gzip' });
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  test('with an empty Content-Encoding is read as sent (no encoding), as Express read it', async () => {
    const res = await post('application/json', PASS, { 'Content-Encoding': '' });
    expect(res.status).toBe(201);
    expect(lastRequest().body).toEqual({ name: 'Gold' });
  });

  test('with an encoding the mock cannot read is refused, 415, naming it', async () => {
    const res = await post('application/json', PASS, { 'Content-Encoding': 'compress' });
    expect(res.status).toBe(415);
    expect(res.body.detail).toContain('encoding "compress"');
  });
});

describe('the size limit, in bytes', () => {
  test('a body of exactly the limit is read', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(1024 - 11) });
    expect(Buffer.byteLength(body)).toBe(1024);
    const res = await post('application/json', body);
    expect(res.status).not.toBe(413);
  });

  test('a body one byte over is refused, 413, with its size', async () => {
    const body = JSON.stringify({ name: 'é'.repeat(507) });
    expect(Buffer.byteLength(body)).toBe(1025);
    const res = await post('application/json', body);
    expect(res.status).toBe(413);
    expect(res.body.detail).toContain('The body has 1025 bytes');
  });
});

describe('text and charsets', () => {
  test('JSON that is not valid UTF-8 is refused, 400', async () => {
    const res = await post('application/json', Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('not valid UTF-8');
  });

  test('JSON after a byte order mark is read', async () => {
    const res = await post('application/json', `\uFEFF${PASS}`);
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Gold');
  });

  test('JSON that is not an object or array is read as the value it is', async () => {
    await post('application/json', '"Gold"');
    expect(lastRequest().body).toBe('Gold');
  });

  test('an empty JSON body is no body: a required one is missing', async () => {
    const res = await post('application/json', '');
    expect(res.status).toBe(400);
    expect(res.body.violations).toEqual([{ location: 'body', pointer: '', message: 'A request body is required.' }]);
  });

  test('text in ISO-8859-1 is decoded from its charset', async () => {
    await post('text/plain; charset=iso-8859-1', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect(lastRequest().body).toBe('café');
  });

  test('a media type and charset are read whatever their case, the charset quoted or not', async () => {
    await post('TEXT/Plain; Charset="ISO-8859-1"', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect(lastRequest().body).toBe('café');
  });

  test('a JSON type with a +json suffix is read as JSON', async () => {
    await post('application/merge-patch+json', PASS);
    expect(lastRequest().body).toEqual({ name: 'Gold' });
  });

  test('a malformed Content-Type reads the body as UTF-8 text', async () => {
    await post('not a type', PASS);
    expect(lastRequest().body).toBe(PASS);
  });

  test('text in a charset the mock does not know is refused, 415, naming it', async () => {
    const res = await post('text/plain; charset=klingon', 'hello');
    expect(res.status).toBe(415);
    expect(res.body.detail).toContain('charset "klingon"');
  });

  test('a body of another type is read as UTF-8 text', async () => {
    await post('application/octet-stream', 'hello');
    expect(lastRequest().body).toBe('hello');
  });
});

describe('forms', () => {
  test('are read into their fields, a repeated name into a list', async () => {
    await post('application/x-www-form-urlencoded', 'name=Gold+Pass&tag=a&tag=b&x%5By%5D=1');
    expect(lastRequest().body).toEqual({ name: 'Gold Pass', tag: ['a', 'b'], 'x[y]': '1' });
  });

  test('in ISO-8859-1 are decoded from their charset', async () => {
    await post('application/x-www-form-urlencoded; charset=iso-8859-1', 'name=caf%E9');
    expect(lastRequest().body).toEqual({ name: 'café' });
  });

  test('in another charset are refused, 415', async () => {
    const res = await post('application/x-www-form-urlencoded; charset=utf-16le', 'name=x');
    expect(res.status).toBe(415);
    expect(res.body.detail).toContain('charset "utf-16le"');
  });

  test('with more than 1000 fields are refused as unreadable', async () => {
    mock = await newMock({ bodyLimit: 4096 });
    const res = await post('application/x-www-form-urlencoded', 'a&'.repeat(1001).slice(0, -1));
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('too many parameters');
  });
});
