import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { StateError } from '../../mock/state/check-snapshot.js';
import { openStateFile, type StateFileSettings } from '../../mock/node/open-state-file.js';
import type { SqliteStore } from '../../mock/node/sqlite-store.js';
import { keepWrapper } from '../../mock/node/sqlite-wrappers.js';
import type { StoredRecord, StoreSnapshot } from '../../mock/state/store.js';

const PASSES = '/members/m1/passes';
let dir: string;
const opened: SqliteStore[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'open-state-file-'));
});
afterEach(() => opened.splice(0).forEach((store) => store.close()));

const settings = (initial: StoreSnapshot = {}): StateFileSettings => ({
  limits: {},
  initial,
  accept(state, source) {
    if (typeof state !== 'object' || state === null) throw new StateError(`${source}: not an object`);
    return state as StoreSnapshot;
  },
  idOf: (_, record: StoredRecord) => String(record.id),
});

async function open(file: string, initial?: StoreSnapshot) {
  const result = await openStateFile(file, settings(initial));
  opened.push(result.store);
  return result;
}

const oldStateFile = (collections: unknown) =>
  JSON.stringify({ format: 'membership-mock-state', version: 1, savedAt: '2026-01-01T00:00:00Z', collections });

describe('openStateFile', () => {
  test('creates a new file holding the initial state, and opens it as it is afterwards', async () => {
    const file = join(dir, 'state.db');
    const first = await open(file, { [PASSES]: [{ id: 'p1' }] });
    expect(first.origin).toBe('created');
    first.store.delete(PASSES, 'p1');
    first.store.close();

    const second = await open(file, { [PASSES]: [{ id: 'p1' }] });
    expect(second.origin).toBe('opened');
    expect(second.store.snapshot()).toEqual({ [PASSES]: [] });
  });

  test('refuses a folder that does not exist, naming the file and the folder', async () => {
    const file = join(dir, 'missing', 'state.db');
    await expect(open(file)).rejects.toThrow(
      new StateError(
        `Cannot open the state file ${file}: the folder ${join(dir, 'missing')} does not exist. Create it first.`,
      ),
    );
  });

  test('refuses a folder it cannot write in, at once', async () => {
    // Root writes anywhere chmod forbids: /sys is a folder no one may create files in.
    const folder = process.getuid?.() === 0 ? '/sys' : join(dir, 'locked');
    if (folder !== '/sys') {
      await mkdir(folder);
      await chmod(folder, 0o555);
    }
    const file = join(folder, 'state.db');
    await expect(open(file)).rejects.toThrow(`Cannot write the state file ${file}: the file or its folder`);
    expect(existsSync(file)).toBe(false);
  });

  test('refuses a file another store holds open', async () => {
    const file = join(dir, 'state.db');
    await open(file);
    await expect(open(file)).rejects.toThrow(
      `The state file ${file} is held by another running mock (SQLite's lock); stop that one, or give another file.`,
    );
  });

  test('takes the file again once the store holding it is closed', async () => {
    const file = join(dir, 'state.db');
    (await open(file)).store.close();
    await expect(open(file)).resolves.toMatchObject({ origin: 'opened' });
  });

  test('refuses a SQLite database of someone else, and leaves it as it was', async () => {
    const file = join(dir, 'other.db');
    const other = keepWrapper(new Database(file)); // none left to the collector: see sqlite-wrappers.ts
    other.exec('CREATE TABLE songs (title TEXT)');
    other.close();
    const before = await readFile(file);
    await expect(open(file)).rejects.toThrow(
      `The state file ${file} is a SQLite database, but not one of membership-mock's`,
    );
    expect(await readFile(file)).toEqual(before);
  });

  test('refuses a file that is neither a database nor JSON, and leaves it as it was', async () => {
    const file = join(dir, 'notes.txt');
    await writeFile(file, 'shopping list');
    await expect(open(file)).rejects.toThrow(
      `The state file ${file} is neither a membership-mock database nor a JSON state file`,
    );
    expect(await readFile(file, 'utf8')).toBe('shopping list');
  });

  /** A state file of 200 passes, closed: all of it in the database file. */
  async function filledFile(): Promise<{ file: string; pages: Buffer; leaf: number }> {
    const file = join(dir, 'state.db');
    const { store } = await open(file);
    for (let i = 0; i < 200; i++)
      store.put(`/members/m${i % 20}/passes`, `p${i}`, { id: `p${i}`, note: 'x'.repeat(200) });
    store.close();
    const pages = await readFile(file);
    // The leaf pages of the tables (WITHOUT ROWID: index leaves, 0x0a), the middle one of them.
    const leaves = Array.from({ length: pages.length / 4096 }, (_, p) => p * 4096).filter((at) => pages[at] === 0x0a);
    return { file, pages, leaf: leaves[Math.floor(leaves.length / 2)]! };
  }

  test('refuses a file with a page smashed in the middle, saying it is damaged and what to do', async () => {
    const { file, pages, leaf } = await filledFile();
    pages.fill(0xab, leaf, leaf + 64);
    await writeFile(file, pages);
    await expect(open(file)).rejects.toThrow(
      new RegExp(
        `^The state file ${file} is damaged: SQLite's check of its pages says "Tree \\d+ page ${leaf / 4096 + 1}: .+"\\. ` +
          'It was left as it is: move it away, or restore a backup\\.$',
      ),
    );
    expect(await readFile(file)).toEqual(pages);
  });

  test('refuses a file whose first page is smashed, saying it is damaged and what to do', async () => {
    const { file, pages } = await filledFile();
    // The header of the b-tree that lists the tables.
    pages.fill(0xab, 100, 112);
    await writeFile(file, pages);
    await expect(open(file)).rejects.toThrow(
      new StateError(
        `The state file ${file} is damaged: SQLite says "database disk image is malformed". ` +
          'It was left as it is: move it away, or restore a backup.',
      ),
    );
    expect(await readFile(file)).toEqual(pages);
  });

  test('refuses a file whose every record reads but whose pages do not add up, found by the quick check', async () => {
    const { file, pages, leaf } = await filledFile();
    // A leaf's count of fragmented bytes: reading records never looks at it.
    pages[leaf + 7] = pages[leaf + 7]! + 3;
    await writeFile(file, pages);
    await expect(open(file)).rejects.toThrow(
      new StateError(
        `The state file ${file} is damaged: SQLite's check of its pages says "Fragmentation of 0 bytes reported as 3 ` +
          `on page ${leaf / 4096 + 1}". It was left as it is: move it away, or restore a backup.`,
      ),
    );
    expect(await readFile(file)).toEqual(pages);
  });

  test('refuses a folder given as the file', async () => {
    await expect(open(dir)).rejects.toThrow(`The state file ${dir} is a folder; give a file in it.`);
  });

  test('imports a JSON state file of earlier versions once, keeping it beside as FILE.imported.json', async () => {
    const file = join(dir, 'state.json');
    await writeFile(file, oldStateFile({ [PASSES]: [{ id: 'p1' }, { id: 'p2' }], '/members/m2/passes': [] }));
    const first = await open(file, { '/members/m9/passes': [{ id: 'fixture' }] });
    expect(first).toMatchObject({ origin: 'imported', imported: { from: `${file}.imported.json`, records: 2 } });
    expect(first.store.snapshot()).toEqual({ [PASSES]: [{ id: 'p1' }, { id: 'p2' }], '/members/m2/passes': [] });
    expect(JSON.parse(await readFile(`${file}.imported.json`, 'utf8')).collections[PASSES]).toHaveLength(2);
    first.store.close();

    expect((await open(file)).origin).toBe('opened');
  });

  test('a JSON state file that fails the check stays where it is, and no database is made', async () => {
    const file = join(dir, 'state.json');
    const text = oldStateFile(7);
    await writeFile(file, text);
    await expect(open(file)).rejects.toThrow(new StateError(`${file}: not an object`));
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(existsSync(`${file}.imported.json`)).toBe(false);
  });

  test('an import cut short before it committed is taken again at the next start', async () => {
    const file = join(dir, 'state.json');
    await writeFile(`${file}.imported.json`, oldStateFile({ [PASSES]: [{ id: 'p1' }] }));
    // What a start killed between moving the JSON aside and committing leaves: an empty database.
    keepWrapper(new Database(file)).close();
    const again = await open(file);
    expect(again.origin).toBe('imported');
    expect(again.store.list(PASSES)).toEqual([{ id: 'p1' }]);
  });

  test('refuses to import when FILE.imported.json is in the way', async () => {
    const file = join(dir, 'state.json');
    await writeFile(file, oldStateFile({}));
    await writeFile(`${file}.imported.json`, '{}');
    await expect(open(file)).rejects.toThrow(`${file}.imported.json is in the way`);
  });

  test('follows a symbolic link: the database is written where it points, and the link stays a link', async () => {
    await mkdir(join(dir, 'real'));
    const target = join(dir, 'real', 'state.db');
    const link = join(dir, 'state.db');
    await symlink(target, link);
    const first = await open(link);
    first.store.put(PASSES, 'p1', { id: 'p1' });
    first.store.close();

    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(target);
    expect((await readFile(target)).subarray(0, 15).toString()).toBe('SQLite format 3');
    expect((await open(target)).store.list(PASSES)).toEqual([{ id: 'p1' }]);
  });
});
