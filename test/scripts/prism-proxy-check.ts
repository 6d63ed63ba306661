// Puts Prism's validating proxy (prism-cli 5.14.2, --errors) in front of the mock, drives all seven
// operations through it and prints what it saw. Exits 1 on any violation. Run: npm run check:proxy
import { spawn } from 'node:child_process';
import { DEFAULT_CONTRACT, startMock } from '../../mock/index.js';
import { freePort } from '../support/free-port.js';

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const AUTH = { Authorization: 'Bearer proxy-check' };
const JSON_BODY = { ...AUTH, 'Content-Type': 'application/json' };

const mock = await startMock({ seed: 'proxy-check' });
const port = await freePort();
const prism = spawn(
  'npx',
  [
    '-y',
    '@stoplight/prism-cli@5.14.2',
    'proxy',
    '--errors',
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    DEFAULT_CONTRACT,
    mock.url,
  ],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
let prismLog = '';
prism.stdout.on('data', (d) => (prismLog += d));
prism.stderr.on('data', (d) => (prismLog += d));
const proxy = `http://127.0.0.1:${port}`;

const deadline = Date.now() + 120_000;
for (;;) {
  const up = await fetch(`${proxy}/members/warmup/passes`, { headers: AUTH }).then(
    () => true,
    () => false,
  );
  if (up) break;
  if (Date.now() > deadline || prism.exitCode !== null) {
    console.error(`Prism's proxy did not start:\n${prismLog}`);
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 500));
}
mock.reset();

type Step = { id: string; method: string; path: string; body?: unknown; expect: number };
type Answer = { status: number; body: unknown; violations: string | null };

const rows = new Map<string, { requests: number; ok: number; violations: string[] }>();
async function call(step: Step): Promise<Answer> {
  const res = await fetch(`${proxy}${step.path}`, {
    method: step.method,
    headers: step.body ? JSON_BODY : AUTH,
    body: step.body ? JSON.stringify(step.body) : undefined,
  });
  const text = await res.text();
  const answer = {
    status: res.status,
    body: text ? (JSON.parse(text) as unknown) : undefined,
    violations: res.headers.get('sl-violations'),
  };
  const row = rows.get(step.id) ?? { requests: 0, ok: 0, violations: [] };
  rows.set(step.id, row);
  row.requests++;
  if (answer.violations) row.violations.push(`${step.method} ${step.path}: ${answer.violations}`);
  else if (answer.status === step.expect) row.ok++;
  else row.violations.push(`${step.method} ${step.path}: status ${answer.status}, expected ${step.expect}`);
  return answer;
}

// The mock keeps state, so each round reads and deletes what it created.
for (let i = 0; i < ROUNDS; i++) {
  const m = `mbr_${i % 5}`;
  await call({ id: 'listPasses', method: 'GET', path: `/members/${m}/passes?limit=${(i % 100) + 1}`, expect: 200 });
  const pass = await call({
    id: 'createPass',
    method: 'POST',
    path: `/members/${m}/passes`,
    body: i % 2 ? {} : { name: `Pass ${i}`, valid_until: null },
    expect: 201,
  });
  const passId = (pass.body as { id?: string } | undefined)?.id ?? 'missing';
  await call({ id: 'getPass', method: 'GET', path: `/members/${m}/passes/${passId}`, expect: 200 });
  await call({ id: 'deletePass', method: 'DELETE', path: `/members/${m}/passes/${passId}`, expect: 204 });
  await call({ id: 'getPass', method: 'GET', path: `/members/${m}/passes/${passId}`, expect: 404 });
  await call({ id: 'listCredentials', method: 'GET', path: `/members/${m}/credentials`, expect: 200 });
  const credential = await call({
    id: 'createCredential',
    method: 'POST',
    path: `/members/${m}/credentials`,
    body: { kind: ['pin', 'card', 'mobile'][i % 3], ...(i % 2 ? { label: 'Desk' } : {}) },
    expect: 201,
  });
  const credentialId = (credential.body as { id?: string } | undefined)?.id ?? 'missing';
  await call({
    id: 'deleteCredential',
    method: 'DELETE',
    path: `/members/${m}/credentials/${credentialId}`,
    expect: 204,
  });
  await call({
    id: 'deleteCredential',
    method: 'DELETE',
    path: `/members/${m}/credentials/${credentialId}`,
    expect: 404,
  });
}
prism.kill('SIGTERM');
await mock.close();

console.log(`Prism 5.14.2 proxy --errors in front of the mock, ${ROUNDS} rounds of the seven operations`);
console.log('operation          requests  as expected  violations');
let total = 0;
for (const [id, row] of rows) {
  console.log(
    `${id.padEnd(18)} ${String(row.requests).padStart(8)}  ` +
      `${String(row.ok).padStart(11)}  ${String(row.violations.length).padStart(10)}`,
  );
  total += row.violations.length;
}
for (const row of rows.values()) for (const v of row.violations) console.log(`  ${v}`);
console.log(total === 0 ? 'no violation' : `${total} violations`);
process.exit(total === 0 ? 0 : 1);
