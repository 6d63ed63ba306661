// A soak run: the CLI with its defaults under steady mixed traffic (create, list, read, delete across
// members) for MINUTES, sampling its RSS. Prints figures; asserts nothing. Run: npm run soak
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';

const MINUTES = Number(process.env.MINUTES ?? 2);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 20);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const child = spawn(process.execPath, ['dist/mock/cli.js', '--port', '0'], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve) => {
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d;
    const found = /at (http:\/\/\S+) /.exec(out);
    if (found) resolve(found[1]!);
    if (out.length > 1_000_000) out = '';
  });
});
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
const send = (method: string, path: string, body?: string) =>
  new Promise<{ status: number; text: string }>((resolve) => {
    const req = request(
      `${url}${path}`,
      {
        method,
        agent,
        headers: { Authorization: 'Bearer soak', ...(body ? { 'Content-Type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on('error', () => resolve({ status: 0, text: '' }));
    req.end(body);
  });

let requests = 0;
let failures = 0;
const deadline = Date.now() + MINUTES * 60_000;
const samples: { minute: number; rss: number }[] = [];
const started = Date.now();
const before = rssMb();
const sampler = setInterval(() => samples.push({ minute: (Date.now() - started) / 60_000, rss: rssMb() }), 10_000);

async function worker(n: number): Promise<void> {
  for (let i = 0; Date.now() < deadline; i++) {
    const member = `soak_${(n * 7 + i) % 200}`;
    const created = await send('POST', `/members/${member}/passes`, '{"name":"Soak"}');
    const id = created.status === 201 ? (JSON.parse(created.text) as { id: string }).id : undefined;
    const steps = [
      await send('GET', `/members/${member}/passes`),
      ...(id
        ? [
            await send('GET', `/members/${member}/passes/${id}`),
            await send('DELETE', `/members/${member}/passes/${id}`),
          ]
        : []),
    ];
    requests += 1 + steps.length;
    failures += [created, ...steps].filter((r) => r.status === 0 || r.status >= 500).length;
  }
}
await Promise.all(Array.from({ length: CONNECTIONS }, (_, n) => worker(n)));
clearInterval(sampler);
const after = rssMb();
child.kill('SIGTERM');
agent.destroy();

console.log(
  `soak: ${requests} requests in ${MINUTES} min over ${CONNECTIONS} connections, ${failures} failures (5xx or dropped)`,
);
console.log(
  `RSS before ${before.toFixed(1)} MB, after ${after.toFixed(1)} MB, ` +
    `max ${Math.max(...samples.map((s) => s.rss), after).toFixed(1)} MB`,
);
console.log(`RSS by time: ${samples.map((s) => `${s.minute.toFixed(1)}m ${s.rss.toFixed(0)}MB`).join(', ')}`);
