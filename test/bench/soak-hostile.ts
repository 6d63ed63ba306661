// A hostile soak: the CLI with its defaults, hit at full speed by a mix of the attacks of issue 11 for
// MINUTES (default 3), while a probe times GET /__mock/health. Prints RSS every 10 s, health latency and the
// answers each attack got, then stops the mock with SIGTERM while a client sends its body slowly.
// Prints figures; asserts nothing. Run: npm run soak:hostile (MINUTES=1 for a short run).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

const MINUTES = Number(process.env.MINUTES ?? 3);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CEILING_MB = 512;
const TIMEOUT = 20_000;

// The mock runs as `npm start` runs it (with its heap size); NODE_FLAGS replaces those flags (NODE_FLAGS=' '
// for V8's defaults, or --cpu-prof to see what the attacks cost it).
const START_FLAGS = /node (.*?) ?dist\/mock\/cli\.js/.exec(
  (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } })
    .scripts.start,
)![1]!;
const nodeFlags = (process.env.NODE_FLAGS ?? START_FLAGS).split(' ').filter(Boolean);
const child = spawn(process.execPath, [...nodeFlags, 'dist/mock/cli.js', '--port', '0', '--log', 'off'], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let stdout = '';
let stderr = '';
child.stderr.on('data', (d: Buffer) => (stderr += d));
const url = await new Promise<string>((resolve, reject) => {
  child.stdout.on('data', (d: Buffer) => {
    stdout += d;
    const found = /at (http:\/\/\S+) /.exec(stdout);
    if (found) resolve(found[1]!);
  });
  child.once('exit', (code) => reject(new Error(`the mock exited with ${code}: ${stderr}`)));
});
let exited: number | null | undefined;
child.on('exit', (code) => (exited ??= code));
const { hostname, port } = new URL(url);
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Abort after this many ms (an abandoned long-poll). */
  abandonAfter?: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
function send({ method, path, headers = {}, body, abandonAfter }: Sent): Promise<number> {
  return new Promise((resolve) => {
    let timedOut = false;
    // An answer not whole after TIMEOUT counts as none (the server is stuck, or the request never ends).
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy();
    }, TIMEOUT);
    const settle = (status: number) => {
      clearTimeout(timer);
      resolve(status);
    };
    const req = request({ host: hostname, port, method, path, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => settle(res.statusCode!));
      res.on('close', () => settle(res.complete ? res.statusCode! : timedOut ? -3 : -1));
    });
    req.on('error', () => settle(timedOut ? -3 : abandonAfter === undefined ? 0 : -2));
    if (abandonAfter !== undefined) setTimeout(() => req.destroy(), abandonAfter);
    req.end(body);
  });
}

