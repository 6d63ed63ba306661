import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { StateError } from '../../mock/state/check-snapshot.js';
import { createStateWriter, readJsonFile, readStateFile } from '../../mock/state/state-file.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'state-file-'));
});

afterEach(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

const STATE = { '/members/m1/passes': [{ id: 'p1', kind: 'gym' }] };

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

describe('readStateFile', () => {
  test('is undefined when there is no state file yet', async () => {
    await expect(readStateFile(join(dir, 'state.json'))).resolves.toBeUndefined();
  });

  test('reads back the collections a writer saved', async () => {
    const path = join(dir, 'state.json');
    const writer = createStateWriter(path, () => {});
    writer.schedule(() => STATE);
    await writer.flush();
    await expect(readStateFile(path)).resolves.toEqual(STATE);
  });

  test.each([
    ['null', 'null'],
    ['an array', '[]'],
    ['another format', '{"format":"other","version":1,"collections":{}}'],
    ['another version', '{"format":"membership-mock-state","version":2,"collections":{}}'],
    ['no version', '{"format":"membership-mock-state","collections":{}}'],
  ])('refuses %s, which is not a state file of this mock', async (_, text) => {
    const path = join(dir, 'state.json');
    await writeFile(path, text);
    await expect(readStateFile(path)).rejects.toThrow(
      new StateError(
        `The state file ${path} is not a membership-mock state file ` +
          '(expected "format": "membership-mock-state", "version": 1). It was left as it is.',
      ),
    );
  });
});

describe('createStateWriter', () => {
  test('writes nothing before its delay, then the latest state, read once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const path = join(dir, 'state.json');
    const writer = createStateWriter(path, () => {}, 50);
    const first = vi.fn(() => ({}));
    const latest = vi.fn(() => STATE);
    writer.schedule(first);
    writer.schedule(latest);
    vi.advanceTimersByTime(49);
    expect(latest).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(first).not.toHaveBeenCalled();
    expect(latest).toHaveBeenCalledOnce();
    await writer.flush();
    await expect(readStateFile(path)).resolves.toEqual(STATE);
  });

  test('waits 50 milliseconds by default', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const writer = createStateWriter(join(dir, 'state.json'), () => {});
    const snapshot = vi.fn(() => STATE);
    writer.schedule(snapshot);
    vi.advanceTimersByTime(49);
    expect(snapshot).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(snapshot).toHaveBeenCalledOnce();
  });

  test('writes at once on flush, and not again when its timer would have fired', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const writer = createStateWriter(join(dir, 'state.json'), () => {}, 50);
    const snapshot = vi.fn(() => STATE);
    writer.schedule(snapshot);
    await writer.flush();
    expect(snapshot).toHaveBeenCalledOnce();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(50);
    expect(snapshot).toHaveBeenCalledOnce();
  });

  test('schedules a new write for a change after a write', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const path = join(dir, 'state.json');
    const writer = createStateWriter(path, () => {}, 50);
    writer.schedule(() => ({}));
    vi.advanceTimersByTime(50);
    writer.schedule(() => STATE);
    vi.advanceTimersByTime(50);
    await writer.flush();
    await expect(readStateFile(path)).resolves.toEqual(STATE);
  });

  test('resolves a flush with nothing pending', async () => {
    const snapshot = vi.fn(() => STATE);
    const writer = createStateWriter(join(dir, 'state.json'), () => {});
    await expect(writer.flush()).resolves.toBeUndefined();
    writer.schedule(snapshot);
    await writer.flush();
    await writer.flush();
    expect(snapshot).toHaveBeenCalledOnce();
  });

  test('writes in order: the last state scheduled is the one on disk', async () => {
    const path = join(dir, 'state.json');
    const writer = createStateWriter(path, () => {});
    const states = [1, 2, 3].map((n) => ({ '/members/m1/passes': [{ id: `p${n}` }] }));
    const flushes = states.map((state) => {
      writer.schedule(() => state);
      return writer.flush();
    });
    await Promise.all(flushes);
    await expect(readStateFile(path)).resolves.toEqual(states[2]);
  });

  test('hands a failed write to onError, resolves the flush, and leaves no temporary file', async () => {
    const path = join(dir, 'state.json');
    await mkdir(path);
    const onError = vi.fn();
    const writer = createStateWriter(path, onError);
    writer.schedule(() => STATE);
    await expect(writer.flush()).resolves.toBeUndefined();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'EISDIR' }));
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  test('reports a write into a folder that does not exist', async () => {
    const onError = vi.fn();
    const writer = createStateWriter(join(dir, 'missing', 'state.json'), onError);
    writer.schedule(() => STATE);
    await writer.flush();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'ENOENT' }));
  });

  test('keeps writing after a failed write', async () => {
    const path = join(dir, 'state.json');
    await mkdir(path);
    const writer = createStateWriter(path, () => {});
    writer.schedule(() => STATE);
    await writer.flush();
    await rm(path, { recursive: true });
    writer.schedule(() => STATE);
    await writer.flush();
    await expect(readStateFile(path)).resolves.toEqual(STATE);
  });

  test('writes readable JSON that ends with a newline', async () => {
    const path = join(dir, 'state.json');
    const writer = createStateWriter(path, () => {});
    writer.schedule(() => STATE);
    await writer.flush();
    const text = await readFile(path, 'utf8');
    expect(text).toMatch(/^\{\n {2}"format": "membership-mock-state",\n/);
    expect(text.endsWith('}\n')).toBe(true);
  });
});
