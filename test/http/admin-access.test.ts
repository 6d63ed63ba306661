import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { AUTH, newMock } from '../support/harness.js';

describe('access to the admin API', () => {
  test('with a token, /__mock/* answers 401 without it and works with it', async () => {
    const mock = await newMock({ admin: { token: 's3cret' } });
    const refused = await request(mock.app).get('/__mock/calls').expect(401);
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(refused.body.violations).toEqual([{ location: 'header', pointer: '/authorization', message: 'missing' }]);
    await request(mock.app).post('/__mock/reset').set('Authorization', 'Bearer wrong').expect(401);
    await request(mock.app).get('/__mock/calls').set('Authorization', 'Bearer s3cret').expect(200);
  });

  test('the token does not stand in the way of the contract operations', async () => {
    const mock = await newMock({ admin: { token: 's3cret' } });
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
  });

  test('an empty token is refused, never taken as no token', async () => {
    await expect(newMock({ admin: { token: '' } })).rejects.toThrow(/admin token is empty/);
  });

  test('path tricks do not reach the admin API around the token', async () => {
    const mock = await newMock({ admin: { token: 's3cret' } });
    for (const path of [
      '/__mock/../__mock/calls',
      '//__mock/calls',
      '/__MOCK/calls',
      '/%5F%5Fmock/calls',
      '/__mock%2Fcalls',
    ]) {
      const res = await request(mock.app).get(path);
      expect([401, 404], path).toContain(res.status);
      expect(res.body.calls, path).toBeUndefined();
    }
  });

  test('with the admin API off, /__mock/* is an unknown path of the contract', async () => {
    const mock = await newMock({ admin: false });
    const res = await request(mock.app).post('/__mock/reset').expect(404);
    expect(res.body.title).toBe('No operation of the contract matches this path');
    expect(mock.calls()).toHaveLength(1);
  });
});