const AUTH = { Authorization: 'Bearer hostile' };
const JSON_TYPE = { 'Content-Type': 'application/json' };
let n = 0;
const next = () => ++n;
const pad = (json: string, size: number) => json.padEnd(size, ' ');
const arrayBody = `[${Array.from({ length: 21_600 }, () => '{}').join(',')}]`; // 64,801 bytes
const wide = JSON.stringify(
  Object.fromEntries([['kind', 'pin'], ...Array.from({ length: 6000 }, (_, i) => [`k${i}`, 1])]),
);
const longDate = JSON.stringify({ name: 'Gold', valid_from: `2026-01-01T00:00:00Z${'0'.repeat(65_000)}` });
const bigMatch = JSON.stringify({
  operationId: 'listPasses',
  status: 500,
  match: { query: { q: 'x'.repeat(200_000) } },
});
const deepMatch = `{"operationId":"listPasses","status":500,"match":{"body":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
const slashes = `/${'/'.repeat(15_000)}a`;
// Issue 26's attacks: waits holding 256 KiB matches, HAR exports of a full journal, HAR and state bombs, a
// pattern that backtracks (on a contract of its own, below), idle sockets and event streams that never read.
const waitBomb = JSON.stringify({ match: { body: Array.from({ length: 87_000 }, () => ({})) }, timeout: 60_000 });
const harBomb = `{"log":{"entries":[${Array(4_000_000).fill('0').join(',')}]}}`;
const stateBomb = JSON.stringify(
  Object.fromEntries(Array.from({ length: 999 }, (_, c) => [`/members/s${c}/passes`, Array(1000).fill({})])),
);

/** Each attack: one request as a hostile client would send it, with contract traffic and the admin API only. */
const attacks: Record<string, () => Sent> = {
  'array body 64 KiB': () => ({
    method: 'POST',
    path: `/members/a${next() % 1000}/credentials`,
    headers: { ...AUTH, ...JSON_TYPE },
    body: arrayBody,
  }),
  'wide body 6000 keys': () => ({
    method: 'POST',
    path: '/members/w1/credentials',
    headers: { ...AUTH, ...JSON_TYPE },
    body: wide,
  }),
  '65,000-char valid_from': () => ({
    method: 'POST',
    path: `/members/l${next() % 1000}/passes`,
    headers: { ...AUTH, ...JSON_TYPE },
    body: longDate,
  }),
  'largest valid creates': () => ({
    method: 'POST',
    path: `/members/m${next()}/passes`,
    headers: { ...AUTH, ...JSON_TYPE, 'X-Mock-Session': `fill-${n % 150}` },
    body: pad(JSON.stringify({ name: 'N'.repeat(100) }), 200),
  }),
  'reads of new members': () => ({ method: 'GET', path: `/members/r${next()}/passes`, headers: AUTH }),
  'GET /__mock/calls': () => ({ method: 'GET', path: '/__mock/calls' }),
  'abandoned long-polls': () => ({
    method: 'GET',
    path: `/__mock/calls/wait?timeout=60000&operationId=never`,
    headers: { 'X-Mock-Session': `wait-${next()}` },
    abandonAfter: 50,
  }),
  '401s naming new sessions': () => ({
    method: 'GET',
    path: '/members/m1/passes',
    headers: { 'X-Mock-Session': `stranger-${next()}` },
  }),
  'cross-site POST /__mock/reset': () => ({
    method: 'POST',
    path: '/__mock/reset',
    headers: { 'Content-Type': 'text/plain', Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
    body: 'x',
  }),
  'Host: evil.example': () => ({ method: 'GET', path: '/__mock/calls', headers: { Host: 'evil.example' } }),
  '15,000 slashes': () => ({ method: 'GET', path: slashes, headers: AUTH }),
  'override with 200 KB match': () => ({
    method: 'POST',
    path: '/__mock/overrides',
    headers: { ...JSON_TYPE, 'X-Mock-Session': `ov-${next() % 150}` },
    body: bigMatch,
  }),
  'override 100k deep': () => ({ method: 'POST', path: '/__mock/overrides', headers: JSON_TYPE, body: deepMatch }),
  'waits with 256 KiB matches': () => ({
    method: 'POST',
    path: '/__mock/calls/wait',
    headers: { ...JSON_TYPE, 'X-Mock-Session': `bomb-${next() % 100}` },
    body: waitBomb,
    abandonAfter: 5000,
  }),
  'HAR exports, 4 at once': () => ({ method: 'GET', path: '/__mock/calls.har' }),
  'HAR export 2': () => ({ method: 'GET', path: '/__mock/calls.har' }),
  'HAR export 3': () => ({ method: 'GET', path: '/__mock/calls.har' }),
  'HAR export 4': () => ({ method: 'GET', path: '/__mock/calls.har' }),
  'HAR of 4M entries (8 MiB)': () => ({
    method: 'POST',
    path: '/__mock/har',
    headers: { ...JSON_TYPE, 'X-Mock-Session': 'har' },
    body: harBomb,
  }),
  'state of 999k records': () => ({
    method: 'PUT',
    path: '/__mock/state',
    headers: { ...JSON_TYPE, 'X-Mock-Session': 'state' },
    body: stateBomb,
  }),
};

/** Sockets that connect and never send a request: the mock must free them (408) before they use up its files. */
async function idleSockets(count: number): Promise<number> {
  let freed = 0;
  while (Date.now() < deadline && exited === undefined) {
    const sockets = Array.from({ length: count }, () => connect(Number(port), hostname));
    await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<void>((resolve) => {
            socket.on('error', () => resolve());
            socket.on('close', () => resolve());
            socket.on('data', (d: Buffer) => {
              if (d.toString().startsWith('HTTP/1.1 408')) freed++;
            });
          }),
      ),
    );
  }
  return freed;
}

/** Event streams that are opened and never read: the inspector must still get one. */
async function streamHogs(count: number): Promise<{ hogs: number; inspector: number[] }> {
  const inspector: number[] = [];
  const hogs = Array.from({ length: count }, () =>
    request({ host: hostname, port, path: '/__mock/events' }, (res) => res.pause())
      .on('error', () => undefined)
      .end(),
  );
  while (Date.now() < deadline && exited === undefined) {
    const controller = new AbortController();
    const res = await fetch(`${url}/__mock/events`, { signal: controller.signal }).catch(() => undefined);
    inspector.push(res?.status ?? 0);
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  hogs.forEach((hog) => hog.destroy());
  return { hogs: count, inspector };
}

/** The mock's CPU time so far (user and system), in ms, from /proc. */
const cpuMs = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in ticks of 1/100 s
};
// Where a turn of the event loop goes: each attack alone, a few times in a row, and the mock's CPU per request.
// Under the soak, a turn serves about one request of every attacker, so a turn costs about their sum.
if (process.env.COSTS !== '0') {
  console.log("the mock's CPU per request, each attack alone (COSTS=0 skips this):");
  for (const [name, make] of Object.entries(attacks)) {
    const times = name.startsWith('HAR export') ? 2 : 10;
    const before = cpuMs();
    for (let i = 0; i < times; i++) await send(make());
    console.log(`  ${name.padEnd(32)} ${((cpuMs() - before) / times).toFixed(1).padStart(8)} ms`);
  }
}

const counts: Record<string, Record<number, number>> = {};
const deadline = Date.now() + MINUTES * 60_000;
async function attacker(name: string, make: () => Sent): Promise<void> {
  const tally: Record<number, number> = (counts[name] = {});
  while (Date.now() < deadline && exited === undefined) {
    const status = await send(make());
    tally[status] = (tally[status] ?? 0) + 1;
  }
}

// The probe runs in a process of its own, so its figures are the mock's latency, not this busy client's.
const PROBE = `
const [host, port, until] = process.argv.slice(1);
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const once = () => new Promise((resolve) => {
  const start = performance.now();
  const req = http.get({ host, port, path: '/__mock/health', agent }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - start : -1));
  });
  req.on('error', () => resolve(-1));
});
(async () => {
  while (Date.now() < Number(until)) {
    const ms = await once();
    if (ms >= 0) process.stdout.write(ms.toFixed(2) + '\\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
})();
`;
const health: number[] = [];
/** The mock's event-loop delay p99 of each 10 s window, as its health says. */
const loopP99: number[] = [];
let window: number[] = [];
async function probe(): Promise<void> {
  const prober = spawn(process.execPath, ['-e', PROBE, hostname, port, String(deadline)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let pending = '';
  prober.stdout.on('data', (d: Buffer) => {
    pending += d;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      health.push(Number(line));
      window.push(Number(line));
    }
  });
  await once(prober, 'exit');
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;
};
const started = Date.now();
const rss: number[] = [rssMb()];
console.log(
  `hostile soak: ${MINUTES} min against ${url} (defaults; node ${nodeFlags.join(' ') || 'with V8 defaults'}), ` +
    `${Object.keys(attacks).length} attacks at once`,
);
console.log('   s   RSS MB   heap MB   journal MB   loop delay p99 ms   health p50 / p99 ms   requests so far');
/**
 * The mock's own account (GET /__mock/health): heap in use and what its journal holds, in MB, and how late its
 * event loop ran (p99 over its last 10 s): a health probe much slower than that waited for the machine, not the mock.
 */
async function heapAndJournal(): Promise<string> {
  try {
    const res = await fetch(`${url}/__mock/health`);
    const { memory, eventLoop } = (await res.json()) as {
      memory: { heapUsed: number; journal: number };
      eventLoop: { p99: number };
    };
    const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0).padStart(7);
    loopP99.push(eventLoop.p99);
    return `${mb(memory.heapUsed)}   ${mb(memory.journal)}   ${eventLoop.p99.toFixed(1).padStart(12)}`;
  } catch {
    return `${'?'.padStart(7)}   ${'?'.padStart(7)}   ${'?'.padStart(12)}`;
  }
}

const sampler = setInterval(async () => {
  if (exited !== undefined) return;
  const mb = rssMb();
  rss.push(mb);
  const done = Object.values(counts).reduce((sum, t) => sum + Object.values(t).reduce((a, b) => a + b, 0), 0);
  const [p50, p99] = [quantile(window, 0.5), quantile(window, 0.99)];
  window = [];
  const own = await heapAndJournal();
  console.log(
    `${String(Math.round((Date.now() - started) / 1000)).padStart(4)}   ${mb.toFixed(0).padStart(6)}   ${own}   ` +
      `${p50.toFixed(1).padStart(10)} / ${p99.toFixed(1).padEnd(8)}   ${done}`,
  );
}, 10_000);

const [, , freed, streams] = await Promise.all([
  Promise.all(Object.entries(attacks).map(([name, make]) => attacker(name, make))),
  probe(),
  idleSockets(200),
  streamHogs(150),
]);
clearInterval(sampler);
const openedStreams = streams.inspector.filter((status) => status === 200).length;
console.log(
  `\nidle sockets answered 408 and freed: ${freed}; the inspector's stream beside ${streams.hogs} that never read: ` +
    `${openedStreams} of ${streams.inspector.length} opened`,
);

console.log(
  '\nanswers per attack (status: count; 0 = connection error, -1 = answer cut off, -2 = abandoned by the client, ' +
    '-3 = no whole answer in 20 s):',
);
for (const [name, tally] of Object.entries(counts)) {
  const total = Object.values(tally).reduce((a, b) => a + b, 0);
  const parts = Object.entries(tally).map(([status, count]) => `${status}: ${count}`);
  console.log(`  ${name.padEnd(32)} ${String(total).padStart(7)}   ${parts.join(', ')}`);
}
const maxRss = Math.max(...rss);
const p99 = quantile(health, 0.99);
console.log(
  `\nRSS max ${maxRss.toFixed(0)} MB (start ${rss[0]!.toFixed(0)} MB, end ${rss.at(-1)!.toFixed(0)} MB); ` +
    `health ${health.length} probes, p50 ${quantile(health, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, ` +
    `max ${Math.max(...health).toFixed(1)} ms; the mock's event-loop delay p99 per 10 s: ` +
    `median ${quantile(loopP99, 0.5).toFixed(1)} ms, worst ${Math.max(...loopP99).toFixed(1)} ms`,
);

// The last row: SIGTERM while a client sends its body slowly.
agent.destroy();
const slow = connect(Number(port), hostname);
await once(slow, 'connect');
slow.on('error', () => undefined);
slow.write(
  'POST /members/m1/passes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer t\r\n' +
    'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
);
const stopAt = Date.now();
const crashed = exited !== undefined;
child.kill('SIGTERM');
const [code] = crashed ? [exited] : await once(child, 'exit');
slow.destroy();
const said = /cut off .*/.exec(stdout)?.[0] ?? '(nothing cut off)';
console.log(`SIGTERM with a slow-body client: exit ${code} after ${Date.now() - stopAt} ms; "${said}"`);
console.log(
  `goals: crashes ${crashed ? 1 : 0} (0), RSS max ${maxRss.toFixed(0)} MB (<= ${CEILING_MB}): ` +
    `${maxRss <= CEILING_MB ? 'met' : 'NOT met'}, health p99 ${p99.toFixed(1)} ms (<= 100): ` +
    `${p99 <= 100 ? 'met' : 'NOT met'}, stop exit ${code} (0)`,
);
if (stderr.trim()) console.log(`mock stderr:\n${stderr.trim().slice(0, 2000)}`);
