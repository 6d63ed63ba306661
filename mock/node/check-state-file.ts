// Checks a state file that exists before it is served: that it can be written, that its write-ahead log is whole,
// and that its pages are sound. Each refusal names the file and what to do; the file is left as it is.
import { accessSync, constants } from 'node:fs';
import type Database from 'better-sqlite3';
import { StateError } from '../state/check-snapshot.js';
import { findWalDamage } from './find-wal-damage.js';
import { readPragma } from './sqlite-wrappers.js';

/**
 * Refuses a state file (or its write-ahead log) this process may not write: SQLite would open it read-only, and
 * fail at its first lock as a "disk I/O error".
 */
export function refuseReadOnly(target: string, shown: string): void {
  for (const [path, what] of [
    [target, 'the file'],
    [`${target}-wal`, `its write-ahead log ${target}-wal`],
  ] as const) {
    try {
      accessSync(path, constants.W_OK);
    } catch (error) {
      const { code, message } = error as Error & { code?: string };
      if (code === 'ENOENT') continue;
      throw new StateError(`Cannot write the state file ${shown}: ${what} is not writable (${message}).`);
    }
  }
}

/**
 * Refuses a state file whose write-ahead log is damaged in the middle (see findWalDamage), before SQLite opens it
 * and drops what follows the damage. Read twice: a log another running mock writes at this moment may read as
 * broken once (that mock's lock then refuses the start), never twice at the same frame.
 */
export function refuseDamagedLog(target: string, shown: string): void {
  const damage = findWalDamage(target);
  if (damage !== undefined && findWalDamage(target) === damage)
    throw new StateError(damaged(shown, `${damage}, which SQLite would drop without a word`, `${target}-wal`));
}

/**
 * Refuses a state file whose pages SQLite's quick check finds unsound (every page and b-tree, not the indexes'
 * contents: about 0.2 s for 100 MB). A sound file that a kill (kill -9) interrupted passes: its log is replayed.
 */
export function refuseDamagedPages(db: Database.Database, shown: string): void {
  const found = readPragma(db, 'quick_check(1)') as string;
  if (found === 'ok') return;
  const said = found.replace(/^\*\*\* in database main \*\*\*\s*/, '').replace(/\s+/g, ' ');
  throw new StateError(damaged(shown, `SQLite's check of its pages says "${said}"`));
}

/** The refusal of a damaged state file, and what to do about it. */
export function damaged(shown: string, what: string, log?: string): string {
  const away = log === undefined ? 'move it away' : `move it away (and ${log} with it)`;
  return `The state file ${shown} is damaged: ${what}. It was left as it is: ${away}, or restore a backup.`;
}
