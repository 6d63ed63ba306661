import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { AUTH, newMock } from '../support/harness.js';

const ORIGIN = 'http://localhost:5173';

describe('CORS', () => {
  test('answers a preflight with 204, the asked method and the asked headers', async () => {
    const mock = await newMock();
    const res = await request(mock.app)
      .options('/members/m1/passes')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['access-control-allow-methods']).toBe('POST');
    expect(res.headers['access-control-allow-headers']).toBe('authorization, content-type');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers.vary).toContain('Origin');
  });

  test('an override’s header of the same name replaces the mock’s own, and is sent once', async () => {
    const mock = await newMock();
    mock.override({ operationId: 'listPasses', headers: { 'Access-Control-Allow-Origin': '*', vary: 'Accept' } });
    const res = await request(mock.app).get('/members/m1/passes').set(AUTH).set('Origin', ORIGIN).expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers.vary).toBe('Accept');
  });

  test('allows any origin by default on real answers and exposes the documented headers', async () => {
    const mock = await newMock();
    const res = await request(mock.app)
      .post('/members/m1/passes')
      .set(AUTH)
      .set('Origin', 'https://app.example')
      .send({})
      .expect(201);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(res.headers['access-control-expose-headers']).toContain('Location');
  });

  test('sends no CORS headers to a request without Origin', async () => {
    const mock = await newMock();
    const res = await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('with a list of origins, allows those and refuses the preflight of others with 403', async () => {
    const mock = await newMock({ cors: [ORIGIN] });
    await request(mock.app)
      .options('/members/m1/passes')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'GET')
      .expect(204);
    const refused = await request(mock.app)
      .options('/members/m1/passes')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'GET')
      .expect(403);
    expect(refused.body.detail).toContain('https://evil.example is not allowed');
    const simple = await request(mock.app)
      .get('/members/m1/passes')
      .set(AUTH)
      .set('Origin', 'https://evil.example')
      .expect(200);
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('allows a method the path lacks, so the request itself gets a 405 problem a script can read', async () => {
    const mock = await newMock();
    const preflight = await request(mock.app)
      .options('/members/m1/passes')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'PATCH')
      .expect(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('PATCH');
    const res = await request(mock.app).patch('/members/m1/passes').set('Origin', ORIGIN).expect(405);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.body.detail).toContain('PATCH is not defined');
  });

  test('allows any header in a preflight that asks for none', async () => {
    const mock = await newMock();
    const res = await request(mock.app)
      .options('/members/m1/passes')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'GET')
      .expect(204);
    expect(res.headers['access-control-allow-headers']).toBe('*');
  });

  test('with CORS off, a preflight is an ordinary OPTIONS: 405 where the contract has none', async () => {
    const mock = await newMock({ cors: false });
    const res = await request(mock.app)
      .options('/members/m1/passes')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'GET')
      .expect(405);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers.allow).toBe('GET, POST, HEAD');
  });

  test('the admin API answers only origins listed by name, so no web page can read the journal', async () => {
    const open = await newMock();
    const res = await request(open.app).get('/__mock/calls').set('Origin', 'https://evil.example').expect(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    await request(open.app)
      .options('/__mock/reset')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST')
      .expect(403);
    const listed = await newMock({ cors: [ORIGIN] });
    expect(
      (await request(listed.app).get('/__mock/calls').set('Origin', ORIGIN).expect(200)).headers[
        'access-control-allow-origin'
      ],
    ).toBe(ORIGIN);
  });

  test('answers Origin: null (a sandboxed frame, a file) with * and never with credentials', async () => {
    const mock = await newMock();
    const res = await request(mock.app).get('/members/m1/passes').set(AUTH).set('Origin', 'null').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  test('never takes Origin: null as listed, even when "null" is in the list', async () => {
    const mock = await newMock({ cors: ['null'] });
    const res = await request(mock.app)
      .options('/__mock/calls')
      .set('Origin', 'null')
      .set('Access-Control-Request-Method', 'GET')
      .expect(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('exposes X-Request-Id to scripts and varies on Origin even without one', async () => {
    const mock = await newMock();
    const res = await request(mock.app).get('/members/m1/passes').set(AUTH).set('Origin', ORIGIN).expect(200);
    expect(res.headers['access-control-expose-headers']).toContain('X-Request-Id');
    expect((await request(mock.app).get('/members/m1/passes').set(AUTH)).headers.vary).toContain('Origin');
  });

  test('an allowed preflight is logged but not journaled: the browser asked it, not the app', async () => {
    const lines: string[] = [];
    const mock = await newMock({ log: 'pretty', logTo: (line) => lines.push(line) });
    await request(mock.app)
      .options('/members/m1/passes')
      .set('Origin', ORIGIN)
      .set('Access-Control-Request-Method', 'POST')
      .expect(204);
    await request(mock.app).get('/members/m1/passes').set(AUTH).set('Origin', ORIGIN).expect(200);
    expect(mock.calls().map((c) => [c.method, c.operationId])).toEqual([['GET', 'listPasses']]);
    expect(lines.map((line) => line.split(' ').slice(0, 4).join(' '))).toEqual([
      'OPTIONS /members/m1/passes - 204',
      'GET /members/m1/passes listPasses 200',
    ]);
  });

  test('a refused preflight is journaled like any request, to explain the failure', async () => {
    const mock = await newMock({ cors: [ORIGIN] });
    await request(mock.app)
      .options('/members/m1/passes')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'GET')
      .expect(403);
    expect(mock.calls().map((c) => c.response.status)).toEqual([403]);
  });

  test('a documented header Node cannot send stays out of Expose-Headers, and the answer still goes out', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'omega-')), 'omega.yaml');
    await writeFile(
      file,
      `openapi: 3.0.3
info: { title: omega, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: ok
          headers: { X-Ω-Count: { schema: { type: string } }, X-Total: { schema: { type: string } } }
          content: { application/json: { schema: { type: array, items: { type: string } } } }
`,
    );
    const mock = await newMock({ contract: file });
    const res = await request(mock.app).get('/things').set('Origin', ORIGIN).expect(200);
    expect(res.headers['access-control-expose-headers']).toBe('X-Request-Id, X-Total');
    expect(mock.calls().map((c) => c.response.status)).toEqual([200]);
  });
});

// A browser hides an answer without Access-Control-Allow-Origin from the page's script: it sees a network
// error, not the problem that says what was wrong. Every refusal of a request from an allowed origin carries it.
describe('CORS on refusals made before the contract is asked', () => {
  const post = (mock: Awaited<ReturnType<typeof newMock>>, body: string) =>
    request(mock.app)
      .post('/members/m1/passes')
      .set(AUTH)
      .set('Origin', ORIGIN)
      .set('Content-Type', 'application/json')
      .send(body);

  test('a body that is not JSON (400)', async () => {
    const res = await post(await newMock(), '{');
    expect(res.status).toBe(400);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers.vary).toContain('Origin');
  });

  test('a body over the limit (413)', async () => {
    const res = await post(await newMock({ bodyLimit: 100 }), JSON.stringify({ name: 'x'.repeat(200) }));
    expect(res.status).toBe(413);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
  });

  test('a session cookie with a malformed name (400)', async () => {
    const mock = await newMock();
    const res = await request(mock.app)
      .get('/members/m1/passes')
      .set(AUTH)
      .set('Origin', ORIGIN)
      .set('Cookie', 'mock-session=bad name');
    expect(res.status).toBe(400);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
  });

  test('an origin that is not allowed still gets none', async () => {
    const res = await post(await newMock({ cors: ['https://other.example'] }), '{');
    expect(res.status).toBe(400);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
