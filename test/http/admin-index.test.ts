import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { newMock } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

describe('the admin URL the banner prints', () => {
  test('GET /__mock lists every admin endpoint, so it is where to start', async () => {
    const mock = await newMock();
    const res = await request(mock.app).get('/__mock').expect(200);
    expect(res.body.contract).toEqual({ title: mock.contract.title, version: mock.contract.version });
    const listed = res.body.endpoints.map((e: { method: string; path: string }) => `${e.method} ${e.path}`);
    expect(listed).toEqual(expect.arrayContaining(['GET /__mock/health', 'GET /__mock/calls', 'POST /__mock/reset']));
    // Every endpoint: the same list an unknown admin path's 404 gives.
    const unknown = await request(mock.app).get('/__mock/nowhere').expect(404);
    expect(unknown.body.detail).toBe(
      `GET /__mock/nowhere matches no path of the admin API. It has: ${listed.join(', ')}.`,
    );
  });

  test('each GET endpoint it lists without a placeholder answers, none with a 404', async () => {
    const mock = await newMock();
    const { body } = await request(mock.app).get('/__mock/').expect(200);
    // The event stream never ends by itself: test/server/events.test.ts reads it on a real socket.
    const plain = body.endpoints.filter(
      (e: { method: string; path: string }) =>
        e.method === 'GET' && !e.path.includes('{') && e.path !== '/__mock/events',
    );
    expect(plain.length).toBeGreaterThan(3);
    for (const { path } of plain) {
      const res = await request(mock.app).get(path);
      expect(res.status, path).not.toBe(404);
    }
  });

  test('another method on it is 405 with Allow', async () => {
    const mock = await newMock();
    const res = await request(mock.app).post('/__mock').send({}).expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  test('behind a token it is guarded like the rest of the admin API', async () => {
    const mock = await newMock({ admin: { token: 's3cret' } });
    await request(mock.app).get('/__mock').expect(401);
    await request(mock.app).get('/__mock').set('Authorization', 'Bearer s3cret').expect(200);
  });
});

const titled = (title: string, version: string) => `
openapi: 3.0.3
info: { title: ${title}, version: '${version}' }
paths:
  /ping: { get: { responses: { '200': { description: ok } } } }
`;

test('GET /__mock names the contract a reload serves, not the one the mock started with', async () => {
  const mock = createApp(await loadContract(await inlineContract(titled('Before', '1'))));
  const before = (await request(mock.app).get('/__mock').expect(200)).body.contract;
  expect(before).toEqual({ title: 'Before', version: '1' });
  mock.reload(await loadContract(await inlineContract(titled('After', '2'))));
  const after = (await request(mock.app).get('/__mock').expect(200)).body.contract;
  expect(after).toEqual({ title: 'After', version: '2' });
});
