// Server CPU per request of two builds of the mock, side by side: both run as `npm start` runs them (its node
// flags, default limits, the pretty log line per request), and one route's load goes to each in short slices,
// in turns (A B B A …), so that what else the machine does weighs on both alike. On a shared machine a run of
// one build then the other is off by ±20%; slices a second or two long, taken in turns, agree within a few %.
// Run: npx tsx test/bench/side-by-side.ts <list|read|create> --before DIR [--after DIR] [--slices 20]
//      [--seconds 2] [--warmup 3]
// DIR is a built checkout (dist/mock/cli.js); --after defaults to this one. Prints each build's µs per request
// (user + sys of the server over its slices, from /proc), req/s, the ratio of the totals and the median ratio
// of the slice pairs, and the load average.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { autocannon, type CannonRequest } from './cannon.js';
import { createSequence } from './varied-create.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const AUTH = { authorization: 'Bearer bench' };
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: ROOT },
    slices: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '3' },
  },
});
const [route = 'list'] = positionals;
if (!['list', 'read', 'create'].includes(route)) throw new Error(`unknown route ${route}`);
if (!values.before) throw new Error('--before DIR: a built checkout to compare with');

const { scripts } = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: { start: string } };
const [command, ...startArgs] = scripts.start.split(' ');
if (command !== 'node') throw new Error(`npm start runs ${command}, not node: update the bench`);

interface Build {
  name: string;
  child: ChildProcess;
  url: string;
  passId: string;
  cpuUs: number;
  responses: number;
  non2xx: number;
  slices: number[];
}

const builds: Build[] = [];
process.on('exit', () => {
  for (const { child } of builds) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

let nextPort = 20000 + Math.floor(Math.random() * 20000);
/** Starts one build: what `npm start` runs in its checkout (a port added), or the floor with `env`'s body sizes. */
function start(name: string, dir: string, env: Record<string, string> = {}): Build {
  const port = nextPort++;
  const floor = ['--import', 'tsx', 'test/bench/floor-server.ts'];
  const child = spawn(process.execPath, dir === 'floor' ? floor : [...startArgs, '--port', String(port)], {
    cwd: dir === 'floor' ? ROOT : dir,
    env: { ...process.env, ...env, PORT: String(port), FLOOR: 'http' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.resume();
  child.stderr!.resume();
  const url = `http://127.0.0.1:${port}`;
  const build = { name, child, url, passId: '', cpuUs: 0, responses: 0, non2xx: 0, slices: [] };
  builds.push(build);
  return build;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits for a build's first list, and keeps the id of a pass it lists (the floor lists none: any id does). */
async function listening(build: Build): Promise<void> {
  for (let i = 0; ; i++) {
    if (build.child.exitCode !== null || i > 1500) throw new Error(`${build.name} did not start`);
    try {
      const res = await fetch(`${build.url}/members/mbr_bench/passes`, { headers: AUTH });
      const text = await res.text();
      if (res.status === 200) {
        const listed = (JSON.parse(text) as { data?: unknown }).data;
        build.passId = (Array.isArray(listed) ? (listed[0] as { id?: string })?.id : undefined) ?? 'pas_x';
        return;
      }
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
}

if (values.after === 'floor') throw new Error('--after floor: give the floor as --before');
const ours = start('after', values.after!);
await listening(ours);
// The floor answers bodies of the sizes ours sends (one create to a member the load never uses, for its size).
const sizeOf = async (path: string, init: { method?: string; body?: string } = {}) => {
  const type: Record<string, string> = init.body === undefined ? {} : { 'content-type': 'application/json' };
  const res = await fetch(`${ours.url}${path}`, { ...init, headers: { ...AUTH, ...type } });
  return String(Buffer.byteLength(await res.text()));
};
const sizes: Record<string, string> =
  values.before === 'floor'
    ? {
        BODY_LIST: await sizeOf('/members/mbr_bench/passes'),
        BODY_READ: await sizeOf(`/members/mbr_bench/passes/${ours.passId}`),
        BODY_CREATE: await sizeOf('/members/mbr_sizing/credentials', { method: 'POST', body: '{"kind":"pin"}' }),
      }
    : {};
await listening(start(values.before === 'floor' ? 'floor' : 'before', values.before, sizes));
builds.reverse();

/** The same sequence of creates for both: each build gets its own, from the same seed. */
const sequences = new Map(builds.map((b) => [b, createSequence(undefined)]));
const requestOf = (build: Build) =>
  route === 'create'
    ? { method: 'POST', setupRequest: (built: CannonRequest) => ({ ...built, ...sequences.get(build)!.next() }) }
    : {
        method: 'GET',
        path: route === 'list' ? '/members/mbr_bench/passes' : `/members/mbr_bench/passes/${build.passId}`,
      };
const headers = route === 'create' ? { ...AUTH, 'content-type': 'application/json' } : AUTH;
const load = (build: Build, seconds: number) =>
  autocannon({ url: build.url, headers, connections: 50, duration: seconds, requests: [requestOf(build)] });

/** CPU time a process has used, user and sys, in µs (from clock ticks of 10 ms). */
function cpuUsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

for (const build of builds) await load(build, Number(values.warmup));
const loadBefore = loadavg()[0]!;
const slices = Number(values.slices);
for (let i = 0; i < slices; i++) {
  const order = i % 2 === 0 ? builds : [...builds].reverse();
  for (const build of order) {
    const cpu = cpuUsOf(build.child.pid!);
    const result = await load(build, Number(values.seconds));
    const used = cpuUsOf(build.child.pid!) - cpu;
    build.cpuUs += used;
    build.responses += result.requests.total;
    build.non2xx += result.non2xx;
    build.slices.push(used / result.requests.total);
  }
}
const loadAfter = loadavg()[0]!;

const [before, after] = builds as [Build, Build];
const perRequest = (b: Build) => b.cpuUs / b.responses;
const reqPerS = (b: Build) => b.responses / (slices * Number(values.seconds));
const pairs = before.slices.map((us, i) => after.slices[i]! / us).sort((a, b) => a - b);
const median = pairs[Math.floor(pairs.length / 2)]!;
console.log(
  `${route}: ${slices} slices of ${values.seconds} s each, in turns; load average ${loadBefore.toFixed(1)} → ` +
    `${loadAfter.toFixed(1)}`,
);
for (const b of builds)
  console.log(
    `  ${b.name.padEnd(6)} ${perRequest(b).toFixed(1).padStart(6)} µs/req  ${reqPerS(b).toFixed(0).padStart(6)} req/s` +
      `  (${b.responses} responses, ${b.non2xx} non-2xx)`,
  );
console.log(
  `  ${after.name}/${before.name}: ${(perRequest(after) / perRequest(before)).toFixed(3)} (totals), ${median.toFixed(3)} ` +
    `(median of the slice pairs; middle half ${pairs[Math.floor(pairs.length / 4)]!.toFixed(2)}–` +
    `${pairs[Math.floor((3 * pairs.length) / 4)]!.toFixed(2)})`,
);
process.exit(0);
