// How fast contracts load and start. For each file given (default: the bundled contract), in a fresh process:
// the steps of loading it (read and parse, references, schemas, Prism's operations), building and starting the
// mock, its first answer, and the first request to one operation; then a cold start of the built CLI (spawn to
// first answer, CPU seconds, RSS) when dist/ is built. Prints wall and CPU times (on a busy machine, CPU time is
// the steadier figure); asserts nothing.
// Run: npm run bench:load -- [--stateless] [--op "GET /path/{id}"] [--no-cli] FILE...
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = `${ROOT}dist/mock/cli.js`;
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    child: { type: 'boolean', default: false },
    stateless: { type: 'boolean', default: false },
    op: { type: 'string' },
    'no-cli': { type: 'boolean', default: false },
  },
});
const files = positionals.length > 0 ? positionals : [`${ROOT}contracts/membership.openapi.yaml`];
const ms = (n: number | undefined) => (n === undefined ? '-' : n.toFixed(0));
const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};
const rssMb = () => process.memoryUsage().rss / 1048576;

/** What one fresh process measures for one contract. */
interface InProcess {
  operations: number;
  importMs: number;
  steps: Record<string, number>;
  loadCpuMs: number;
  startMs: number;
  startCpuMs: number;
  firstAnswerMs: number;
  rssAfterStartMb: number;
  op: string;
  opStatus: number;
  opMs: number;
  rssAfterOpMb: number;
}

if (values.child) await measureInProcess(files[0]!);
else await main();

async function main(): Promise<void> {
  const mode = values.stateless ? '--stateless' : 'stateful (default)';
  console.log(`Contract load and start, ${mode}; wall ms (CPU ms). Node ${process.version}.`);
  for (const file of files) {
    const child = await run(process.execPath, [
      ...process.execArgv,
      fileURLToPath(import.meta.url),
      '--child',
      ...flags(),
      file,
    ]);
    const line = child.stdout.split('\n').find((l) => l.startsWith('{'));
    if (!line) {
      console.log(`\n${file}\n  did not load: ${child.stderr.trim().split('\n').slice(-3).join(' ')}`);
      continue;
    }
    const r = JSON.parse(line) as InProcess;
    const s = r.steps;
    console.log(`\n${file} (${r.operations} operations)`);
    console.log(`  import the mock          ${ms(r.importMs)}`);
    console.log(`  read and parse           ${ms(s.read)}`);
    console.log(`  references (bundle)      ${ms(s.references)}`);
    console.log(`  schemas (resolve)        ${ms(s.schemas)}`);
    console.log(`  Prism's operations       ${ms(s.operations)}`);
    console.log(
      `  load in all              ${ms(s.read! + (s.references ?? 0) + (s.schemas ?? 0) + s.operations!)} (${ms(r.loadCpuMs)} CPU)`,
    );
    console.log(`  plan and listen          ${ms(r.startMs)} (${ms(r.startCpuMs)} CPU)`);
    console.log(`  first answer             ${ms(r.firstAnswerMs)}`);
    console.log(`  RSS after start          ${r.rssAfterStartMb.toFixed(0)} MB`);
    console.log(
      `  first request            ${ms(r.opMs)} (${r.op} → ${r.opStatus}), RSS then ${r.rssAfterOpMb.toFixed(0)} MB`,
    );
    if (!values['no-cli']) await coldStart(file);
  }
}

function flags(): string[] {
  return [...(values.stateless ? ['--stateless'] : []), ...(values.op ? ['--op', values.op] : [])];
}

async function measureInProcess(file: string): Promise<void> {
  const t0 = performance.now();
  const { loadContractTimed } = await import('../../mock/node/load-contract.js');
  const { startMock } = await import('../../mock/server.js');
  const importMs = performance.now() - t0;
  const steps: Record<string, number> = {};
  const cpu1 = process.cpuUsage();
  const contract = await loadContractTimed(file, process.cwd(), steps);
  const loadCpuMs = cpuMs(cpu1);
  const cpu2 = process.cpuUsage();
  const t2 = performance.now();
  const mock = await startMock({ contract, watch: false, stateless: values.stateless, log: 'off', logTo: () => {} });
  const startMs = performance.now() - t2;
  const startCpuMs = cpuMs(cpu2);
  const t3 = performance.now();
  await (await fetch(`${mock.url}/__bench_probe__`)).arrayBuffer();
  const firstAnswerMs = performance.now() - t3;
  const rssAfterStartMb = rssMb();
  const operation = pickOperation(contract.operations, values.op);
  const path = operation ? operation.path.replace(/\{[^}]+\}/g, '1') : '/';
  const method = operation?.method.toUpperCase() ?? 'GET';
  const t4 = performance.now();
  const response = await fetch(`${mock.url}${path}`, {
    method,
    headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
    body: ['GET', 'HEAD', 'DELETE'].includes(method) ? undefined : '{}',
  });
  await response.arrayBuffer();
  const opMs = performance.now() - t4;
  const result: InProcess = {
    operations: contract.operations.length,
    importMs,
    steps,
    loadCpuMs,
    startMs,
    startCpuMs,
    firstAnswerMs,
    rssAfterStartMb,
    op: `${method} ${path}`,
    opStatus: response.status,
    opMs,
    rssAfterOpMb: rssMb(),
  };
  console.log(JSON.stringify(result));
  await mock.close({ grace: 0 });
}

/** The operation named by `--op`, else the first GET. */
function pickOperation<T extends { method: string; path: string }>(operations: T[], named?: string): T | undefined {
  if (named) return operations.find((o) => `${o.method.toUpperCase()} ${o.path}` === named);
  return operations.find((o) => o.method === 'get') ?? operations[0];
}

/** Spawns the built CLI and times it to its first answer (CPU and RSS read from /proc on Linux). */
async function coldStart(file: string): Promise<void> {
  if (!existsSync(CLI)) return void console.log('  cold start (CLI)         - (no dist/: npm run build)');
  const port = 20000 + Math.floor(Math.random() * 20000);
  const args = [CLI, '--contract', file, '--port', String(port), '--no-watch', '--log', 'off'];
  if (values.stateless) args.push('--stateless');
  const start = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  let exited = false;
  child.on('exit', () => (exited = true));
  let answered = false;
  while (!exited && !answered && performance.now() - start < 120_000) {
    answered = await fetch(`http://127.0.0.1:${port}/__bench_probe__`).then(
      (r) => r.arrayBuffer().then(() => true),
      () => false,
    );
    if (!answered) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const wall = performance.now() - start;
  const proc = procFigures(child.pid!);
  child.kill('SIGKILL');
  if (!answered) return void console.log(`  cold start (CLI)         did not answer: ${stderr.trim().slice(-300)}`);
  const cpu = proc ? ` (${proc.cpuMs.toFixed(0)} CPU)` : '';
  const rss = proc ? `, RSS ${proc.rssMb.toFixed(0)} MB` : '';
  console.log(`  cold start (CLI)         ${ms(wall)}${cpu} spawn to first answer${rss}`);
}

function procFigures(pid: number): { cpuMs: number; rssMb: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return {
      cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100,
      rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024,
    };
  } catch {
    return undefined;
  }
}

function run(command: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('close', () => resolve({ stdout, stderr }));
  });
}
