// Opens the state file (--state-file) as a SQLite database of ours, or says why it cannot, naming the file.
import {
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { FILE_STATE_BYTES, type StateSync } from '../instance/options.js';
import { StateError } from '../state/check-snapshot.js';
import { damaged, refuseDamagedLog, refuseDamagedPages, refuseReadOnly } from './check-state-file.js';
import { guardStateFile } from './guard-state-file.js';
import { readJsonFile } from './read-json-file.js';
import { SqliteStore } from './sqlite-store.js';
import { keepWrapper, prepareKept, readPragma } from './sqlite-wrappers.js';
import type { StoreLimits, StoreSnapshot, StoredRecord } from '../state/store.js';

/** `MMCK` in the database header: marks a SQLite file as a membership-mock state file. */
export const APPLICATION_ID = 0x4d4d434b;
/**
 * The layout of the tables; a file of a later layout is refused rather than misread. Layout 2 keeps what
 * clients changed over placeholders (a `derived` collection and its `removed` ids); a layout 1 file, whose
 * collections were written whole, is moved to it at its first open.
 */
const LAYOUT = 2;

/** What opening found: the store, and where its state came from. */
export interface OpenedStateFile {
  store: SqliteStore;
  /**
   * `opened`: the file held state of ours, served as it is; `created`: a new file, holding `initial`;
   * `imported`: a new file holding a JSON state file of earlier versions (see {@link OpenedStateFile.imported}).
   */
  origin: 'opened' | 'created' | 'imported';
  /** What was imported: the JSON file (where it was moved), and how many records it held. */
  imported?: { from: string; records: number };
}

export type { StateSync };

/** How to open a state file, and what a new one starts with. */
export interface StateFileSettings {
  limits: Partial<StoreLimits>;
  /** @default 'normal' */
  sync?: StateSync | undefined;
  /** What a new file holds (the fixtures). */
  initial: StoreSnapshot;
  /**
   * Checks the collections of an imported JSON state file against the contract (throws a StateError naming the record).
   */
  accept(collections: unknown, source: string): StoreSnapshot;
  /** Each record's key in its collection. */
  idOf(collection: string, record: StoredRecord): string;
}

/**
 * Opens (or creates) the state file. Refuses, naming the file: a folder that does not exist or cannot be
 * written, a file that cannot be written, a file another running mock holds (SQLite's lock, held while this one
 * runs), a file that is not a database of ours, a damaged one (its write-ahead log broken in the middle, or pages
 * SQLite's quick check finds unsound; see check-state-file.ts). A new file is made with its tables and first
 * state in one transaction, so a start cut short leaves nothing half made. Once open, the file is guarded: see
 * guardStateFile.
 *
 * A JSON state file of earlier versions is checked, moved aside to `FILE.imported.json`, and its state put in
 * the new database. (Should the process die before that commits, the next start finds a new database beside
 * `FILE.imported.json`, and imports it again.) A symbolic link is followed: the database is written where it
 * points, and the link stays.
 * @example
 * const { store } = await openStateFile('demo/state.db', { limits: { state: 1_000_000 }, initial: {}, accept, idOf });
 */
export async function openStateFile(path: string, settings: StateFileSettings): Promise<OpenedStateFile> {
  const target = followLink(path);
  const folder = dirname(target);
  const shown = target === path ? path : `${path} (a link to ${target})`;
  if (!isFolder(folder))
    throw new StateError(`Cannot open the state file ${shown}: the folder ${folder} does not exist. Create it first.`);
  if (isFolder(target)) throw new StateError(`The state file ${shown} is a folder; give a file in it.`);
  const kind = kindOf(target);
  if (kind === 'other')
    throw new StateError(
      `The state file ${shown} is neither a membership-mock database nor a JSON state file; it was left as it is. ` +
        'Give another path, or move it away.',
    );
  if (kind !== 'json') refuseReadOnly(target, shown);
  if (kind === 'sqlite') refuseDamagedLog(target, shown);
  const movedTo = `${target}.imported.json`;
  let imported: StoreSnapshot | undefined;
  if (kind === 'json') {
    if (existsSync(movedTo))
      throw new StateError(
        `The state file ${shown} is a JSON state file to import, but ${movedTo} is in the way; move one of them away.`,
      );
    imported = settings.accept(await readJsonState(target, shown), path);
  }

  let db: Database.Database | undefined;
  try {
    if (imported) renameSync(target, movedTo);
    db = keepWrapper(new Database(target, { timeout: 0 }));
    // Held from the first access until the process ends: a second mock on the file is refused at its start.
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    // Checked before anything is written: a database of someone else's is left exactly as it was.
    const ours = isOurs(db, shown);
    if (ours) refuseDamagedPages(db, shown);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(`PRAGMA synchronous = ${settings.sync === 'full' ? 'FULL' : 'NORMAL'}`);
    // 32 MiB of pages kept (SQLite's default is 2 MiB): a large state's b-tree is walked without reading again.
    db.exec('PRAGMA cache_size = -32768');
    if (ours) {
      // Written to once now, so a file that cannot be written is refused at the start, not at the first change.
      const layout = readPragma(db, 'user_version') as number;
      db.exec(`BEGIN IMMEDIATE; ${layout === 1 ? FROM_LAYOUT_1 : ''} PRAGMA user_version = ${LAYOUT}; COMMIT;`);
      return { store: guarded(new SqliteStore(db, settings.limits), target), origin: 'opened' };
    }
    // A new database beside an import that did not commit takes that import again.
    if (!imported && existsSync(movedTo)) imported = settings.accept(await readJsonState(movedTo, movedTo), movedTo);
    db.exec('BEGIN IMMEDIATE');
    createStateTables(db);
    const store = new SqliteStore(db, settings.limits);
    store.restore(imported ?? settings.initial, settings.idOf);
    db.exec(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${LAYOUT}; COMMIT;`);
    guarded(store, target);
    if (!imported) return { store, origin: 'created' };
    const records = Object.values(imported).reduce((sum, list) => sum + list.length, 0);
    return { store, origin: 'imported', imported: { from: movedTo, records } };
  } catch (error) {
    if (db?.inTransaction) db.exec('ROLLBACK');
    db?.close();
    if (error instanceof StateError) throw error;
    throw new StateError(explain(error as Error & { code?: string }, shown, folder));
  }
}

/** The store, refusing changes once the file (or its log) at `file` is deleted or replaced: see guardStateFile. */
function guarded(store: SqliteStore, file: string): SqliteStore {
  store.guardFile(guardStateFile(file));
  return store;
}

/** The tables of a state file. */
const TABLES = `
  CREATE TABLE collections (
    name TEXT PRIMARY KEY, seq INTEGER NOT NULL, derived INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID;
  CREATE TABLE records (
    collection TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (collection, id)
  ) WITHOUT ROWID;
  CREATE TABLE removed (collection TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (collection, id)) WITHOUT ROWID;
`;

/** Layout 1 to 2: its collections were written whole (placeholders included), so none is derived. */
const FROM_LAYOUT_1 = `
  ALTER TABLE collections ADD COLUMN derived INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE removed (collection TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (collection, id)) WITHOUT ROWID;
`;

/** Creates the tables of a state file in a new database (within the caller's transaction, if any). */
export function createStateTables(db: Database.Database): void {
  db.exec(TABLES);
}

/**
 * Whether the database holds state of ours (`false`: it is new, or empty); refuses one that is someone else's or of
 * another layout.
 */
function isOurs(db: Database.Database, shown: string): boolean {
  const tables = prepareKept(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'").pluck().get() as number;
  const id = readPragma(db, 'application_id') as number;
  if (tables === 0 && id === 0) return false;
  if (id !== APPLICATION_ID)
    throw new StateError(
      `The state file ${shown} is a SQLite database, but not one of membership-mock's; it was left as it is. ` +
        'Give another path, or move it away.',
    );
  const layout = readPragma(db, 'user_version') as number;
  if (layout !== LAYOUT && layout !== 1)
    throw new StateError(
      `The state file ${shown} has the layout ${layout}; this membership-mock reads layout ${LAYOUT}. It was left as it is.`,
    );
  return true;
}

/** What the file at `path` holds: nothing yet, a SQLite database, JSON (an earlier state file), or something else. */
function kindOf(path: string): 'none' | 'sqlite' | 'json' | 'other' {
  if (!existsSync(path)) return 'none';
  const head = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  let read: number;
  try {
    read = readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (read === 0) return 'none';
  if (head.subarray(0, read).toString('latin1') === 'SQLite format 3\u0000') return 'sqlite';
  return /^\s*\{/.test(head.subarray(0, read).toString('latin1')) ? 'json' : 'other';
}

/** The collections of a JSON state file of earlier versions, or why it cannot be read (it is then left as it is). */
async function readJsonState(path: string, shown: string): Promise<unknown> {
  // Files of earlier versions had the state file's budget: they are imported up to it.
  const value = (await readJsonFile(path, 'state file', FILE_STATE_BYTES)) as {
    format?: unknown;
    version?: unknown;
    collections?: unknown;
  };
  if (typeof value !== 'object' || value === null || value.format !== 'membership-mock-state' || value.version !== 1)
    throw new StateError(
      `The state file ${shown} is not a membership-mock state file ` +
        '(expected "format": "membership-mock-state", "version": 1). It was left as it is.',
    );
  return value.collections;
}

/** Where a path leads: itself, or what its links point to (a link to nothing yet points where the file will be). */
function followLink(path: string): string {
  const absolute = resolve(path);
  try {
    if (!lstatSync(absolute).isSymbolicLink()) return absolute;
  } catch {
    return absolute;
  }
  try {
    return realpathSync(absolute);
  } catch {
    return resolve(dirname(absolute), readlinkSync(absolute));
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A SQLite or file-system failure at start, said with the file and what to do. */
function explain(error: Error & { code?: string }, shown: string, folder: string): string {
  switch (error.code) {
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return `The state file ${shown} is held by another running mock (SQLite's lock); stop that one, or give another file.`;
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_READONLY':
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `Cannot write the state file ${shown}: the file or its folder ${folder} is not writable (${error.message}).`;
    case 'SQLITE_NOTADB':
      return `The state file ${shown} is not a database membership-mock can read (${error.message}); it was left as it is.`;
    case 'SQLITE_CORRUPT':
      return damaged(shown, `SQLite says "${error.message}"`);
    default:
      return `Cannot open the state file ${shown}: ${error.message}.`;
  }
}
