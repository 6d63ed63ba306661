// Creates per second and p99 latency with the state in memory, in a SQLite state file, and shared through Redis
// (`--store`) by one replica and by two (the load split between them). Prints a table; asserts nothing.
// Run: npm run build && npm run bench:redis (DURATION=seconds, CONNECTIONS=per replica; Debian's redis-server).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: autocannon ships no types and @types/autocannon is not installed; typed locally below.
import autocannonUntyped from 'autocannon';
import { freePort } from '../support/free-port.js';
import { RedisServer } from '../support/redis-server.js';

const DURATION = Number(process.env.DURATION ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 20);
const CLI = fileURLToPath(new URL('../../dist/mock/cli.js', import.meta.url));
const HEADERS = { authorization: 'Bearer bench', 'content-type': 'application/json' };

interface Result {
  requests: { total: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
}
const autocannon = autocannonUntyped as (options: object) => Promise<Result>;

async function startMock(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const flags = ['--port', String(port), '--log', 'off', '--no-watch', '--collection-limit', '10000000'];
  const child = spawn(process.execPath, [CLI, ...flags, '--state-bytes', '1GB', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (/ at http:\/\//.test(out)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the mock exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** Creates against every replica at once, for DURATION seconds: creates per second in all, the worst p99. */
async function creates(urls: string[]): Promise<{ perSecond: number; p99: number; failed: number }> {
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({
        url: `${url}/members/bench/passes`,
        method: 'POST',
        headers: HEADERS,
        body: '{}',
        connections: CONNECTIONS,
        duration: DURATION,
      }),
    ),
  );
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  const failed = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  return { perSecond: Math.round(total / DURATION), p99: Math.max(...results.map((r) => r.latency.p99)), failed };
}

async function run(name: string, argsOf: (i: number) => string[], replicas: number): Promise<string> {
  const mocks = await Promise.all(Array.from({ length: replicas }, (_, i) => startMock(argsOf(i))));
  try {
    const { perSecond, p99, failed } = await creates(mocks.map((m) => m.url));
    return `| ${name} | ${replicas} | ${perSecond} | ${p99} | ${failed} |`;
  } finally {
    for (const { child } of mocks) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
}

const redis = await RedisServer.start();
const dir = await mkdtemp(join(tmpdir(), 'bench-redis-'));
try {
  const rows = [
    await run('memory', () => [], 1),
    await run('sqlite (--state-file)', () => ['--state-file', join(dir, 'state.db')], 1),
    await run('redis (--store)', () => ['--store', `${redis.url}?prefix=one:`], 1),
    await run('redis (--store)', () => ['--store', `${redis.url}?prefix=two:`], 2),
  ];
  console.log(`creates (POST {}), ${CONNECTIONS} connections per replica, ${DURATION} s, Node ${process.version}`);
  console.log('| store | replicas | creates/s | p99 ms | failed |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
} finally {
  await redis.stop();
}
