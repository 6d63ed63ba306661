// Reads JSON files of state: fixtures (--data), and state files of earlier versions to import.
import { open } from 'node:fs/promises';
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
    bytes = await file.readFile().catch(cannot);
  } finally {
    await file.close();
  }
  // It grew while it was read.
  if (bytes.length > limit) throw tooLarge(path, what, bytes.length, limit);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new StateError(
      `The ${what} ${path} is not valid JSON (${(error as Error).message}); it may have been cut short. ` +
        'It was left as it is: fix it, or move it away to start from the seed.',
    );
  }
}

function tooLarge(path: string, what: string, size: number, limit: number): StateError {
  return new StateError(
    `The ${what} ${path} is ${bytes(size)} (${size} bytes); a JSON file of state may be ${bytes(limit)} at most. ` +
      'Split it, or keep that much state in a SQLite state file (--state-file).',
  );
}
