import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { AUTH, newMock } from '../support/harness.js';

const JSON_TYPE = { 'Content-Type': 'application/json' };

describe('admin changes no web page can forge (CSRF)', () => {
  test('a simple cross-site POST /__mock/reset (text/plain, no preflight) is refused and changes nothing', async () => {
    const mock = await newMock();
    await request(mock.app).post('/members/m1/passes').set(AUTH).send({}).expect(201);
    const before = mock.state();
    await request(mock.app)
      .post('/__mock/reset')
      .set({ Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'text/plain' })
      .send('{}')
      .expect(403);
    expect(mock.calls()).toHaveLength(1);
    expect(mock.state()).toEqual(before);
  });

  test('a change sent as no script would send it answers 403 saying exactly what to send', async () => {
    const mock = await newMock();
    const res = await request(mock.app).post('/__mock/reset').set('Content-Type', 'text/plain').send('{}').expect(403);
    expect(res.body).toMatchObject({
      type: 'https://example.com/problems/forgeable-admin-request',
      instance: '/__mock/reset',
      detail: expect.stringContaining(
        'send Content-Type: application/json (an empty body is fine), an Authorization header or an X-Mock-* header',
      ),
    });
  });

  test.each([
    ['POST', '/__mock/reset'],
    ['POST', '/__mock/overrides'],
    ['POST', '/__mock/calls/wait'],
    ['DELETE', '/__mock/calls'],
    ['DELETE', '/__mock/overrides'],
    ['DELETE', '/__mock/overrides/override-1'],
    ['PUT', '/__mock/faults'],
    ['DELETE', '/__mock/faults'],
  ])('%s %s without a header no page can send is refused', async (method, path) => {
    const mock = await newMock();
    const res = await request(mock.app)[method.toLowerCase() as 'post'](path).expect(403);
    expect(res.body.type).toBe('https://example.com/problems/forgeable-admin-request');
  });

  test.each([
    [{ 'Content-Type': 'text/plain' }],
    [{ 'Content-Type': 'application/x-www-form-urlencoded' }],
    [{ 'Content-Type': 'multipart/form-data; boundary=x' }],
    [{ 'Content-Type': 'text/json' }],
    [{ 'Content-Type': 'application/jsonp' }],
    [{ 'X-Requested-With': 'XMLHttpRequest' }],
  ])('a reset with only %j is refused', async (headers) => {
    const mock = await newMock();
    await request(mock.app).post('/__mock/reset').set(headers).expect(403);
  });

  test.each([
    [JSON_TYPE],
    [{ 'Content-Type': 'application/json; charset=utf-8' }],
    [{ 'Content-Type': 'application/merge-patch+json' }],
    [{ Authorization: 'Bearer anything' }],
    [{ 'X-Mock-Session': 'tab-1' }],
    [{ 'X-Mock-Reset': '1' }],
  ])('a reset with %j is carried out', async (headers) => {
    const mock = await newMock();
    await request(mock.app).post('/__mock/reset').set(headers).expect(204);
  });

  test('a reset with Content-Type: application/json and an empty body is carried out', async () => {
    const mock = await newMock();
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    await request(mock.app).post('/__mock/reset').set(JSON_TYPE).set('Content-Length', '0').expect(204);
    expect(mock.calls()).toEqual([]);
  });

  test('a DELETE with Content-Type: application/json and no body is carried out', async () => {
    const mock = await newMock();
    mock.override({ operationId: 'listPasses', status: 500 });
    await request(mock.app).delete('/__mock/overrides').set(JSON_TYPE).expect(204);
    expect((await request(mock.app).get('/__mock/overrides')).body.overrides).toEqual([]);
  });

  test('a change from an origin neither the mock’s own nor listed is refused, even as JSON', async () => {
    const mock = await newMock();
    const res = await request(mock.app)
      .post('/__mock/reset')
      .set(JSON_TYPE)
      .set('Origin', 'https://evil.example')
      .expect(403);
    expect(res.body.type).toBe('https://example.com/problems/forbidden-origin');
    expect(res.body.detail).toContain('The origin https://evil.example may not use the admin API');
  });

  test('a change from a page of another site without Origin (Sec-Fetch-Site: cross-site) is refused', async () => {
    const mock = await newMock();
    const res = await request(mock.app)
      .post('/__mock/reset')
      .set(JSON_TYPE)
      .set('Sec-Fetch-Site', 'cross-site')
      .expect(403);
    expect(res.body.detail).toContain('A page of another site (Sec-Fetch-Site: cross-site)');
  });

  test('a change from a page of the same site but an origin not listed is refused', async () => {
    const mock = await newMock();
    await request(mock.app)
      .post('/__mock/reset')
      .set(JSON_TYPE)
      .set({ Origin: 'http://localhost:5173', 'Sec-Fetch-Site': 'same-site' })
      .expect(403);
  });

  test('a change from the mock’s own origin is carried out', async () => {
    const mock = await newMock();
    await request(mock.app)
      .post('/__mock/reset')
      .set(JSON_TYPE)
      .set({ Host: 'localhost:4010', Origin: 'http://localhost:4010', 'Sec-Fetch-Site': 'same-origin' })
      .expect(204);
  });

  test('a change from an origin listed with --cors-origin is carried out, even from another site', async () => {
    const mock = await newMock({ cors: ['https://app.example'] });
    await request(mock.app)
      .post('/__mock/reset')
      .set(JSON_TYPE)
      .set({ Origin: 'https://app.example', 'Sec-Fetch-Site': 'cross-site' })
      .expect(204);
  });

  test('Origin: null may not change the mock, even when "null" is listed', async () => {
    const mock = await newMock({ cors: ['null'] });
    await request(mock.app).post('/__mock/reset').set(JSON_TYPE).set('Origin', 'null').expect(403);
  });

  test('a read of the admin API needs no such header', async () => {
    const mock = await newMock();
    await request(mock.app).get('/__mock/calls').expect(200);
  });

  test('a read from a page of another site is refused too, so it cannot make sessions or hold waits', async () => {
    const mock = await newMock({ sessionLimit: 1 });
    await request(mock.app)
      .get('/members/m1/passes')
      .set({ ...AUTH, 'X-Mock-Session': 'real' })
      .expect(200);
    for (const name of ['evil1', 'evil2'])
      await request(mock.app)
        .get(`/__mock/calls?session=${name}`)
        .set({ Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' })
        .expect(403);
    await request(mock.app).get(`/__mock/calls?session=evil3`).set('Sec-Fetch-Site', 'cross-site').expect(403);
    const names = (await request(mock.app).get('/__mock/sessions')).body.sessions.map((s: { name: string }) => s.name);
    expect(names.sort()).toEqual(['', 'real']);
  });

  test('a read from a listed origin goes through, with CORS headers for it', async () => {
    const mock = await newMock({ cors: ['http://localhost:5173'] });
    const res = await request(mock.app)
      .get('/__mock/calls')
      .set({ Origin: 'http://localhost:5173', 'Sec-Fetch-Site': 'same-site' })
      .expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });
});
