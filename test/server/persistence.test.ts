import { watch } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT_CONTRACT } from '../../mock/index.js';
import { CliProcess, runCli } from '../support/cli-process.js';
import { AUTH } from '../support/harness.js';

const DATA = fileURLToPath(new URL('../fixtures/membership-data.json', import.meta.url));
const started: CliProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop('SIGKILL')));
});

async function start(args: string[]): Promise<CliProcess> {
  const cli = await CliProcess.start(['--port', '0', '--log', 'off', ...args], { contract: DEFAULT_CONTRACT });
  started.push(cli);
  return cli;
}

async function tempFile(name: string): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'mock-state-')), name);
}

/**
 * Resolves when `file` is next put in place: the state writer renames a whole temporary file over it, so the
 * rename is the event that a write has landed. Create it before what causes the write.
 */
function nextWrite(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dirname(file), (_event, name) => {
      if (name !== basename(file)) return;
      watcher.close();
      resolve();
    });
    watcher.on('error', reject);
  });
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { ...AUTH, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('--state-file', () => {
  test('state survives SIGTERM and a new start', async () => {
    const file = await tempFile('state.json');
    const first = await start(['--state-file', file]);
    const created = (await (await post(`${first.url}/members/m1/passes`, { name: 'Kept' })).json()) as { id: string };
    const listed = await (await fetch(`${first.url}/members/m1/passes`, { headers: AUTH })).json();
    expect((await first.stop('SIGTERM')).code).toBe(0);

    const second = await start(['--state-file', file]);
    const read = await fetch(`${second.url}/members/m1/passes/${created.id}`, { headers: AUTH });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(created);
    expect(await (await fetch(`${second.url}/members/m1/passes`, { headers: AUTH })).json()).toEqual(listed);
  });

  test('the file is flushed on SIGINT too, and written as a whole', async () => {
    const file = await tempFile('state.json');
    const cli = await start(['--state-file', file]);
    for (let i = 0; i < 20; i++) await post(`${cli.url}/members/m${i}/credentials`, { kind: 'card' });
    await cli.stop('SIGINT');
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved).toMatchObject({ format: 'membership-mock-state', version: 1 });
    expect(Object.keys(saved.collections)).toHaveLength(20);
    for (const records of Object.values(saved.collections)) expect(records).toHaveLength(4);
  });

  test('a process killed while writing leaves a whole state file, never half of one', async () => {
    const file = await tempFile('state.json');
    const cli = await start(['--state-file', file]);
    const firstWrite = nextWrite(file);
    await post(`${cli.url}/members/m0/passes`, {});
    await firstWrite;
    // Keep it writing: many creates in flight, then kill -9 once their writes have begun to land. (Each name is
    // at the contract's maximum length: a longer one would be refused with 422, change nothing and write nothing.)
    const burstWrite = nextWrite(file);
    const burst = Array.from({ length: 300 }, (_, i) =>
      post(`${cli.url}/members/m${i % 30}/passes`, { name: 'x'.repeat(100) }).catch(() => undefined),
    );
    await burstWrite;
    await cli.stop('SIGKILL');
    await Promise.all(burst);
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.format).toBe('membership-mock-state');
    const { readdir } = await import('node:fs/promises');
    const dir = file.slice(0, file.lastIndexOf('/'));
    expect((await readdir(dir)).filter((name) => name !== 'state.json' && !name.endsWith('.tmp'))).toEqual([]);
  });

  test('a torn state file stops the start with a clear error and is left untouched', async () => {
    const file = await tempFile('state.json');
    const torn = '{"format":"membership-mock-state","version":1,"collections":{"/members/m1/passes":[{"id":"pas_';
    await writeFile(file, torn);
    const { code, stderr } = await runCli(['--port', '0', '--state-file', file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`The state file ${file} is not valid JSON`);
    expect(await readFile(file, 'utf8')).toBe(torn);
  });

  test('a state file of another shape is refused, never read as empty', async () => {
    const file = await tempFile('state.json');
    await writeFile(file, '{"hello": "world"}');
    const { code, stderr } = await runCli(['--port', '0', '--state-file', file]);
    expect(code).toBe(1);
    expect(stderr).toContain('is not a membership-mock state file');
  });

  test('a state file whose records break the contract names the record', async () => {
    const file = await tempFile('state.json');
    await writeFile(
      file,
      JSON.stringify({
        format: 'membership-mock-state',
        version: 1,
        collections: { '/members/m1/credentials': [{ id: 'crd_1', kind: 'voice' }] },
      }),
    );
    const { code, stderr } = await runCli(['--port', '0', '--state-file', file]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/"\/members\/m1\/credentials"\[0\] \(id "crd_1"\) does not fit the contract/);
  });
});

describe('--data', () => {
  test('serves the fixtures, and reset comes back to them', async () => {
    const cli = await start(['--data', DATA]);
    const list = async () =>
      (await (await fetch(`${cli.url}/members/mbr_demo/passes`, { headers: AUTH })).json()) as {
        data: { id: string }[];
      };
    expect((await list()).data.map((p) => p.id)).toEqual(['pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M']);
    await post(`${cli.url}/members/mbr_demo/passes`, {});
    expect((await list()).data).toHaveLength(2);
    await fetch(`${cli.url}/__mock/reset`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    expect((await list()).data).toHaveLength(1);
  });

  test('takes records with fields left out, made from the seed: the same seed makes the same records', async () => {
    const file = await tempFile('data.json');
    await writeFile(file, JSON.stringify({ '/members/mbr_demo/passes': [{ status: 'suspended' }] }));
    const read = async () => {
      const cli = await start(['--data', file, '--seed', 'demo']);
      const res = await fetch(`${cli.url}/members/mbr_demo/passes`, { headers: AUTH });
      await cli.stop();
      return ((await res.json()) as { data: Record<string, unknown>[] }).data;
    };
    const passes = await read();
    expect(passes).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(/^pas_[0-9A-HJKMNP-TV-Z]{26}$/),
        member_id: 'mbr_demo',
        status: 'suspended',
      }),
    ]);
    expect(await read()).toEqual(passes);
  });

  test('a partial fixture of another member stops the start, naming the file and the record', async () => {
    const file = await tempFile('data.json');
    await writeFile(file, JSON.stringify({ collections: { '/members/m1/passes': [{ member_id: 'm2' }] } }));
    const { code, stderr } = await runCli(['--port', '0', '--data', file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`${file}: "/members/m1/passes"[0] (id "pas_`);
    expect(stderr).toContain('has member_id "m2", but its collection path says "m1".');
  });

  test('bad fixtures stop the start with an error naming the record', async () => {
    const file = await tempFile('data.json');
    await writeFile(file, JSON.stringify({ '/members/m1/passes': [{ id: 'pas_1', name: '' }] }));
    const { code, stderr } = await runCli(['--port', '0', '--data', file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`${file}: "/members/m1/passes"[0] (id "pas_1") does not fit the contract`);
  });
});
