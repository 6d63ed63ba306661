// The mock as `npm start` runs it, filled the way a demo or a CI suite fills it: creates spread over thousands
// of members. Every create is stored, and members seen before are answered without making their placeholders again.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEFAULT_CONTRACT } from '../../mock/index.js';
import { CliProcess, ROOT } from '../support/cli-process.js';
import { keepAliveClient } from '../support/keep-alive.js';

const MEMBERS = 5000;
const CREATES_PER_MEMBER = 2;
const CONCURRENCY = 16;

/** The node flags of `npm start` (its heap limit above all), read from package.json so the test follows it. */
function npmStartNodeArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: { start: string } };
  const match = /^node((?: --[\w-]+(?:=\S+)?)*) dist\/mock\/cli\.js$/.exec(scripts.start);
  if (!match) throw new Error(`npm start is no longer "node [flags] dist/mock/cli.js": ${scripts.start}`);
  return match[1]!.trim().split(' ').filter(Boolean);
}

let cli: CliProcess;
const client = keepAliveClient(() => cli.url, CONCURRENCY);
const { send } = client;
beforeAll(async () => {
  // npm start's flags and no others: default limits, default log.
  cli = await CliProcess.start(['--port', '0'], { contract: DEFAULT_CONTRACT, nodeArgs: npmStartNodeArgs() });
});
afterAll(async () => {
  client.close();
  await cli?.stop();
});

/** Runs `task` for 0..count-1, `CONCURRENCY` at a time, and counts the statuses they answered. */
async function each(count: number, task: (i: number) => Promise<{ status: number }>): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  const results = await client.pool(Array.from({ length: count }, (_, i) => () => task(i)));
  for (const { status } of results) statuses[status] = (statuses[status] ?? 0) + 1;
  return statuses;
}

const health = async () => (await send('GET', '/__mock/health')).body.state;

test(`creates spread over ${MEMBERS} members are all stored, and members seen before cost no new placeholders`, async () => {
  const creates = MEMBERS * CREATES_PER_MEMBER;
  const created = await each(creates, (i) => send('POST', `/members/mbr_${i % MEMBERS}/passes`, { name: `Pass ${i}` }));
  expect(created).toEqual({ 201: creates });

  const filled = await health();
  expect(filled).toMatchObject({ kind: 'memory', records: creates, placeholders: { made: MEMBERS } });
  expect(filled.budgetUsed).toBeLessThan(filled.budget / 4);

  // Lists and reads of every member seen: answered from what is kept, so no placeholder is made again.
  const listed = await each(MEMBERS, async (i) => {
    const res = await send('GET', `/members/mbr_${i}/passes?limit=50`);
    if (res.body.data.length !== 3 + CREATES_PER_MEMBER) throw new Error(`mbr_${i} lists ${res.body.data.length}`);
    return res;
  });
  expect(listed).toEqual({ 200: MEMBERS });
  expect((await health()).placeholders.made).toBe(MEMBERS);

  // And the mock still takes more: a new member, and one seen before.
  expect((await send('POST', '/members/mbr_new/passes', {})).status).toBe(201);
  expect((await send('POST', '/members/mbr_1/passes', {})).status).toBe(201);
}, 180_000);
