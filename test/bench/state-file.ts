// The state file under load: creates per second with a 200k-record SQLite state file against the same mock
// in memory, side by side in one run; the start with 200k records; RSS. Prints figures and whether the goals
// of issue 12 are met; asserts nothing. Run: npm run bench:state
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: autocannon ships no types and @types/autocannon is not installed; typed locally below.
import autocannonUntyped from 'autocannon';
import { openStateFile } from '../../mock/node/open-state-file.js';
import type { StoreSnapshot } from '../../mock/state/store.js';

const RECORDS = Number(process.env.RECORDS ?? 200_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const DURATION = Number(process.env.DURATION ?? 5);
const CONNECTIONS = 50;
const CLI = fileURLToPath(new URL('../../dist/mock/cli.js', import.meta.url));
const AUTH = { authorization: 'Bearer bench', 'content-type': 'application/json' };

type Mode = 'memory' | 'sqlite' | 'sqlite-full';
interface Started {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawning to the first answer of a list of 1000 records. */
  firstAnswerMs: number;
}

const autocannon = autocannonUntyped as (
  options: object,
) => Promise<{ requests: { average: number }; non2xx: number; errors: number }>;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;

/** A state of `count` passes, 1000 to a member: records as the contract makes them. */
function bigState(count: number): StoreSnapshot {
  const state: StoreSnapshot = {};
  const names = ['Annual Gold Membership', 'Off-Peak Gym Pass', 'Family Swim Pass', '10-Visit Climbing Pass'];
  for (let i = 0; i < count; i++) {
    const member = `mbr_${Math.floor(i / 1000)}`;
    const id = `pas_${i.toString(32).toUpperCase().padStart(26, '0')}`;
    const day = new Date(Date.UTC(2025, 0, 1) + (i % 365) * 86_400_000).toISOString().replace('.000Z', 'Z');
    (state[`/members/${member}/passes`] ??= []).push({
      id,
      member_id: member,
      name: names[i % names.length],
      status: 'active',
      valid_from: day,
      valid_until: null,
      created_at: day,
    });
  }
  return state;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

async function start(mode: Mode, file: string): Promise<Started> {
  const port = await freePort();
  const args = ['--max-old-space-size=512', CLI, '--port', String(port), '--log', 'off', '--no-watch'];
  if (mode === 'memory') args.push('--state-bytes', '1GB');
  else args.push('--state-file', file, '--state-sync', mode === 'sqlite-full' ? 'full' : 'normal');
  const began = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    const res = await fetch(`${url}/members/mbr_7/passes?limit=100`, { headers: AUTH }).catch(() => undefined);
    if (res?.ok) break;
    if (child.exitCode !== null) throw new Error(`the ${mode} mock exited with ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { child, url, firstAnswerMs: performance.now() - began };
}

async function stop({ child }: Started): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

async function rss(url: string): Promise<number> {
  const health = (await (await fetch(`${url}/__mock/health`)).json()) as { memory: { rss: number } };
  return health.memory.rss;
}

/** Creates for DURATION seconds, each for one of 5000 members not in the big state (placeholders, then the create). */
async function creates(url: string, round: number): Promise<{ rps: number; failed: number }> {
  let n = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      {
        method: 'POST',
        setupRequest: (request: object) => ({
          ...request,
          path: `/members/new_${round}_${n++ % 5000}/passes`,
          headers: AUTH,
          body: JSON.stringify({ name: 'Off-Peak Gym Pass' }),
        }),
      },
    ],
  });
  return { rps: result.requests.average, failed: result.non2xx + result.errors };
}

const dir = await mkdtemp(join(tmpdir(), 'bench-state-'));
const file = join(dir, 'state.db');
let began = performance.now();
const { store } = await openStateFile(file, {
  limits: {},
  initial: bigState(RECORDS),
  accept: (state) => state as StoreSnapshot,
  idOf: (_, record) => String(record.id),
});
store.close();
console.log(`state file of ${RECORDS} records written in ${Math.round(performance.now() - began)} ms`);

const modes: Mode[] = ['memory', 'sqlite', 'sqlite-full'];
const rates: Record<Mode, number[]> = { memory: [], sqlite: [], 'sqlite-full': [] };
const starts: number[] = [];
const memory: Record<Mode, { started: number[]; loaded: number[] }> = {
  memory: { started: [], loaded: [] },
  sqlite: { started: [], loaded: [] },
  'sqlite-full': { started: [], loaded: [] },
};
let failed = 0;
for (let round = 0; round < ROUNDS; round++) {
  // Side by side, in turns, so the machine's noise falls on every mode alike.
  for (const mode of modes) {
    const server = await start(mode, file);
    if (mode !== 'memory') starts.push(server.firstAnswerMs);
    memory[mode].started.push(await rss(server.url));
    const { rps, failed: bad } = await creates(server.url, round * modes.length + modes.indexOf(mode));
    rates[mode].push(rps);
    failed += bad;
    memory[mode].loaded.push(await rss(server.url));
    await stop(server);
  }
}
began = performance.now();
await rm(dir, { recursive: true, force: true });

const base = median(rates.memory);
console.log(`creates/s (${CONNECTIONS} connections, ${DURATION} s x ${ROUNDS} rounds, median; ${failed} not 201)`);
for (const mode of modes) {
  const rate = median(rates[mode]);
  const label = {
    memory: 'in memory',
    sqlite: `SQLite, ${RECORDS} records`,
    'sqlite-full': `SQLite, ${RECORDS} records, --state-sync full`,
  }[mode];
  console.log(
    `  ${label.padEnd(44)} ${String(Math.round(rate)).padStart(6)}  ${((rate / base) * 100).toFixed(0).padStart(4)}% of in memory` +
      `   RSS after start ${mb(median(memory[mode].started))}, after creates ${mb(median(memory[mode].loaded))}`,
  );
}
const start200k = median(starts);
console.log(
  `start with ${RECORDS} records to the first list answered: median ${Math.round(start200k)} ms (all: ${starts.map(Math.round).join(', ')})`,
);
const ratio = median(rates.sqlite) / base;
console.log(
  `goals: creates >= 50% of in memory: ${ratio >= 0.5 ? 'met' : 'NOT met'} (${(ratio * 100).toFixed(0)}%); ` +
    `start <= 3 s: ${start200k <= 3000 ? 'met' : 'NOT met'} (${(start200k / 1000).toFixed(2)} s)`,
);
