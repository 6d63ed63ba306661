// With --log json, a real process writes nothing but JSON objects: on stdout (requests and news) and on stderr
// (warnings and errors), from the banner to the signal that stops it.
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT_CONTRACT } from '../../mock/index.js';
import { CliProcess, runCli } from '../support/cli-process.js';
import { AUTH } from '../support/harness.js';

const BROKEN_EXAMPLE = fileURLToPath(new URL('../fixtures/broken-example.openapi.yaml', import.meta.url));
const started: CliProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop('SIGKILL')));
});

/** Every line of a stream's text, each parsed as JSON (a line that is not JSON fails the test, naming it). */
function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
}

/**
 * Resolves with the first JSON line on the process's stderr, from `from` characters on, for which `test` is
 * true: one written already, or the next that comes.
 */
function stderrObject(cli: CliProcess, test: (event: Record<string, unknown>) => boolean, from = 0) {
  return new Promise<Record<string, unknown>>((resolve) => {
    const look = () => {
      const text = cli.stderr.slice(from);
      const found = jsonLines(text.slice(0, text.lastIndexOf('\n') + 1)).find(test);
      if (!found) return;
      cli.child.stderr!.off('data', look);
      resolve(found);
    };
    // CliProcess's own listener came first: on each chunk, cli.stderr holds it already.
    cli.child.stderr!.on('data', look);
    look();
  });
}

async function contractCopy(): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'log-json-')), 'membership.openapi.yaml');
  await copyFile(DEFAULT_CONTRACT, path);
  return path;
}

describe('--log json on a running process', () => {
  test('every line on stdout and stderr is JSON: banner, requests, a drop, a refused edit, the signal', async () => {
    const contract = await contractCopy();
    const cli = await CliProcess.start(['--port', '0', '--log', 'json', '--contract', contract], {
      contract: DEFAULT_CONTRACT,
    });
    started.push(cli);
    expect(JSON.parse(cli.banner)).toMatchObject({
      level: 'info',
      event: 'start',
      url: cli.url,
      operations: 7,
      stateFile: null,
      msg: expect.stringContaining(`serving 7 operations of "Membership Passes and Credentials API"`),
    });

    await fetch(`${cli.url}/members/m1/passes`, { headers: AUTH });
    await fetch(`${cli.url}/__mock/overrides`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ operationId: 'getPass', fault: 'drop', times: 1 }),
    });
    await expect(fetch(`${cli.url}/members/m1/passes/p1`, { headers: AUTH })).rejects.toThrow();

    const refused = stderrObject(cli, (e) => e.event === 'reload', cli.stderr.length);
    await writeFile(contract, 'openapi: [3.0\n');
    expect(await refused).toMatchObject({
      level: 'error',
      msg: expect.stringContaining('the contract edit was not loaded, still serving the last good version'),
    });

    const { code } = await cli.stop('SIGTERM');
    expect(code).toBe(0);
    // (The example check at start may say it stopped early on a busy machine: news, load-dependent.)
    const out = jsonLines(cli.stdout).filter((e) => e.event !== 'example');
    expect(out.map((e) => e.event ?? `${e.method} ${e.path} ${e.status}`)).toEqual([
      'start',
      'GET /members/m1/passes 200',
      'POST /__mock/overrides 201',
      'GET /members/m1/passes/p1 null',
      'GET /__mock/calls 200', // CliProcess.stop keeps the journal for the conformance check
      'stop',
    ]);
    expect(out[3]).toMatchObject({ level: 'info', operationId: 'getPass', fault: 'drop' });
    expect(out[5]).toMatchObject({
      level: 'info',
      signal: 'SIGTERM',
      msg: 'SIGTERM received, stopping (again to force)',
    });
    expect(jsonLines(cli.stderr).map((e) => e.level)).toEqual(['error']);
  });

  test('a broken example at start is a JSON warning on stderr, with its operation', async () => {
    const file = BROKEN_EXAMPLE;
    const cli = await CliProcess.start(['--port', '0', '--log', 'json', '--contract', file], { contract: file });
    started.push(cli);
    expect(await stderrObject(cli, (e) => e.event === 'example')).toMatchObject({
      level: 'warn',
      operationId: 'getPath',
      code: '200',
      name: 'one',
    });
  });

  test('a usage error is a JSON line on stderr, and stdout stays empty', async () => {
    const { code, stdout, stderr } = await runCli(['--log', 'json', '--contracts', 'x.yaml']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(jsonLines(stderr)).toEqual([
      expect.objectContaining({
        level: 'error',
        msg: expect.stringContaining("Unknown option '--contracts'. Did you mean --contract?"),
      }),
    ]);
  });

  test('a failed start is a JSON line on stderr', async () => {
    const { code, stderr } = await runCli(['--log=json', '--contract', '/nowhere/api.yaml']);
    expect(code).toBe(1);
    expect(jsonLines(stderr)).toEqual([expect.objectContaining({ level: 'error', event: 'start' })]);
  });
});
