// Loads one server on one route of the bench, the way bench.ts does (50 connections, autocannon in this process),
// and reports what a profile needs beside it: throughput, latency percentiles overall and per 500 ms, the
// server's CPU time per request (user and sys, from /proc), its RSS, and, when asked, its GCs (--trace-gc)
// and a CPU profile summary (--cpu-prof) restricted to the measured load.
// Run: npx tsx test/bench/profile-route.ts <list|read|create|fixed-create> [--server ours|floor|express]
//      [--seconds 10] [--warmup 3] [--members 1000] [--cpu-prof DIR] [--trace-gc] [--windows] [--threads]
//      [--node="FLAGS for the server's node"] [--root DIR] [--fill N] [-- ARGS for our CLI]
// --fill sends N varied creates over 5,000 members before the warm-up, as bench.ts's filled round does (its
// CPU profile then holds the fill too). With `create`, the fill's and the load's records share the default state
// budget (about 236,000 credentials): past it creates answer 507, counted as non-2xx.
// --root runs our CLI from another checkout (built), under the same load: a before and after, in turns.
// Examples:
//   npx tsx test/bench/profile-route.ts create --warmup 6 --cpu-prof /tmp/prof-create
//   npx tsx test/bench/profile-route.ts create --members 100000000   (every create to a member never seen)
//   npx tsx test/bench/profile-route.ts list -- --log off --journal-limit 1
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: autocannon ships no types and @types/autocannon is not installed; typed locally below.
import autocannonUntyped from 'autocannon';
import { summariseProfile } from './profile-summary.js';
import { createSequence } from './varied-create.js';

interface CannonRequest {
  method: string;
  path: string;
  body?: string;
}
interface CannonInstance extends Promise<{ requests: { average: number }; non2xx: number; errors: number }> {
  on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}
const autocannon = autocannonUntyped as (opts: Record<string, unknown>) => CannonInstance;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const AUTH = { authorization: 'Bearer bench' };
const CONNECTIONS = 50;
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    server: { type: 'string', default: 'ours' },
    root: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    members: { type: 'string' },
    'cpu-prof': { type: 'string' },
    'trace-gc': { type: 'boolean', default: false },
    windows: { type: 'boolean', default: false },
    threads: { type: 'boolean', default: false },
    node: { type: 'string', default: '' },
    fill: { type: 'string', default: '0' },
  },
});
const [route = 'create', ...cliArgs] = positionals;
if (!['list', 'read', 'create', 'fixed-create'].includes(route)) throw new Error(`unknown route ${route}`);
const server = values.server!;
const members = values.members === undefined ? undefined : Number(values.members);

const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});
const url = `http://127.0.0.1:${port}`;
const profileDir = values['cpu-prof'];
if (profileDir) mkdirSync(profileDir, { recursive: true });
const profilesBefore = new Set(profileDir ? readdirSync(profileDir) : []);
const nodeFlags = [
  ...values.node!.split(' ').filter(Boolean),
  ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
  ...(values['trace-gc'] ? ['--trace-gc'] : []),
];
// Room for every create in one member's collection (flags after -- come later and win); the budget is the default.
const room = ['--collection-limit', '10000000'];
const target =
  server === 'ours'
    ? ['dist/mock/cli.js', '--port', String(port), ...room, ...cliArgs]
    : ['--import', 'tsx', 'test/bench/floor-server.ts'];
