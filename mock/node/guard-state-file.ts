// Notices a state file deleted or replaced while the mock runs. SQLite goes on writing to the files it holds
// open, so without this every change would be answered as saved, and lost with a file no later start opens.
import { statSync } from 'node:fs';

/**
 * Pins the state file and its write-ahead log (`FILE-wal`) as they are now, by device and inode, and gives a
 * check that says why the files at those paths are no longer the ones pinned (`undefined` while they are). A
 * stat of each, a few microseconds: cheap enough before every change. A log that does not exist when pinned is
 * not checked.
 * @example
 * const lost = guardStateFile('demo/state.db');
 * lost(); // undefined, or 'The state file demo/state.db was deleted while the mock ran'
 */
export function guardStateFile(file: string): () => string | undefined {
  const pinned = [
    { path: file, name: `The state file ${file}`, id: identify(file) },
    { path: `${file}-wal`, name: `The state file's write-ahead log ${file}-wal`, id: identify(`${file}-wal`) },
  ].filter((one) => one.id !== 'none');
  return () => {
    for (const { path, name, id } of pinned) {
      const now = identify(path);
      if (now === id) continue;
      if (now === 'none') return `${name} was deleted while the mock ran`;
      if (now.startsWith('error')) return `${name} cannot be seen any more (${now.slice(6)}) while the mock ran`;
      return `${name} was replaced by another file while the mock ran`;
    }
    return undefined;
  };
}

/** The device and inode of the file at `path`: `none` when nothing is there, `error …` when it cannot be told. */
function identify(path: string): string {
  try {
    const { dev, ino } = statSync(path, { bigint: true });
    return `${dev}:${ino}`;
  } catch (error) {
    const { code, message } = error as Error & { code?: string };
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'none' : `error ${message}`;
  }
}
