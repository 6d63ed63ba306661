import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, onTestFinished, test, vi } from 'vitest';
import { StateError } from '../../mock/state/check-snapshot.js';
import { readJsonFile } from '../../mock/node/read-json-file.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'state-file-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readJsonFile', () => {
  test('reads the JSON value of a file', async () => {
    await writeFile(join(dir, 'data.json'), '{"a":[1,2]}');
    await expect(readJsonFile(join(dir, 'data.json'), 'data file')).resolves.toEqual({ a: [1, 2] });
  });

  test('says there is no such file, naming what it looked for and where', async () => {
    const path = join(dir, 'missing.json');
    await expect(readJsonFile(path, 'data file')).rejects.toThrow(
      new StateError(`Cannot read the data file ${path}: no such file`),
    );
  });

  test('gives the system’s reason when the file exists but cannot be read', async () => {
    await expect(readJsonFile(dir, 'data file')).rejects.toThrow(
      expect.objectContaining({
        name: 'StateError',
        message: expect.stringMatching(/^Cannot read the data file .*EISDIR/),
      }),
    );
  });

  test('says a file is not valid JSON and that it was left as it is', async () => {
    const path = join(dir, 'cut.json');
    await writeFile(path, '{"a":');
    await expect(readJsonFile(path, 'state file')).rejects.toThrow(
      expect.objectContaining({
        name: 'StateError',
        message: expect.stringMatching(new RegExp(`^The state file ${path} is not valid JSON .*It was left as it is`)),
      }),
    );
  });
});

describe('readJsonFile on a file larger than it reads', () => {
  test('refuses it before reading, with its size and the limit', async () => {
    const path = join(dir, 'big.json');
    await writeFile(path, `[${'1,'.repeat(1024)}1]`);
    await expect(readJsonFile(path, 'data file', 1024)).rejects.toThrow(
      new StateError(
        `The data file ${path} is 2KB (2051 bytes); a JSON file of state may be 1KB at most. ` +
          'Split it, or keep that much state in a SQLite state file (--state-file).',
      ),
    );
  });

  test('reads one of exactly the limit', async () => {
    const path = join(dir, 'edge.json');
    await writeFile(path, `"${'a'.repeat(1022)}"`);
    await expect(readJsonFile(path, 'data file', 1024)).resolves.toBe('a'.repeat(1022));
  });
});

describe('readJsonFile on a file that grew after its size was read', () => {
  /** Files seem to have `size` bytes when asked, whatever they hold. */
  async function sizesSeenAs(size: number): Promise<void> {
    const handle = await open(join(dir, 'probe'), 'w');
    const prototype = Object.getPrototypeOf(handle) as { stat: () => Promise<{ size: number }> };
    await handle.close();
    const stat = vi.spyOn(prototype, 'stat').mockResolvedValue({ size });
    onTestFinished(() => stat.mockRestore());
  }

  test('reads it whole when it is still within the limit', async () => {
    const path = join(dir, 'grown.json');
    const items = Array.from({ length: 200_000 }, (_, i) => i);
    await writeFile(path, JSON.stringify(items));
    await sizesSeenAs(10);
    await expect(readJsonFile(path, 'data file', 4 * 1024 * 1024)).resolves.toEqual(items);
  });

  test('refuses it when it grew past the limit', async () => {
    const path = join(dir, 'grown-large.json');
    await writeFile(path, `"${'a'.repeat(3000)}"`);
    await sizesSeenAs(10);
    await expect(readJsonFile(path, 'data file', 2048)).rejects.toThrow(
      `The data file ${path} is larger than that; a JSON file of state may be 2KB at most.`,
    );
  });
});

describe('readJsonFile on a pipe, which has no size before it is read', () => {
  test('stops past the limit of a pipe that never ends, and refuses it', async () => {
    const { spawn } = await import('node:child_process');
    const { createWriteStream } = await import('node:fs');
    const path = join(dir, 'pipe');
    await new Promise<void>((done, fail) =>
      spawn('mkfifo', [path]).on('exit', (code) => (code === 0 ? done() : fail(new Error(`mkfifo ${code}`)))),
    );
    // The writer writes for as long as the pipe has a reader: a reader that read to the end would never return.
    const writer = createWriteStream(path);
    let written = 0;
    const chunk = '1,'.repeat(512);
    const more = (): void => {
      while (writer.write(chunk)) written += chunk.length;
    };
    writer.on('open', more).on('drain', more);
    const stopped = new Promise<void>((resolve) => writer.on('error', () => resolve()).on('close', () => resolve()));
    await expect(readJsonFile(path, 'data file', 1024)).rejects.toThrow(
      new StateError(
        `The data file ${path} is larger than that; a JSON file of state may be 1KB at most. ` +
          'Split it, or keep that much state in a SQLite state file (--state-file).',
      ),
    );
    // The reader closed the pipe: the writer's next write fails (EPIPE) and it stops.
    await stopped;
    expect(written).toBeGreaterThan(1024);
  });

  test('reads one within the limit', async () => {
    const { spawn } = await import('node:child_process');
    const path = join(dir, 'small-pipe');
    await new Promise<void>((done, fail) =>
      spawn('mkfifo', [path]).on('exit', (code) => (code === 0 ? done() : fail(new Error(`mkfifo ${code}`)))),
    );
    const writer = writeFile(path, '{"a":[1,2]}');
    await expect(readJsonFile(path, 'data file', 1024)).resolves.toEqual({ a: [1, 2] });
    await writer;
  });

  test('reads one of several MiB whole (its buffer grows as it is read)', async () => {
    const { spawn } = await import('node:child_process');
    const path = join(dir, 'large-pipe');
    await new Promise<void>((done, fail) =>
      spawn('mkfifo', [path]).on('exit', (code) => (code === 0 ? done() : fail(new Error(`mkfifo ${code}`)))),
    );
    const items = Array.from({ length: 300_000 }, (_, i) => `item ${i}`);
    const writer = writeFile(path, JSON.stringify(items));
    await expect(readJsonFile(path, 'data file', 8 * 1024 * 1024)).resolves.toEqual(items);
    await writer;
  });
});
