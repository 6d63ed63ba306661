// Reads JSON files of state: fixtures (--data), and state files of earlier versions to import.
import { readFile } from 'node:fs/promises';
import { StateError } from '../state/check-snapshot.js';

/** Reads a JSON file, or says clearly why it cannot. */
export async function readJsonFile(path: string, what: string): Promise<unknown> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new StateError(
      `Cannot read the ${what} ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
    );
  });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StateError(
      `The ${what} ${path} is not valid JSON (${(error as Error).message}); it may have been cut short. ` +
        'It was left as it is: fix it, or move it away to start from the seed.',
    );
  }
}
