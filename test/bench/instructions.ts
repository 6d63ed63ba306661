// Instructions per request of one route, counted by valgrind's callgrind: a count, not a time, so it does not
// depend on what else the machine does (the CPU time of the same load moved ±40% between runs on a shared
// machine). It still moves by up to ±10% between runs, with where the garbage collector's cycles fall (its
// threads are counted too): compare several runs, or a longer count (--requests).
// The server runs as `npm start` runs it (its node flags, default limits, the pretty log line, here to /dev/null)
// under callgrind with instrumentation off; a warm-up of 2N requests, then N counted for the code to be seen
// again (discarded), then N counted and reported. Every thread of the server is counted (the collector's too).
// Needs valgrind (Debian's package). Prints figures; asserts nothing.
// Run: npx tsx test/bench/instructions.ts <list|read|create> [--root DIR | --floor] [--requests 10000]
//      [-- ARGS for our CLI]
// --root counts another built checkout (a before and after: run both, they may run at once on 2 cores);
// --floor counts the bench's bare node:http floor (test/bench/floor-server.ts) sending the same bytes.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
const valgrind = ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`, '--smc-check=all-non-file'];
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
const total = Number(/^totals: (\d+)$/m.exec(readFileSync(`${out}.2`, 'utf8'))?.[1]);
const who = values.floor ? 'floor (node:http)' : values.root;
console.log(
  `${route} ${who}: ${(total / N / 1000).toFixed(1)}k instructions a request ` +
    `(${N} requests counted, ${counted.non2xx} not 2xx)`,
);
process.exit(0);
