import {
  chmod,
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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

// A request that hangs fails the test instead of holding it until its timeout.
const post = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });

/** Every record id in the default session's state. */
async function storedIds(url: string): Promise<Set<string>> {
  const { collections } = (await (
    await fetch(`${url}/__mock/state`, { signal: AbortSignal.timeout(15_000) })
  ).json()) as {
    collections: Record<string, { id: string }[]>;
  };
  return new Set(Object.values(collections).flatMap((records) => records.map((r) => r.id)));
}

const isRoot = process.getuid?.() === 0;
/** A user for whom file modes hold. */
const NOBODY = { uid: 65534, gid: 65534 };

/** Creates `count` passes, spread over 50 members, four at a time; the ids answered. */
async function createMany(url: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 4) {
    const batch = Array.from({ length: Math.min(4, count - i) }, (_, j) =>
      post(`${url}/members/m${(i + j) % 50}/passes`, { name: `Pass ${i + j}` }),
    );
    for (const res of await Promise.all(batch)) {
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
  }
  return ids;
}

/** Writes `bytes` over the file at `offset`. */
async function overwrite(file: string, offset: number, bytes: Buffer): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.write(bytes, 0, bytes.length, offset);
  } finally {
    await handle.close();
  }
}

describe('--state-file', () => {
  test('state survives SIGTERM and a new start, and the banner names the file', async () => {
    const file = await tempFile('state.db');
    // A day given: the placeholders listed are read as of today, which a run across midnight would see change.
    const first = await start(['--state-file', file, '--as-of', '2026-11-26']);
    expect(first.banner).toContain(`(seed 1; state file ${file}; admin at ${first.url}/__mock)`);
    const created = (await (await post(`${first.url}/members/m1/passes`, { name: 'Kept' })).json()) as { id: string };
    const listed = await (await fetch(`${first.url}/members/m1/passes`, { headers: AUTH })).json();
    expect((await first.stop('SIGTERM')).code).toBe(0);

    const second = await start(['--state-file', file, '--as-of', '2026-11-26']);
    const read = await fetch(`${second.url}/members/m1/passes/${created.id}`, { headers: AUTH });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(created);
    expect(await (await fetch(`${second.url}/members/m1/passes`, { headers: AUTH })).json()).toEqual(listed);
  });

  test('kill -9 in the middle of bursts of creates loses none of the creates that were answered, over 20 rounds', async () => {
    const file = await tempFile('state.db');
    const answered: string[] = [];
    let lost = 0;
    let cutOff = 0;
    for (let round = 0; round < 20; round++) {
      const cli = await start(['--state-file', file]);
      const ids = await storedIds(cli.url);
      lost += answered.filter((id) => !ids.has(id)).length;
      // Eight clients create as fast as they can; the process is killed once this round has 40 to 135 answers,
      // with the other clients' creates in flight.
      const goal = answered.length + 40 + ((round * 37) % 96);
      let killed = false;
      const client = async (c: number) => {
        for (let i = 0; !killed; i++) {
          try {
            const res = await post(`${cli.url}/members/m${(c * 7 + i) % 50}/passes`, { name: `Round ${round}` });
            const { id } = (await res.json()) as { id: string };
            if (res.status !== 201) throw new Error(`a create answered ${res.status}`);
            answered.push(id);
          } catch (error) {
            if (!killed) throw error;
            cutOff++;
            return;
          }
          if (answered.length >= goal && !killed) {
            killed = true;
            cli.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, (_, c) => client(c)));
      await cli.stop('SIGKILL');
    }
    const last = await start(['--state-file', file]);
    const ids = await storedIds(last.url);
    lost += answered.filter((id) => !ids.has(id)).length;
    console.info(
      `kill -9 rounds: 20; creates answered: ${answered.length}; cut off in flight: ${cutOff}; answered but lost: ${lost}`,
    );
    expect(cutOff).toBeGreaterThan(0);
    expect(lost).toBe(0);
  }, 300_000);

  test('a second mock on the same file is refused at its start, and the first goes on serving', async () => {
    const file = await tempFile('state.db');
    const first = await start(['--state-file', file]);
    const { code, stderr } = await runCli(['--port', '0', '--state-file', file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`The state file ${file} is held by another running mock (SQLite's lock)`);
    expect((await post(`${first.url}/members/m1/passes`, {})).status).toBe(201);
  });

  test('a state file that cannot be written is refused at the start as not writable', async () => {
    const file = await tempFile('state.db');
    await (await start(['--state-file', file])).stop('SIGTERM');
    await chmod(file, 0o444);
    // Root writes whatever the mode says: as root the mock runs as nobody, for whom it holds. The folder lets
    // anyone in and write, so that the file is all that cannot be written.
    await chmod(dirname(file), 0o777);
    const { code, stderr } = await runCli(['--port', '0', '--state-file', file], {}, isRoot ? NOBODY : {});
    expect(code).toBe(1);
    expect(stderr).toContain(`Cannot write the state file ${file}: the file is not writable`);
  });

  test('a state file damaged in the middle stops the start, naming it and what to do, and is left as it is', async () => {
    const file = await tempFile('state.db');
    const first = await start(['--state-file', file]);
    await createMany(first.url, 120);
    // Stopped: everything is in the database file, and its write-ahead log is gone.
    await first.stop('SIGTERM');
    // One byte of a leaf page's header (its count of fragmented bytes) in the middle of the file: every record
    // still reads, only a check of the pages sees it.
    const pages = await readFile(file);
    const leaves = Array.from({ length: pages.length / 4096 }, (_, p) => p * 4096).filter((at) => pages[at] === 0x0a);
    const leaf = leaves[Math.floor(leaves.length / 2)]!;
    await overwrite(file, leaf + 7, Buffer.from([pages[leaf + 7]! + 3]));
    const damaged = await readFile(file);

    const { code, stderr } = await runCli(['--port', '0', '--state-file', file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`The state file ${file} is damaged`);
    expect(stderr).toContain('move it away, or restore a backup');
    expect(await readFile(file)).toEqual(damaged);
  });

  test('a write-ahead log damaged in the middle stops the start instead of losing what came after', async () => {
    const file = await tempFile('state.db');
    const first = await start(['--state-file', file]);
    await createMany(first.url, 60);
    // Killed: the answered creates are in the write-ahead log, not yet in the database file.
    await first.stop('SIGKILL');
    const wal = await readFile(`${file}-wal`);
    const frame = 24 + wal.readUInt32BE(8);
    const middle = Math.floor((wal.length - 32) / frame / 2);
    await overwrite(`${file}-wal`, 32 + middle * frame + 24 + 1000, Buffer.alloc(16, 0xff));
    const [database, log] = [await readFile(file), await readFile(`${file}-wal`)];

    const { code, stderr } = await runCli(['--port', '0', '--state-file', file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`The state file ${file} is damaged: its write-ahead log ${file}-wal breaks at frame`);
    expect(stderr).toContain(`move it away (and ${file}-wal with it), or restore a backup`);
    expect([await readFile(file), await readFile(`${file}-wal`)]).toEqual([database, log]);
    // Two starts and sixty creates: on a loaded machine this takes longer than the default 20 s.
  }, 60_000);

  test.each([
    ['deleted', 'The state file FILE was deleted', (file: string) => rm(file)],
    [
      'replaced by another file',
      'The state file FILE was replaced by another file',
      async (file: string) => {
        await copyFile(file, `${file}.copy`);
        await rename(`${file}.copy`, file);
      },
    ],
    [
      'whose write-ahead log is deleted',
      "The state file's write-ahead log FILE-wal was deleted",
      (file: string) => rm(`${file}-wal`),
    ],
  ])(
    'a state file %s while the mock runs: changes are refused, health says why, none answered is lost',
    async (_, why, change) => {
      const file = await tempFile('state.db');
      const cli = await start(['--state-file', file]);
      const kept = (await (await post(`${cli.url}/members/m1/passes`, { name: 'Kept' })).json()) as { id: string };
      const before = await storedIds(cli.url);
      await change(file);
      const reason = why.replace('FILE', file);

      const refused = await post(`${cli.url}/members/m1/passes`, { name: 'Refused' });
      expect(refused.status).toBe(500);
      expect(await refused.json()).toMatchObject({
        type: 'https://example.com/problems/state-file-gone',
        detail: expect.stringContaining(`${reason} while the mock ran`),
      });
      const removal = await fetch(`${cli.url}/members/m1/passes/${kept.id}`, { method: 'DELETE', headers: AUTH });
      expect(removal.status).toBe(500);
      const health = await fetch(`${cli.url}/__mock/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({
        status: 'failing',
        state: { failing: true, lastError: { message: expect.stringContaining(reason) } },
      });
      // What was answered is still served, to be saved before a restart; what was refused is nowhere.
      expect(before.has(kept.id)).toBe(true);
      expect(await storedIds(cli.url)).toEqual(before);
    },
  );

  test('a second mock may start on the path of a deleted state file; the first then refuses changes', async () => {
    const file = await tempFile('state.db');
    const first = await start(['--state-file', file]);
    await rm(file);
    const second = await start(['--state-file', file]);
    expect((await post(`${second.url}/members/m1/passes`, {})).status).toBe(201);
    expect((await post(`${first.url}/members/m1/passes`, {})).status).toBe(500);
  });

  test('a folder that does not exist is refused at the start, naming it', async () => {
    const file = join(dirname(await tempFile('x')), 'missing', 'state.db');
    const { code, stderr } = await runCli(['--port', '0', '--state-file', file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`Cannot open the state file ${file}: the folder ${dirname(file)} does not exist`);
  });

  test('a folder that cannot be written is refused at the start, naming the file', async () => {
    // Root may write wherever permissions say no; /sys refuses even root.
    let folder = '/sys';
    if (!isRoot) {
      folder = dirname(await tempFile('x'));
      await chmod(folder, 0o555);
    }
    const file = join(folder, 'state.db');
    const { code, stderr } = await runCli(['--port', '0', '--state-file', file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`Cannot write the state file ${file}: the file or its folder ${folder} is not writable`);
  });

  test('a symbolic link to the state file is followed, and stays a link', async () => {
    const folder = dirname(await tempFile('x'));
    await mkdir(join(folder, 'real'));
    const target = join(folder, 'real', 'state.db');
    const link = join(folder, 'state.db');
    await symlink(target, link);
    const first = await start(['--state-file', link]);
    const created = (await (await post(`${first.url}/members/m1/passes`, {})).json()) as { id: string };
    await first.stop('SIGTERM');

    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readdir(folder)).toEqual(['real', 'state.db']);
    const second = await start(['--state-file', target]);
    expect((await storedIds(second.url)).has(created.id)).toBe(true);
  });

  test('a JSON state file of earlier versions is imported once, said on the log, and kept beside', async () => {
    const file = await tempFile('state.json');
    // Records that fit the contract: the demo fixtures' passes.
    const passes = JSON.parse(await readFile(DATA, 'utf8'))['/members/mbr_demo/passes'] as { id: string }[];
    await writeFile(
      file,
      JSON.stringify({
        format: 'membership-mock-state',
        version: 1,
        collections: { '/members/mbr_demo/passes': passes },
      }),
    );
    const cli = await CliProcess.start(['--port', '0', '--state-file', file], { contract: DEFAULT_CONTRACT });
    started.push(cli);
    expect((await storedIds(cli.url)).has(passes[0]!.id)).toBe(true);
    await cli.stop('SIGTERM');
    expect(cli.stdout).toContain(
      `membership-mock: imported 1 record from the JSON state file ${file} into SQLite ` +
        `(the JSON file is kept as ${file}.imported.json).\n`,
    );
    expect(JSON.parse(await readFile(`${file}.imported.json`, 'utf8')).collections['/members/mbr_demo/passes']).toEqual(
      passes,
    );
    expect((await readFile(file)).subarray(0, 15).toString()).toBe('SQLite format 3');
  });

  test('a torn JSON state file stops the start with a clear error and is left untouched', async () => {
    const file = await tempFile('state.json');
    const torn = '{"format":"membership-mock-state","version":1,"collections":{"/members/m1/passes":[{"id":"pas_';
    await writeFile(file, torn);
    const { code, stderr } = await runCli(['--port', '0', '--state-file', file]);
    expect(code).toBe(1);
    expect(stderr).toContain(`The state file ${file} is not valid JSON`);
    expect(await readFile(file, 'utf8')).toBe(torn);
  });

  test('a JSON file of another shape is refused, never read as empty', async () => {
    const file = await tempFile('state.json');
    await writeFile(file, '{"hello": "world"}');
    const { code, stderr } = await runCli(['--port', '0', '--state-file', file]);
    expect(code).toBe(1);
    expect(stderr).toContain('is not a membership-mock state file');
  });

  test('a JSON state file whose records break the contract names the record, and is not imported', async () => {
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
    expect(await readdir(dirname(file))).toEqual(['state.json']);
  });

  test('a new state file starts from --data; an existing one is served as it is', async () => {
    const file = await tempFile('state.db');
    const first = await start(['--state-file', file, '--data', DATA]);
    const fixture = 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M';
    expect((await storedIds(first.url)).has(fixture)).toBe(true);
    const res = await fetch(`${first.url}/members/mbr_demo/passes/${fixture}`, { method: 'DELETE', headers: AUTH });
    expect(res.status).toBe(204);
    await first.stop('SIGTERM');

    const second = await start(['--state-file', file, '--data', DATA]);
    expect((await storedIds(second.url)).has(fixture)).toBe(false);
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
      const cli = await start(['--data', file, '--seed', 'demo', '--as-of', '2026-11-26']);
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
