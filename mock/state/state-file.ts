// Reads and writes state as JSON files: fixtures to start from, and a state file that survives restarts.
import { access, open, readFile, rename, rm } from 'node:fs/promises';
import { StateError } from './check-snapshot.js';
import type { StoreSnapshot } from './store.js';

const FORMAT = 'membership-mock-state';

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

/** Reads a state file written by {@link createStateWriter}; `undefined` when there is none yet. */
export async function readStateFile(path: string): Promise<unknown> {
  const exists = await access(path).then(
    () => true,
    () => false,
  );
  if (!exists) return undefined;
  const value = (await readJsonFile(path, 'state file')) as {
    format?: unknown;
    version?: unknown;
    collections?: unknown;
  } | null;
  if (typeof value !== 'object' || value === null || value.format !== FORMAT || value.version !== 1) {
    throw new StateError(
      `The state file ${path} is not a membership-mock state file ` +
        `(expected "format": "${FORMAT}", "version": 1). It was left as it is.`,
    );
  }
  return value.collections;
}

/** Writes state files atomically, coalescing bursts of changes. */
export interface StateWriter {
  /** Saves the state soon, reading it with `snapshot()` only when the write happens. */
  schedule(snapshot: () => StoreSnapshot): void;
  /** Saves what is pending now and resolves when it is on disk. */
  flush(): Promise<void>;
}

/**
 * A writer that saves to a temporary file beside the target, syncs it, then renames it over the target,
 * so a crash leaves either the old file or the new one, never half of one.
 */
export function createStateWriter(path: string, onError: (error: Error) => void, delayMs = 50): StateWriter {
  let pending: (() => StoreSnapshot) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const write = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const snapshot = pending;
    pending = undefined;
    if (snapshot === undefined) return writing;
    const collections = snapshot();
    writing = writing.then(() => save(path, collections)).catch((error: Error) => onError(error));
    return writing;
  };

  return {
    schedule(snapshot) {
      pending = snapshot;
      timer ??= setTimeout(() => void write(), delayMs);
    },
    flush: write,
  };
}

async function save(path: string, collections: StoreSnapshot): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  const saved = { format: FORMAT, version: 1, savedAt: new Date().toISOString(), collections };
  const text = `${JSON.stringify(saved, null, 2)}\n`;
  const file = await open(temp, 'w');
  try {
    await file.writeFile(text, 'utf8');
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temp, path).catch(async (error: Error) => {
    await rm(temp, { force: true });
    throw error;
  });
}
