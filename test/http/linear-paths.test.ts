import { performance } from 'node:perf_hooks';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { AUTH, newMock } from '../support/harness.js';

// A request line may be up to 16 KiB. A quadratic step on a run of slashes (a regex like /\/+$/) costs about
// 250 ms on 15,000 of them, so 40 such requests would take 10 s; done in linear time they take milliseconds.
// The bound below is 30 times the linear cost on a slow machine: it only fails on a quadratic step.
describe('paths are handled in linear time', () => {
  const slashes = '/'.repeat(15_000);

  test.each([
    ['a run of slashes before a name', `/${slashes}a`, 404],
    ['a run of slashes at the end of a contract path', `/members/m1/passes${slashes}`, 200],
    ['a run of slashes inside a contract path', `/members/${slashes}m1/passes`, 404],
    ['a run of slashes below the admin API', `/__mock/${slashes}`, 404],
  ])('%s answers at once', async (_name, path, status) => {
    const mock = await newMock();
    const started = performance.now();
    for (let i = 0; i < 40; i++) await request(mock.app).get(path).set(AUTH).expect(status);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
