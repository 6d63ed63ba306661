import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { inspectorFiles } from '../../mock/admin/inspector-files.js';
import type { Exchange } from '../../mock/handler/exchange.js';
import { newMock } from '../support/harness.js';

const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** A folder of assets beside a file that must never be served, and a handler serving the folder. */
async function assetsServer() {
  const root = await mkdtemp(join(tmpdir(), 'inspector-'));
  const folder = join(root, 'assets');
  await mkdir(join(folder, 'nested'), { recursive: true });
  await writeFile(join(root, 'secret.js'), 'TOP-SECRET');
  await writeFile(join(folder, 'nested', 'deep.js'), 'DEEP-FILE');
  const files: Record<string, string> = {
    'index.html': '<!doctype html><title>t</title>',
    'app.js': 'export {};',
    'style.css': 'body{}',
    'logo.svg': '<svg/>',
    'shot.png': '\u0089PNG',
    'notes.txt': 'not a type it serves',
  };
  for (const [name, text] of Object.entries(files)) await writeFile(join(folder, name), text);
  const serve = inspectorFiles(`${folder}/`);
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url!.split('?')[0]!;
    serve.serveAsset({ req, res, method: req.method, path, headers: [] } as unknown as Exchange);
  };
}

describe('the inspector page at the admin URL', () => {
  test('GET /__mock from a browser goes to /__mock/, relative, so the page works under a mount prefix too', async () => {
    const mock = await newMock();
    const res = await request(mock.app).get('/__mock').set('Accept', BROWSER).expect(302);
    expect(res.headers.location).toBe('__mock/');
    const outer = express().use('/api', mock.app);
    const page = await request(outer).get('/api/__mock/').set('Accept', BROWSER).expect(200);
    // Its files are named relative to /api/__mock/, where they are served.
    expect(page.text).toContain('src="inspector/app.js"');
    await request(outer).get('/api/__mock/inspector/app.js').expect(200);
  });

  test('GET /__mock/ from a browser is the page, with a strict CSP', async () => {
    const mock = await newMock();
    const res = await request(mock.app).get('/__mock/').set('Accept', BROWSER).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(CSP);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.text).toContain('<title>');
  });

  test.each([
    ['no Accept', undefined],
    ['Accept: */*', '*/*'],
    ['Accept: application/json', 'application/json'],
  ])('GET /__mock with %s is still the JSON index', async (_name, accept) => {
    const mock = await newMock();
    const req = request(mock.app).get('/__mock');
    const res = await (accept ? req.set('Accept', accept) : req).expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body.endpoints).toEqual(expect.arrayContaining([{ method: 'GET', path: '/__mock/events' }]));
  });

  test('the page and its files need no admin token; the JSON index still does', async () => {
    const mock = await newMock({ admin: { token: 's3cret' } });
    await request(mock.app).get('/__mock/').set('Accept', BROWSER).expect(200);
    await request(mock.app).get('/__mock/inspector/index.html').expect(200);
    await request(mock.app).get('/__mock').expect(401);
  });

  test('its files are the folder’s: an unknown one is a 404 problem naming those there are', async () => {
    const mock = await newMock();
    const res = await request(mock.app).get('/__mock/inspector/nothing.js').expect(404);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body.detail).toContain('index.html');
  });

  test('another method on a file is 405 with Allow', async () => {
    const mock = await newMock();
    const res = await request(mock.app).post('/__mock/inspector/index.html').send({}).expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('the inspector’s files', () => {
  test.each([
    ['app.js', 'text/javascript; charset=utf-8'],
    ['style.css', 'text/css; charset=utf-8'],
    ['logo.svg', 'image/svg+xml'],
    ['shot.png', 'image/png'],
    ['index.html', 'text/html; charset=utf-8'],
  ])('%s is served as %s, to be revalidated, never sniffed', async (name, type) => {
    const res = await request(await assetsServer())
      .get(`/__mock/inspector/${name}`)
      .expect(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe(name === 'index.html' ? CSP : undefined);
  });

  test.each([
    ['a dot-dot segment, encoded', '..%2fsecret.js'],
    ['a dot-dot segment, dots encoded too', '%2e%2e%2fsecret.js'],
    ['a dot-dot segment, encoded twice', '%252e%252e%252fsecret.js'],
    ['a backslash', '..%5csecret.js'],
    ['a file in a folder below', 'nested/deep.js'],
    ['a folder below, encoded', 'nested%2fdeep.js'],
    ['a type it does not serve', 'notes.txt'],
    ['a NUL byte', 'app.js%00.png'],
    ['a malformed escape', '%E0%A4%A.js'],
  ])('%s is a 404', async (_name, path) => {
    const res = await request(await assetsServer())
      .get(`/__mock/inspector/${path}`)
      .expect(404);
    expect(res.text).not.toContain('TOP-SECRET');
    expect(res.text).not.toContain('DEEP-FILE');
  });
});
