// What one replica changed, taken as data and applied to another (mock/node/replica-changes.ts), without Redis:
// the two mocks must then hold the same state, calls, overrides, counters and faults.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { contextOfApp } from '../../mock/app.js';
import type { MockApp } from '../../mock/index.js';
import { ReplicaChanges, type Change } from '../../mock/node/replica-changes.js';
import { AUTH, newMock } from '../support/harness.js';

/** A mock whose changes are watched, and a function that hands them to another as JSON, as Redis carries them. */
async function watched(): Promise<{ mock: MockApp; changes: ReplicaChanges }> {
  const mock = await newMock();
  return { mock, changes: new ReplicaChanges(contextOfApp(mock), () => ({})) };
}

const carried = (changes: Change[]) => JSON.parse(JSON.stringify(changes)) as Change[];

function sameAs(copy: MockApp, mock: MockApp): void {
  expect(copy.state()).toEqual(mock.state());
  expect(copy.calls()).toEqual(mock.calls());
  const [a, b] = [contextOfApp(copy), contextOfApp(mock)];
  expect(a.sessions.get('')!.overrides).toEqual(b.sessions.get('')!.overrides);
  expect([...a.sessions.get('')!.counters]).toEqual([...b.sessions.get('')!.counters]);
  expect(a.faults).toEqual(b.faults);
}

describe('changes one replica took, applied to another', () => {
  test('give it the same records, calls, overrides, counters and faults', async () => {
    const one = await watched();
    const two = await watched();
    await request(one.mock.app).post('/members/m1/passes').set(AUTH).send({ name: 'Shared' }).expect(201);
    await request(one.mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    one.mock.override({ operationId: 'getPass', status: 404, times: 2 });
    one.mock.setFaults({ latency: 5 });
    two.changes.apply(carried(one.changes.take()));
    sameAs(two.mock, one.mock);
    // Calls go on being numbered after the ones applied.
    await request(two.mock.app).post('/members/m1/passes').set(AUTH).send({}).expect(201);
    expect(two.mock.calls().at(-1)!.id).toBe('call-3');
  });

  test('a reset clears the other too, and applied changes are not taken again as its own', async () => {
    const one = await watched();
    const two = await watched();
    await request(one.mock.app).post('/members/m1/passes').set(AUTH).send({ name: 'Gone' }).expect(201);
    two.changes.apply(carried(one.changes.take()));
    expect(two.changes.take()).toEqual([]);
    one.mock.reset();
    two.changes.apply(carried(one.changes.take()));
    sameAs(two.mock, one.mock);
    expect(two.mock.calls()).toEqual([]);
  });

  test('a snapshot of one makes a new replica hold what it holds', async () => {
    const one = await watched();
    await request(one.mock.app).post('/members/m2/passes').set(AUTH).send({ name: 'Late' }).expect(201);
    one.mock.override({ operationId: 'listPasses', status: 500 });
    const late = await watched();
    late.changes.apply(carried(one.changes.snapshot()));
    sameAs(late.mock, one.mock);
  });
});
