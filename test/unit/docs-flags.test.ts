// The flags reference (mock/docs/flags.md) names exactly the flags the command parses, as its --help does
// (cli-flags.test.ts): a flag added, renamed or removed without its row fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { FLAGS } from '../../mock/cli/cli-flags.js';
import type { FlagTable } from '../../mock/cli/parse-flags.js';

const FLAGS_DOC = new URL('../../mock/docs/flags.md', import.meta.url);

/**
 * The flags a Markdown table lists in its first column, written `--name`, or `--name -x` where the row gives a
 * short one after it: the rows of the table whose header's first cell is `flag`.
 */
function tableFlags(markdown: string): string[] {
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) => /^\|\s*flag\s*\|/.test(line));
  if (header < 0) throw new Error('no table whose first column is "flag"');
  const rows = [];
  for (let i = header + 2; i < lines.length && lines[i]!.startsWith('|'); i++) rows.push(lines[i]!);
  return rows.flatMap((row) => {
    const first = row.split('|')[1]!;
    const flags: string[] = [];
    for (const [, long, short] of first.matchAll(/`(?:--([a-z][a-z-]*)[^`]*|-(\w))`/g)) {
      if (long) flags.push(`--${long}`);
      else if (flags.length) flags.push(`${flags.pop()!} -${short}`);
      else throw new Error(`a short flag -${short} before any long one: ${row}`);
    }
    return flags;
  });
}

/** The flags a table parses, written as {@link tableFlags} writes them. */
function parsedFlags(table: FlagTable): string[] {
  return Object.entries(table).map(([long, { short }]) => (short ? `--${long} -${short}` : `--${long}`));
}

describe('mock/docs/flags.md', () => {
  test('names every flag the command parses, and no other', () => {
    expect(tableFlags(readFileSync(FLAGS_DOC, 'utf8')).sort()).toEqual(parsedFlags(FLAGS).sort());
  });

  test('names each flag in one row only', () => {
    const named = tableFlags(readFileSync(FLAGS_DOC, 'utf8'));
    expect(named.length).toBe(new Set(named).size);
  });
});

describe('tableFlags', () => {
  const table = [
    '| flag | default | |',
    '| --- | --- | --- |',
    '| `--port N` | 4010 | a port |',
    '| `--latency MS` or `MIN-MAX` | 0 | latency |',
    '| `--help` (`-h`), `--version` (`-v`) | | help |',
    '',
    '| `--not-a-row` | | after the table |',
  ].join('\n');

  test('reads the first column of the flag table only, shorts beside their long flag', () => {
    expect(tableFlags(table)).toEqual(['--port', '--latency', '--help -h', '--version -v']);
  });

  test('says so when there is no flag table', () => {
    expect(() => tableFlags('# Flags\n\nNone.')).toThrow(/no table/);
  });
});
