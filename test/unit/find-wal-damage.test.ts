// Telling a write-ahead log damaged in the middle from one a kill (kill -9) cut short, on logs SQLite wrote.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, statSync, truncateSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { findWalDamage } from '../../mock/node/find-wal-damage.js';
import { keepWrapper, prepareKept } from '../../mock/node/sqlite-wrappers.js';
import { ROOT } from '../support/cli-process.js';

const INSERT = "INSERT INTO t (body) VALUES (printf('%0300d', 1))";
/** One transaction of 2000 rows: more than a cache of 8 pages holds, so SQLite writes its pages before a commit. */
const BIG_INSERT =
  'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) ' +
  "INSERT INTO t (body) SELECT printf('%0300d', i) FROM n";

/**
 * Runs the statements on the database as the mock opens it (WAL, exclusive lock), each its own transaction, in a
 * process then killed with SIGKILL: its write-ahead log stays as it was written.
 */
function killedAfter(file: string, statements: string[]): void {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)});
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.pragma('cache_size = 8');
    db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT)');
    for (const sql of ${JSON.stringify(statements)}) db.exec(sql);
    process.kill(process.pid, 'SIGKILL');`;
  const { signal, stderr } = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
  if (signal !== 'SIGKILL') throw new Error(`the writer was not killed: ${stderr}`);
}

/** How many rows SQLite reads from the file (and its log). */
function rowsOf(file: string): number {
  // No wrapper left to the garbage collector: on Node 24 its collection aborts the process (see sqlite-wrappers.ts).
  const db = keepWrapper(new Database(file, { readonly: true }));
  try {
    return prepareKept(db, 'SELECT count(*) FROM t').pluck().get() as number;
  } finally {
    db.close();
  }
}

function overwrite(file: string, offset: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

/** A state file whose log holds 40 transactions of one row each. */
function loggedFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'wal-damage-')), 'state.db');
  killedAfter(file, Array<string>(40).fill(INSERT));
  return file;
}

/** Where frame `index` (from 0) of a log starts, and how long a frame is. */
function frameAt(wal: string, index: number): { at: number; size: number } {
  const size = 24 + readFileSync(wal).readUInt32BE(8);
  return { at: 32 + index * size, size };
}

describe('findWalDamage', () => {
  test('a log whose frames all check has no damage', () => {
    const file = loggedFile();
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(40 * 4096);
    expect(findWalDamage(file)).toBeUndefined();
    expect(rowsOf(file)).toBe(40);
  });

  test('a file without a log has no damage', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wal-damage-')), 'state.db');
    keepWrapper(new Database(file)).close();
    expect(findWalDamage(file)).toBeUndefined();
  });

  test('a log cut inside its last frame, as a kill in the middle of a write leaves it, has no damage', () => {
    const file = loggedFile();
    const wal = `${file}-wal`;
    truncateSync(wal, statSync(wal).size - 1000);
    expect(findWalDamage(file)).toBeUndefined();
    expect(rowsOf(file)).toBe(39);
  });

  test('frames a killed transaction left behind a later commit have no damage', () => {
    const file = loggedFile();
    // Written before its commit, then killed: frames of no transaction that committed.
    killedAfter(file, [`BEGIN; ${BIG_INSERT};`]);
    // The next start commits over their first frames; the rest stay in the log, after frames that check.
    killedAfter(file, [INSERT, INSERT]);
    expect(findWalDamage(file)).toBeUndefined();
    expect(rowsOf(file)).toBe(42);
  });

  test('bytes changed in the middle of the log, with commits after them, are damage, naming the frame', () => {
    const file = loggedFile();
    const wal = `${file}-wal`;
    const frames = Math.floor((statSync(wal).size - 32) / frameAt(wal, 0).size);
    const middle = Math.floor(frames / 2);
    overwrite(wal, frameAt(wal, middle).at + 24 + 1000, Buffer.alloc(16, 0xff));
    expect(findWalDamage(file)).toMatch(
      new RegExp(`^its write-ahead log ${file}-wal breaks at frame ${middle + 1} of ${frames}, before \\d+ commits`),
    );
  });

  test('a frame changed before the last commit says "before 1 commit"', () => {
    const file = loggedFile();
    const wal = `${file}-wal`;
    const frames = Math.floor((statSync(wal).size - 32) / frameAt(wal, 0).size);
    // Each insert is one frame, its own commit: the last frame is the one commit after the second to last.
    overwrite(wal, frameAt(wal, frames - 2).at + 24 + 1000, Buffer.alloc(16, 0xff));
    expect(findWalDamage(file)).toMatch(new RegExp(`breaks at frame ${frames - 1} of ${frames}, before 1 commit$`));
  });

  test('a changed header of a log with commits is damage: SQLite would read none of it', () => {
    const file = loggedFile();
    // The checkpoint sequence number, which the header's checksum covers.
    overwrite(`${file}-wal`, 12, Buffer.from([0xff]));
    // The table's creation and 40 inserts.
    expect(findWalDamage(file)).toMatch(/breaks at its header, before 41 commits/);
    expect(() => rowsOf(file)).toThrow('no such table: t');
  });
});
