// Report files are written over once a run, joined when the same run writes them again, and GitHub's job
// summary is appended to.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { writeReport } from '../../mock/node/write-report.js';

const below = (earlier: string, text: string) => `${earlier}\n${text}`;
const fileIn = async (name: string) => join(await mkdtemp(join(tmpdir(), 'report-')), name);

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('writeReport', () => {
  test('writes over what an earlier run left, and makes the folder', async () => {
    const file = await fileIn('old.md');
    await writeFile(file, 'the last run\n');
    expect(await writeReport(file, 'this run', below)).toBe('written');
    expect(await readFile(file, 'utf8')).toBe('this run\n');
    const nested = join(await fileIn('reports'), 'deep/coverage.xml');
    await writeReport(nested, '<testsuites/>');
    expect(await readFile(nested, 'utf8')).toBe('<testsuites/>\n');
  });

  test('joins a second report of the same run when told how, and writes over it when not', async () => {
    const joined = await fileIn('coverage.md');
    await writeReport(joined, 'first mock', below);
    expect(await writeReport(joined, 'second mock', below)).toBe('joined');
    expect(await readFile(joined, 'utf8')).toBe('first mock\nsecond mock\n');
    const replaced = await fileIn('coverage.json');
    await writeReport(replaced, '{"first":1}');
    expect(await writeReport(replaced, '{"second":2}')).toBe('written');
    expect(await readFile(replaced, 'utf8')).toBe('{"second":2}\n');
  });

  test('appends to GITHUB_STEP_SUMMARY, even the first time a run writes it', async () => {
    const summary = await fileIn('step_summary');
    await writeFile(summary, 'an earlier step\n');
    vi.stubEnv('GITHUB_STEP_SUMMARY', summary);
    expect(await writeReport(summary, 'coverage')).toBe('appended');
    expect(await readFile(summary, 'utf8')).toBe('an earlier step\ncoverage\n');
  });
});
