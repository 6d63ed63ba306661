import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { redactSecret } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

describe('secrets are kept out of the journal by default', () => {
  test('the bearer token and cookies are recorded as a fingerprint, over the admin API too', async () => {
    const mock = await newMock();
    await request(mock.app).get('/members/m1/passes').set(AUTH).set('Cookie', 'sid=s3cret').expect(200);
    const [call] = (await request(mock.app).get('/__mock/calls')).body.calls;
    expect(call.headers.authorization).toBe(redactSecret(AUTH.Authorization));
    expect(call.headers.cookie).toMatch(/^sid=\[redacted sha256:[0-9a-f]{8}\]$/);
    expect(JSON.stringify(call)).not.toMatch(/test-token|s3cret/);
  });

  test('a Set-Cookie an override answers with is recorded without its value', async () => {
    const mock = await newMock();
    mock.override({ operationId: 'listPasses', headers: { 'Set-Cookie': 'sid=s3cret; Path=/' } });
    const res = await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    expect(res.headers['set-cookie']).toEqual(['sid=s3cret; Path=/']);
    expect(JSON.stringify(mock.calls()[0]!.response.headers)).not.toContain('s3cret');
  });

  test('the API key of another contract is redacted by the name its security scheme gives', async () => {
    const mock = await newMock({ contract: 'test/fixtures/bookshop.openapi.yaml' });
    await request(mock.app).post('/shops/s1/books').set('X-Api-Key', 'k3y').send({ title: 'T', pages: 1 });
    expect(mock.calls()[0]!.headers['x-api-key']).toMatch(/^\[redacted sha256:[0-9a-f]{8}\]$/);
  });

  test('journalSecrets keeps them as sent', async () => {
    const mock = await newMock({ journalSecrets: true });
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    expect(mock.calls()[0]!.headers.authorization).toBe(AUTH.Authorization);
  });

  test('a matcher can still check that a bearer token was sent', async () => {
    const mock = await newMock();
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    expect(mock.calls()[0]!.headers.authorization).toMatch(/^Bearer \[redacted/);
  });
});
