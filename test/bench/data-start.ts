// The start with --data: writes fixture files of COUNTS passes (100 a member, every other one leaving out its
// id and dates, which the mock makes from the seed), then times the CLI from spawn to the first list answered
// (median of RUNS). Prints figures; asserts nothing. Run: npx tsx test/bench/data-start.ts
// BEFORE=/path/to/another/checkout (built) times its CLI too, the runs interleaved: a before and after in one run.
// Profile one start: node --cpu-prof dist/mock/cli.js --data /tmp/membership-data-100000.json
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ROOTS = [...(process.env.BEFORE ? [process.env.BEFORE] : []), ROOT];
const COUNTS = (process.env.COUNTS ?? '10000,100000').split(',').map(Number);
const RUNS = Number(process.env.RUNS ?? 3);
const AUTH = { authorization: 'Bearer bench' };
/** Crockford's base 32, as the contract's ids are written. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const idOf = (n: number) =>
  `pas_${[...n.toString(32).padStart(26, '0')].map((d) => CROCKFORD[parseInt(d, 32)]).join('')}`;
const NAMES = ['Annual Gold Membership', 'Off-Peak Gym Pass', 'Family Swim Pass', '10-Visit Climbing Pass'];

/** Fixtures of `count` passes, 100 a member; every other record leaves out what the mock can make. */
function fixtures(count: number): Record<string, object[]> {
  const state: Record<string, object[]> = {};
  for (let i = 0; i < count; i++) {
    const member = `mbr_${Math.floor(i / 100)}`;
    const day = new Date(Date.UTC(2025, 0, 1) + (i % 365) * 86_400_000).toISOString().replace('.000Z', 'Z');
    const full = { id: idOf(i), valid_from: day, created_at: day };
    const record = { member_id: member, name: NAMES[i % NAMES.length], status: 'active', valid_until: null };
    (state[`/members/${member}/passes`] ??= []).push(i % 2 === 0 ? { ...full, ...record } : record);
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

/** CPU time a process has used so far (user + sys), in ms, from /proc (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Milliseconds from spawn to the first answer to a list of a fixture member's passes, and the CPU time the mock
 * spent until then (less disturbed by other load on the machine).
 */
async function startOnce(root: string, file: string): Promise<{ wall: number; cpu: number }> {
  const port = await freePort();
  const args = ['--max-old-space-size=512', 'dist/mock/cli.js', '--port', String(port), '--data', file];
  const began = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the mock did not start:\n${stderr}`);
      const res = await fetch(`http://127.0.0.1:${port}/members/mbr_7/passes`, { headers: AUTH }).catch(() => null);
      if (res?.status === 200) return { wall: performance.now() - began, cpu: cpuMsOf(child.pid!) };
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGKILL');
  }
}

for (const count of COUNTS) {
  const file = join(tmpdir(), `membership-data-${count}.json`);
  writeFileSync(file, JSON.stringify(fixtures(count)));
  const runs = new Map<string, { wall: number; cpu: number }[]>(ROOTS.map((root) => [root, []]));
  for (let i = 0; i < RUNS; i++) for (const root of ROOTS) runs.get(root)!.push(await startOnce(root, file));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  for (const [root, times] of runs)
    console.log(
      `--data of ${count} records (${file})${ROOTS.length > 1 ? ` [${root}]` : ''}: spawn to first list ` +
        `${seconds(median(times.map((r) => r.wall)))} s, the mock's CPU ${seconds(median(times.map((r) => r.cpu)))} s ` +
        `(median of ${RUNS}; ${times.map((r) => `${seconds(r.wall)}/${seconds(r.cpu)}`).join(', ')} s)`,
    );
}
