// Puts Prism's validating proxy (prism-cli 5.14.2, --errors) in front of the mock, drives all seven
// operations through it and prints what it saw. Exits 1 on any violation. Run: npm run check:proxy
// Everything it starts stops when it ends: on success, on failure, and on Ctrl-C or SIGTERM.
import { spawn } from 'node:child_process';
import { DEFAULT_CONTRACT, startMock } from '../../mock/index.js';
import { freePort } from '../support/free-port.js';

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const AUTH = { Authorization: 'Bearer proxy-check' };
const JSON_BODY = { ...AUTH, 'Content-Type': 'application/json' };
/** How long Prism has to stop on SIGTERM before it is killed. */
const STOP_GRACE = 5000;

const mock = await startMock({ seed: 'proxy-check' });
const port = await freePort();
// npx runs Prism as a child of its own: killing npx alone left Prism serving. Detached, npx and Prism form a
// process group of their own, which is stopped as a whole. --prefer-offline: a cached Prism needs no network.
const prism = spawn(
  'npx',
  [
    '--prefer-offline',
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
  { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
);
const group = prism.pid!;
let prismLog = '';
prism.stdout.on('data', (d) => (prismLog += d));
prism.stderr.on('data', (d) => (prismLog += d));
const proxy = `http://127.0.0.1:${port}`;

/** Whether any process of Prism's group is still running. */
function prismRunning(): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

function signalPrism(signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // The group is gone already.
  }
}

let stopping: Promise<void> | undefined;
/** Stops Prism's whole group (SIGTERM, then SIGKILL past the grace) and the mock; once, whoever asks first. */
function stopAll(): Promise<void> {
  return (stopping ??= (async () => {
    signalPrism('SIGTERM');
    const deadline = Date.now() + STOP_GRACE;
    while (prismRunning() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (prismRunning()) signalPrism('SIGKILL');
    await mock.close();
  })());
}

// The last resort, should the script end another way (an uncaught error): the exit handler must be synchronous.
process.on('exit', () => signalPrism('SIGKILL'));
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping Prism and the mock`);
    void stopAll().finally(() => process.exit(code));
  });
}

/** Waits until Prism's proxy answers; false when it does not start in time. */
async function waitForProxy(): Promise<boolean> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const up = await fetch(`${proxy}/members/warmup/passes`, { headers: AUTH }).then(
      () => true,
      () => false,
    );
    if (up) return true;
    if (Date.now() > deadline || prism.exitCode !== null) return false;
    await new Promise((r) => setTimeout(r, 500));
  }
}

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

/** Drives the seven operations through the proxy and prints what it saw; the exit code. */
async function check(): Promise<number> {
  if (!(await waitForProxy())) {
    console.error(`Prism's proxy did not start:\n${prismLog}`);
    return 1;
  }
  mock.reset();
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
  return total === 0 ? 0 : 1;
}

let code = 1;
try {
  code = await check();
} catch (error) {
  // Once a signal stops Prism, the requests in flight fail: that is the stop, not an error to show.
  if (!stopping) console.error(error);
} finally {
  await stopAll();
}
process.exit(code);
