import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { AUTH, newMock } from '../support/harness.js';

const SECRETS = { Authorization: 'Bearer secret-of-the-user', Cookie: 'session=secret-cookie' };

describe('the Host check against DNS rebinding', () => {
  test('a page reached through a name of its own (Host: evil.example) cannot read the journal', async () => {
    const mock = await newMock();
    await request(mock.app).get('/members/m1/passes').set(SECRETS).expect(200);
    const res = await request(mock.app).get('/__mock/calls').set('Host', 'evil.example').expect(403);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.text).not.toContain('secret');
  });

  test('the refusal names the host and the flag that allows it', async () => {
    const mock = await newMock();
    const res = await request(mock.app).get('/__mock/calls').set('Host', 'evil.example:4010').expect(403);
    expect(res.body.type).toBe('https://example.com/problems/forbidden-host');
    expect(res.body.detail).toContain('does not answer to the host name "evil.example:4010"');
    expect(res.body.detail).toContain('Allow this name with --allowed-hosts evil.example');
  });

  test('a page of another origin reads the refusal of its host: the 403 carries CORS', async () => {
    const mock = await newMock();
    const res = await request(mock.app)
      .get('/members/m1/passes')
      .set(AUTH)
      .set({ Host: 'my-laptop.lan:4010', Origin: 'http://localhost:5173' })
      .expect(403);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(res.body.detail).toContain('--allowed-hosts my-laptop.lan');
  });

  test('its preflight is answered, so the request after it reaches the readable 403', async () => {
    const mock = await newMock();
    const res = await request(mock.app)
      .options('/members/m1/passes')
      .set({ Host: 'my-laptop.lan:4010', Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' })
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(mock.calls()).toEqual([]);
  });

  test('a contract request to an unknown host is refused and journaled', async () => {
    const mock = await newMock();
    await request(mock.app).get('/members/m1/passes').set(AUTH).set('Host', 'evil.example').expect(403);
    expect(mock.calls().map((c) => [c.operationId, c.response.status])).toEqual([[null, 403]]);
  });

  test('an admin request refused for its host is not journaled', async () => {
    const mock = await newMock();
    await request(mock.app).get('/__mock/calls').set('Host', 'evil.example').expect(403);
    expect(mock.calls()).toEqual([]);
  });

  test('a reset sent to an unknown host changes nothing', async () => {
    const mock = await newMock();
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    await request(mock.app).post('/__mock/reset').set('Host', 'evil.example').send({}).expect(403);
    expect(mock.calls()).toHaveLength(1);
  });

  test.each([['127.0.0.1:4010'], ['[::1]:4010'], ['localhost:4010'], ['app.localhost']])(
    'answers %s without being told',
    async (host) => {
      const mock = await newMock();
      await request(mock.app).get('/__mock/calls').set('Host', host).expect(200);
    },
  );

  test('answers the names of allowedHosts, a leading dot allowing subdomains', async () => {
    const mock = await newMock({ allowedHosts: ['mock.lan', '.demo.example'] });
    await request(mock.app).get('/__mock/calls').set('Host', 'mock.lan:4010').expect(200);
    await request(mock.app).get('/members/m1/passes').set(AUTH).set('Host', 'eu.demo.example').expect(200);
    await request(mock.app).get('/__mock/calls').set('Host', 'sub.mock.lan').expect(403);
  });

  test('allowedHosts: true answers every host', async () => {
    const mock = await newMock({ allowedHosts: true });
    await request(mock.app).get('/__mock/calls').set('Host', 'evil.example').expect(200);
  });

  test('with an admin token every host is answered: the token protects the admin API', async () => {
    const mock = await newMock({ admin: { token: 's3cret' } });
    await request(mock.app).get('/members/m1/passes').set(AUTH).set('Host', 'demo.example').expect(200);
    await request(mock.app).get('/__mock/calls').set('Host', 'demo.example').expect(401);
  });

  test('an allowedHosts entry that is not a host name is refused when the mock is made', async () => {
    await expect(newMock({ allowedHosts: ['mock.lan/'] })).rejects.toThrow('"mock.lan/" is not a host name');
  });
});
