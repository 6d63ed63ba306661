// Reads JSON files of state: fixtures (--data), and state files of earlier versions to import.
import { open, type FileHandle } from 'node:fs/promises';
import bytes from 'bytes';
import { StateError } from '../state/check-snapshot.js';

/**
 * The largest JSON file of state read (64 MiB: half a million passes; parsed, it takes several times that in the
 * heap `npm start` gives). A SQLite state file (`--state-file`) holds more.
 */
export const JSON_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Reads a JSON file of at most `limit` bytes, or says clearly why it cannot.
 * @example await readJsonFile('fixtures.json', 'data file') // { '/members/m1/passes': [ ... ] }
 */
export async function readJsonFile(path: string, what: string, limit = JSON_FILE_BYTES): Promise<unknown> {
  const cannot = (error: NodeJS.ErrnoException) => {
    throw new StateError(
      `Cannot read the ${what} ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
    );
  };
  const file = await open(path).catch(cannot);
  let bytes: Buffer;
  try {
    const { size } = await file.stat();
    if (size > limit) throw tooLarge(path, what, size, limit);
    // Read up to one byte past the limit: a pipe (`--data <(curl …)`) has no size, and a file may grow.
    bytes = await readAtMost(file, limit + 1, size).catch(cannot);
  } finally {
    await file.close();
  }
  if (bytes.length > limit) throw tooLarge(path, what, undefined, limit);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new StateError(
      `The ${what} ${path} is not valid JSON (${(error as Error).message}); it may have been cut short. ` +
        'It was left as it is: fix it, or move it away to start from the seed.',
    );
  }
}

/**
 * The file's bytes, `max` at most (a pipe or a growing file ends where the reading stopped), read into one
 * buffer of the size the file has (and one byte more, to see it grew): no copy of 15 MB of chunks at the end. A
 * pipe has no size: its buffer starts at a MiB and doubles.
 */
async function readAtMost(file: FileHandle, max: number, size: number): Promise<Buffer> {
  let buffer = Buffer.allocUnsafe(Math.min(max, size > 0 ? size + 1 : CHUNK));
  let total = 0;
  while (total < max) {
    if (total === buffer.length) {
      const larger = Buffer.allocUnsafe(Math.min(max, buffer.length * 2));
      buffer.copy(larger, 0, 0, total);
      buffer = larger;
    }
    const { bytesRead } = await file.read(buffer, total, buffer.length - total, null);
    if (bytesRead === 0) break;
    total += bytesRead;
  }
  return buffer.subarray(0, total);
}

const CHUNK = 1024 * 1024;

/** `size` `undefined`: read past the limit, with no size known before (a pipe) or grown since. */
function tooLarge(path: string, what: string, size: number | undefined, limit: number): StateError {
  const more =
    what === 'data file'
      ? 'Split it, or keep that much state in a SQLite state file (--state-file).'
      : 'It is left as it is.';
  return new StateError(
    `The ${what} ${path} is ${size === undefined ? 'larger than that' : `${bytes(size)} (${size} bytes)`}; ` +
      `a JSON file of state may be ${bytes(limit)} at most. ${more}`,
  );
}
