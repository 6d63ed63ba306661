// Instructions per request of one route, counted by valgrind's callgrind: a count, not a time, so it does not
// depend on what else the machine does (the CPU time of the same load moved ±40% between runs on a shared
// machine). Threads are counted apart: the main thread's count moves by a few percent between runs, the
// helpers' (the garbage collector's marking and sweeping) by far more; compare several runs, or a longer count
// (--requests).
// The server runs as `npm start` runs it (its node flags, default limits, the pretty log line, here to /dev/null)
// under callgrind with instrumentation off; a warm-up of 2N requests, then N counted for the code to be seen
// again (discarded), then N counted and reported, the main thread and the others apart.
// Needs valgrind (Debian's package). Prints figures; asserts nothing.
// Run: npx tsx test/bench/instructions.ts <list|read|create> [--root DIR | --floor] [--requests 10000]
//      [--keep FILE] [-- ARGS for our CLI]
// --keep copies the main thread's counted part to FILE, for `callgrind_annotate FILE` (native code by symbol;
// JavaScript compiled at run time shows as ???).
// --root counts another built checkout (a before and after: run both, they may run at once on 2 cores);
// --floor counts the bench's bare node:http floor (test/bench/floor-server.ts) sending the same bytes.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { autocannon, type CannonRequest } from './cannon.js';
import { createSequence } from './varied-create.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const AUTH = { authorization: 'Bearer bench' };
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    root: { type: 'string', default: ROOT },
    floor: { type: 'boolean', default: false },
    requests: { type: 'string', default: '10000' },
    keep: { type: 'string' },
  },
});
const [route = 'list', ...cliArgs] = positionals;
if (!['list', 'read', 'create'].includes(route)) throw new Error(`unknown route ${route}`);
const N = Number(values.requests);
try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  throw new Error('valgrind is not installed (apt-get install valgrind)');
}

const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});
// The start script of the checkout counted: a build from before may have run with other node flags.
const { scripts } = JSON.parse(readFileSync(`${values.root}/package.json`, 'utf8')) as { scripts: { start: string } };
const [, ...startArgs] = scripts.start.split(' ');
const dir = mkdtempSync(join(tmpdir(), 'instructions-'));
const out = join(dir, 'callgrind.out');
const valgrind = [
  '--tool=callgrind',
  '--instr-atstart=no',
  `--callgrind-out-file=${out}`,
  '--smc-check=all-non-file',
  '--separate-threads=yes',
];
// The floor's bodies are the sizes ours sends: a list of three passes, one pass, one credential.
const target = values.floor
  ? ['--import', 'tsx', 'test/bench/floor-server.ts']
  : [...startArgs, '--port', String(port), ...cliArgs];
const child = spawn('valgrind', [...valgrind, process.execPath, ...target], {
  cwd: values.floor ? ROOT : values.root,
  env: { ...process.env, PORT: String(port), BODY_LIST: '668', BODY_READ: '203', BODY_CREATE: '157' },
  stdio: 'ignore',
});
process.on('exit', () => {
  child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const url = `http://127.0.0.1:${port}`;
let passId = 'pas_x';
for (let i = 0; ; i++) {
  if (child.exitCode !== null || i > 1200) throw new Error('the server did not start under valgrind');
  try {
    const res = await fetch(`${url}/members/mbr_bench/passes`, { headers: AUTH });
    const text = await res.text();
    if (res.status === 200) {
      if (!values.floor) passId = (JSON.parse(text) as { data: { id: string }[] }).data[0]?.id ?? passId;
      break;
    }
  } catch {
    // not listening yet
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}

// Creates go to 200 members in turn (each seen in the warm-up), with the bench's varied bodies.
const sequence = createSequence(200);
const request =
  route === 'create'
    ? { method: 'POST', setupRequest: (built: CannonRequest) => ({ ...built, ...sequence.next() }) }
    : { method: 'GET', path: route === 'list' ? '/members/mbr_bench/passes' : `/members/mbr_bench/passes/${passId}` };
const headers = route === 'create' ? { ...AUTH, 'content-type': 'application/json' } : AUTH;
const load = (amount: number) => autocannon({ url, headers, connections: 10, amount, requests: [request] });
const control = (...args: string[]) =>
  execFileSync('callgrind_control', [...args, String(child.pid)], { stdio: 'ignore' });

await load(2 * N);
control('-i', 'on');
await load(N);
control('-d');
const counted = await load(N);
control('-d');
// One file per thread (`callgrind.out.2-01` is the main thread): the main thread's count is what a request
// costs where requests wait; the others are V8's helpers (concurrent marking and sweeping), whose share under
// valgrind is far above their share of a real run's CPU (time-driven GC heuristics fire 50 times as often).
const threads = readdirSync(dir)
  .filter((name) => name.startsWith('callgrind.out.2-'))
  .sort()
  .map((name) => Number(/^totals: (\d+)$/m.exec(readFileSync(join(dir, name), 'utf8'))?.[1] ?? 0));
if (values.keep) copyFileSync(join(dir, 'callgrind.out.2-01'), values.keep);
const [main = 0, ...helpers] = threads;
const others = helpers.reduce((sum, n) => sum + n, 0);
const who = values.floor ? 'floor (node:http)' : values.root;
const k = (n: number) => `${(n / N / 1000).toFixed(1)}k`;
console.log(
  `${route} ${who}: ${k(main)} instructions a request on the main thread, ${k(others)} on other threads ` +
    `(${N} requests counted, ${counted.non2xx} not 2xx)`,
);
process.exit(0);