const spawnedAt = performance.now();
const child = spawn(process.execPath, [...nodeFlags, ...target], {
  cwd: server === 'ours' ? (values.root ?? ROOT) : ROOT,
  env: { ...process.env, PORT: String(port), BODY_BYTES: '639', FLOOR: server === 'express' ? 'express' : 'http' },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
// Whatever happens here, the server goes too.
process.on('exit', () => {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
});
const gcLines: string[] = [];
let stderr = '';
child.stdout!.on('data', (chunk: Buffer) => {
  for (const line of chunk.toString().split('\n')) if (/ ms: (Scavenge|Mark-Compact)/.test(line)) gcLines.push(line);
});
child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let passId = 'pas_x';
for (let i = 0; ; i++) {
  if (child.exitCode !== null || i > 1500) throw new Error(`the server did not start:\n${stderr}`);
  try {
    const res = await fetch(`${url}/members/mbr_bench/passes`, { headers: AUTH });
    const text = await res.text();
    if (res.status === 200) {
      // With --placeholders 0 there is no pass to read.
      if (server === 'ours') passId = (JSON.parse(text) as { data: { id: string }[] }).data[0]?.id ?? passId;
      break;
    }
  } catch {
    // not listening yet
  }
  await sleep(20);
}

const sequence = createSequence(members);
const request =
  route === 'create'
    ? { method: 'POST', setupRequest: (built: CannonRequest) => ({ ...built, ...sequence.next() }) }
    : route === 'fixed-create'
      ? { method: 'POST', path: '/members/mbr_bench/credentials', body: '{"kind":"pin"}' }
      : { method: 'GET', path: route === 'list' ? '/members/mbr_bench/passes' : `/members/mbr_bench/passes/${passId}` };
const headers = request.method === 'POST' ? { ...AUTH, 'content-type': 'application/json' } : AUTH;
const load = (length: Record<string, number>) =>
  autocannon({ url, headers, connections: CONNECTIONS, ...length, requests: [request] });

const fill = Number(values.fill);
if (fill > 0) {
  const filling = createSequence(5000);
  const create = { method: 'POST', setupRequest: (built: CannonRequest) => ({ ...built, ...filling.next() }) };
  const began = performance.now();
  const filled = await autocannon({
    url,
    headers: { ...AUTH, 'content-type': 'application/json' },
    connections: CONNECTIONS,
    amount: fill,
    requests: [create],
  });
  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  console.log(`fill: ${fill} creates over 5000 members in ${seconds} s, ${filled.non2xx} non-2xx`);
}
await load({ duration: Number(values.warmup) });
if (route === 'create' && members === undefined && sequence.unseen > 0)
  await load({ amount: sequence.unseen, connections: Math.min(CONNECTIONS, sequence.unseen) });

const cpu = () => {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) * 10, sys: Number(fields[12]) * 10 }; // clock ticks of 10 ms
};
// CPU ms per thread: the main thread, the unnamed others (V8's GC and compiler threads on Node 20, and a worker
// such as the pattern guard's), the named. A thread that ended within the load is missing from both counts.
const threadCpu = () => {
  const byName = new Map<string, number>();
  for (const task of readdirSync(`/proc/${child.pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${child.pid}/task/${task}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const name = task === String(child.pid) ? 'main' : comm === 'node' ? 'others' : comm;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName.set(name, (byName.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byName;
};
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]) / 1024;
const cpuBefore = cpu();
const threadsBefore = threadCpu();
const generatorBefore = process.cpuUsage();
const rssBefore = rss();
const startedAt = performance.now();
const events: [at: number, ms: number][] = [];
const running = load({ duration: Number(values.seconds) });
running.on('response', (_client, _status, _bytes, ms) => events.push([performance.now() - startedAt, ms]));
const result = await running;
const cpuAfter = cpu();
const threadsAfter = threadCpu();
const generator = process.cpuUsage(generatorBefore);
const rssAfter = rss();
// The load's window in the server's clock, which starts about when it was spawned.
const windowFrom = Math.round(startedAt - spawnedAt) / 1000;
const windowTo = Math.round(performance.now() - spawnedAt) / 1000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const latencies = events.map(([, ms]) => ms).sort((a, b) => a - b);
const n = events.length;
const perRequest = (ms: number) => ((ms * 1000) / n).toFixed(0);
console.log(
  `${server} ${route}: ${Math.round(result.requests.average)} req/s over ${values.seconds} s (${n} responses, ` +
    `${result.non2xx} non-2xx, ${result.errors} errors)` +
    (route === 'create' ? `; ${sequence.taken} creates sent in all, to ${members ?? 1000} members` : ''),
);
console.log(
  `  latency ms: p50 ${percentile(latencies, 0.5).toFixed(1)}, p90 ${percentile(latencies, 0.9).toFixed(1)}, ` +
    `p99 ${percentile(latencies, 0.99).toFixed(1)}, p99.9 ${percentile(latencies, 0.999).toFixed(1)}, ` +
    `max ${latencies.at(-1)!.toFixed(1)}; mean ${(latencies.reduce((a, b) => a + b, 0) / n).toFixed(1)} ` +
    `(${CONNECTIONS} connections / throughput = ${((CONNECTIONS / n) * Number(values.seconds) * 1000).toFixed(1)})`,
);
console.log(
  `  server CPU per request: ${perRequest(cpuAfter.user - cpuBefore.user)} µs user + ` +
    `${perRequest(cpuAfter.sys - cpuBefore.sys)} µs sys; ` +
    `load generator ${perRequest((generator.user + generator.system) / 1000)} µs; ` +
    `server RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB`,
);
if (values.threads)
  console.log(
    '  server CPU per request by thread: ' +
      [...threadsAfter]
        .map(([name, ms]) => [name, ms - (threadsBefore.get(name) ?? 0)] as const)
        .filter(([, ms]) => ms > 0)
        .sort((a, b) => b[1] - a[1])
        .map(([name, ms]) => `${name} ${perRequest(ms)} µs`)
        .join(', '),
  );
const slowFirst = events.filter(([at, ms]) => at - ms < 50 && ms > 100).length;
if (slowFirst)
  console.log(`  ${slowFirst} responses over 100 ms were to requests sent in the first 50 ms (new connections)`);
if (values.windows) {
  const windows = new Map<number, number[]>();
  for (const [at, ms] of events) {
    const k = Math.floor(at / 500);
    windows.set(k, [...(windows.get(k) ?? []), ms]);
  }
  for (const [k, ms] of [...windows].sort((a, b) => a[0] - b[0])) {
    ms.sort((a, b) => a - b);
    console.log(
      `  ${(k / 2).toFixed(1).padStart(5)} s: ${String(ms.length).padStart(5)} responses, ` +
        `p50 ${percentile(ms, 0.5).toFixed(1)}, ` +
        `p99 ${percentile(ms, 0.99).toFixed(1)}, max ${ms.at(-1)!.toFixed(1)} ms`,
    );
  }
}

child.kill('SIGTERM'); // our CLI and the floors exit on SIGTERM, which writes the CPU profile
const deadline = Date.now() + 10_000;
while (child.exitCode === null && child.signalCode === null && Date.now() < deadline) await sleep(50);

if (values['trace-gc']) console.log(summariseGc(gcLines, windowFrom * 1000, windowTo * 1000));
if (profileDir) {
  // The main thread's profile: the largest new one (worker threads write their own).
  const newest = readdirSync(profileDir)
    .filter((f) => f.endsWith('.cpuprofile') && !profilesBefore.has(f))
    .map((f) => join(profileDir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (newest)
    console.log(`\n${summariseProfile(newest, { from: windowFrom, to: windowTo, requests: n, top: 15, tree: 2 })}`);
  else console.log(`no profile written in ${profileDir}`);
}
process.exit(0);

/** Scavenges and mark-compacts of the measured window, from node --trace-gc lines (ms since the server started). */
function summariseGc(lines: string[], fromMs: number, toMs: number): string {
  const kinds = new Map<string, { count: number; pause: number; max: number }>();
  let heap = '';
  for (const line of lines) {
    const m =
      /\s(\d+) ms: (Scavenge|Mark-Compact)[^,]*? ([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB, ([\d.]+) \//.exec(
        line,
      );
    if (!m || Number(m[1]) < fromMs || Number(m[1]) > toMs) continue;
    const kind = kinds.get(m[2]!) ?? { count: 0, pause: 0, max: 0 };
    kind.count++;
    kind.pause += Number(m[7]);
    kind.max = Math.max(kind.max, Number(m[7]));
    kinds.set(m[2]!, kind);
    heap = `${m[5]} MB used of ${m[6]} MB after the last GC`;
  }
  const span = toMs - fromMs;
  const parts = [...kinds].map(
    ([kind, k]) =>
      `  ${kind}: ${k.count}, one every ${(span / k.count).toFixed(0)} ms, pauses ${k.pause.toFixed(0)} ms in all ` +
      `(${((100 * k.pause) / span).toFixed(1)}% of the time), ` +
      `mean ${(k.pause / k.count).toFixed(1)} ms, max ${k.max} ms`,
  );
  return [`GC during the load (${heap || 'no GC'}):`, ...parts].join('\n');
}
