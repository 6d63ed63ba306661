import request from 'supertest';
import { describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

async function session(mock: MockApp): Promise<unknown[]> {
  const bodies: unknown[] = [];
  bodies.push((await request(mock.app).get('/members/m1/passes').set(AUTH)).body);
  bodies.push((await request(mock.app).post('/members/m1/passes').set(AUTH).send({})).body);
  bodies.push((await request(mock.app).post('/members/m1/passes').set(AUTH).send({})).body);
  bodies.push((await request(mock.app).get('/members/m1/credentials?limit=5').set(AUTH)).body);
  return bodies;
}

// Generation alone (stateless); the determinism of stateful placeholders is in state.test.ts.
describe('generated bodies follow the seed', () => {
  test('the same seed gives the same bodies in a new instance', async () => {
    expect(await session(await newMock({ seed: 42, stateless: true }))).toEqual(
      await session(await newMock({ seed: 42, stateless: true })),
    );
  });

  test('another seed gives other bodies', async () => {
    expect(await session(await newMock({ seed: 42, stateless: true }))).not.toEqual(
      await session(await newMock({ seed: 43, stateless: true })),
    );
  });

  test('a string seed works like a number seed', async () => {
    expect(await session(await newMock({ seed: 'demo', stateless: true }))).toEqual(
      await session(await newMock({ seed: 'demo', stateless: true })),
    );
  });

  test('two instances in one process do not disturb each other when interleaved', async () => {
    const alone = await session(await newMock({ seed: 5, stateless: true }));
    const a = await newMock({ seed: 5, stateless: true });
    const b = await newMock({ seed: 6, stateless: true });
    const bodies: unknown[] = [];
    bodies.push((await request(a.app).get('/members/m1/passes').set(AUTH)).body);
    await request(b.app).get('/members/m1/passes').set(AUTH);
    bodies.push((await request(a.app).post('/members/m1/passes').set(AUTH).send({})).body);
    await request(b.app).post('/members/m1/passes').set(AUTH).send({});
    bodies.push((await request(a.app).post('/members/m1/passes').set(AUTH).send({})).body);
    bodies.push((await request(a.app).get('/members/m1/credentials?limit=5').set(AUTH)).body);
    expect(bodies).toEqual(alone);
  });

  test('generated timestamps are recent and do not follow the wall clock', async () => {
    const mock = await newMock({ seed: 42, stateless: true });
    const res = await request(mock.app).get('/members/m1/passes/pas_1').set(AUTH).expect(200);
    const created = Date.parse(res.body.created_at);
    expect(created).toBeGreaterThan(Date.UTC(2023, 11, 31));
    expect(created).toBeLessThan(Date.UTC(2026, 0, 1));
  });
});
