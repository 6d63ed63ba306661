import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningMock } from '../../mock/index.js';
import { newServer } from '../support/harness.js';
import { keepAliveClient } from '../support/keep-alive.js';

const MEMBERS = 50;
const CREATES_PER_MEMBER = 40;
const READS_PER_MEMBER = 20;
const REQUESTS = MEMBERS * (CREATES_PER_MEMBER + READS_PER_MEMBER);
const CONCURRENCY = 100;

let mock: RunningMock;
const client = keepAliveClient(() => mock.url, CONCURRENCY);
const { send, pool } = client;
beforeAll(async () => {
  mock = await newServer({ seed: 31 });
});
afterAll(async () => {
  client.close();
  await mock.close();
});

describe('nothing is lost under load', () => {
  test(`${REQUESTS} concurrent requests by ${MEMBERS} members: all journaled, successful creates stored`, async () => {
    type Job = { member: string; kind: 'create' | 'read'; collection: 'passes' | 'credentials'; valid: boolean };
    const plan: Job[] = [];
    for (let m = 0; m < MEMBERS; m++) {
      for (let i = 0; i < CREATES_PER_MEMBER; i++)
        plan.push({
          member: `load_${m}`,
          kind: 'create',
          collection: i % 2 ? 'passes' : 'credentials',
          valid: i % 7 !== 3,
        });
      for (let i = 0; i < READS_PER_MEMBER; i++)
        plan.push({ member: `load_${m}`, kind: 'read', collection: i % 2 ? 'passes' : 'credentials', valid: true });
    }
    // Interleave members and kinds so that requests for one member race each other.
    plan.sort((a, b) => ((plan.indexOf(a) * 7919) % plan.length) - ((plan.indexOf(b) * 7919) % plan.length));

    const results = await pool(
      plan.map((job) => () => {
        const path = `/members/${job.member}/${job.collection}`;
        if (job.kind === 'read') return send('GET', path).then((r) => ({ job, ...r }));
        const body =
          job.collection === 'credentials'
            ? { kind: job.valid ? 'pin' : 'iris' }
            : job.valid
              ? { name: 'Load' }
              : { name: '' };
        return send('POST', path, body).then((r) => ({ job, ...r }));
      }),
    );

    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    expect(mock.calls().length).toBe(plan.length);
    expect(await (await fetch(`${mock.url}/__mock/calls/count`)).json()).toEqual({ count: plan.length });

    const state = mock.state().collections;
    for (let m = 0; m < MEMBERS; m++) {
      for (const collection of ['passes', 'credentials'] as const) {
        const created = results.filter(
          (r) => r.job.member === `load_${m}` && r.job.collection === collection && r.job.kind === 'create',
        );
        const succeeded = created.filter((r) => r.status === 201).map((r) => r.body.id as string);
        expect(created.filter((r) => r.status !== 201).every((r) => r.status === 422 && !r.job.valid)).toBe(true);
        const stored = state[`/members/load_${m}/${collection}`]!.map((r) => r.id as string);
        expect(stored.length).toBe(3 + succeeded.length);
        expect(stored).toEqual(expect.arrayContaining(succeeded));
      }
    }
  }, 60_000);
});
