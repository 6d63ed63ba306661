// What the proxy costs: the latency it adds (mean and p99, one connection at a time) and its throughput (50
// connections), against calling the same backend directly, side by side in one run. The mock runs as the CLI
// with its defaults (journal on, answers checked), as `npm start -- --proxy URL` runs it. Prints figures,
// asserts nothing. Run: npm run bench:proxy
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: autocannon ships no types and @types/autocannon is not installed; typed locally below.
import autocannonUntyped from 'autocannon';

const DURATION = Number(process.env.DURATION ?? 5);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const AUTH = { authorization: 'Bearer bench', 'content-type': 'application/json' };

interface CannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}
const autocannon = autocannonUntyped as (options: object) => Promise<CannonResult>;

/** The backend, in a process of its own: a list page and a create, answered as a real service would. */
const BACKEND = `
const http = require('node:http');
const pass = { id: 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M', member_id: 'mbr_1', name: 'Gold', status: 'active',
  valid_from: '2026-01-05T09:30:00Z', valid_until: null, created_at: '2026-01-05T09:30:00Z' };
const list = JSON.stringify({ data: Array.from({ length: 5 }, () => pass), next_cursor: null });
const one = JSON.stringify(pass);
http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const body = req.method === 'POST' ? one : list;
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end(body);
  });
}).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });
`;

async function start(command: string, args: string[], ready: RegExp): Promise<{ child: ChildProcess; out: string }> {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const keep = (chunk: Buffer): void => {
    out += chunk;
  };
  child.stdout!.on('data', keep);
  while (!ready.test(out)) {
    const [exited] = await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => ['exit'])]);
    if (exited === 'exit') throw new Error(`${command} exited: ${out}`);
  }
  // Read on (the mock logs a line per request, as npm start does), but keep none of it.
  child.stdout!.off('data', keep);
  child.stdout!.resume();
  return { child, out };
}

async function measure(url: string, method: 'GET' | 'POST', connections: number): Promise<CannonResult> {
  const body = method === 'POST' ? '{"name":"Gold"}' : undefined;
  return autocannon({ url, method, body, headers: AUTH, connections, duration: DURATION });
}

const backend = await start(process.execPath, ['-e', BACKEND], /^\d+\n/);
const upstream = `http://127.0.0.1:${backend.out.trim()}`;
const mock = await start(
  process.execPath,
  ['--max-old-space-size=512', 'dist/mock/cli.js', '--port', '0', '--no-watch', '--proxy', upstream],
  /serving .* at (http:\/\/[\d.:]+)/,
);
const mockUrl = /serving .* at (http:\/\/[\d.:]+)/.exec(mock.out)![1]!;
try {
  const rows: string[][] = [];
  for (const [route, method, path] of [
    ['list', 'GET', '/members/mbr_1/passes'],
    ['create', 'POST', '/members/mbr_1/passes'],
  ] as const) {
    // Warm both (the mock's plans, the connections kept alive), then side by side.
    await measure(`${upstream}${path}`, method, 10);
    await measure(`${mockUrl}${path}`, method, 10);
    for (const connections of [1, 50]) {
      const direct = await measure(`${upstream}${path}`, method, connections);
      const proxied = await measure(`${mockUrl}${path}`, method, connections);
      if (proxied.non2xx || proxied.errors)
        throw new Error(`${route}: ${proxied.non2xx} non-2xx, ${proxied.errors} errors`);
      rows.push([
        route,
        String(connections),
        direct.requests.average.toFixed(0),
        proxied.requests.average.toFixed(0),
        (proxied.requests.average / direct.requests.average).toFixed(2),
        `${direct.latency.average.toFixed(2)} / ${direct.latency.p99}`,
        `${proxied.latency.average.toFixed(2)} / ${proxied.latency.p99}`,
        `${(proxied.latency.average - direct.latency.average).toFixed(2)} / ${proxied.latency.p99 - direct.latency.p99}`,
      ]);
    }
  }
  const head = [
    'route',
    'conns',
    'direct req/s',
    'proxied req/s',
    'ratio',
    'direct mean/p99 ms',
    'proxied mean/p99 ms',
    'added mean/p99 ms',
  ];
  console.log(`proxy bench: ${DURATION} s a measurement, the mock as the CLI runs it (journal on, answers checked)\n`);
  console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
} finally {
  mock.child.kill('SIGTERM');
  backend.child.kill('SIGTERM');
}
