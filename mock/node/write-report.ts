// Writing a report file (coverage, JUnit, a Pact, verify's --output): afresh the first time a run writes it, so
// a local run never adds to the last one's; joined to it when the same run writes it again (two vitest projects,
// each with its own global setup and mock), so one mock's report does not silently replace another's; and always
// appended to GitHub's job summary, which GitHub has each writer append to.
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** How a report joins what the same run wrote to its file before: a Markdown table goes below, a Pact merges. */
export type JoinReport = (earlier: string, text: string) => string;

/** What became of the file: written afresh, joined to this run's earlier report, or appended to (a job summary). */
export type ReportWrite = 'written' | 'joined' | 'appended';

const KEY = Symbol.for('membership-mock.reports-written');
/** The files this process has written. Process-wide: a run may load two copies of this module (two projects). */
const written: Set<string> = ((globalThis as { [KEY]?: Set<string> })[KEY] ??= new Set<string>());

/**
 * Writes `text` and a newline to `file`, its folder made if need be: over what was there, unless this process
 * wrote the file before and `join` says how to keep both; appended to `GITHUB_STEP_SUMMARY` whatever is asked.
 * @example await writeReport('reports/api-coverage.md', markdown, (earlier, text) => `${earlier}\n\n${text}`)
 */
export async function writeReport(file: string, text: string, join?: JoinReport): Promise<ReportWrite> {
  const path = resolve(file);
  await mkdir(dirname(path), { recursive: true });
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (summary && resolve(summary) === path) {
    await appendFile(path, `${text}\n`);
    return 'appended';
  }
  const earlier = join && written.has(path) ? await readFile(path, 'utf8').catch(() => undefined) : undefined;
  written.add(path);
  await writeFile(path, `${earlier === undefined ? text : join!(earlier.replace(/\n$/, ''), text)}\n`);
  return earlier === undefined ? 'written' : 'joined';
}
