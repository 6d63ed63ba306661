// The flags each command parses and the ones its --help describes are the same set: neither can drift.
import { describe, expect, test } from 'vitest';
import { FLAGS, HELP } from '../../mock/cli/cli-flags.js';
import { parseFlags, UsageError, type FlagTable } from '../../mock/cli/parse-flags.js';
import { VERIFY_FLAGS, VERIFY_HELP } from '../../mock/verify/verify-command.js';

/** The flags a help text lists in its Options section: `--name`, and `-x` where it gives a short one. */
function describedFlags(help: string): string[] {
  const options = help.slice(help.indexOf('Options:'));
  const section = options.slice(0, options.search(/\n\n|$/));
  return [...section.matchAll(/^ {2}(?:-(\w), )?--([a-z][a-z-]*)/gm)].map(([, short, long]) =>
    short ? `--${long} -${short}` : `--${long}`,
  );
}

/** The flags a table parses, written as {@link describedFlags} writes them. */
function parsedFlags(table: FlagTable): string[] {
  return Object.entries(table).map(([long, { short }]) => (short ? `--${long} -${short}` : `--${long}`));
}

describe.each([
  ['membership-mock', FLAGS, HELP],
  ['membership-mock verify', VERIFY_FLAGS, VERIFY_HELP],
] as const)('%s --help', (_, table, help) => {
  test('describes every flag it parses, and no other', () => {
    expect(describedFlags(help).sort()).toEqual(parsedFlags(table).sort());
  });
});

describe('membership-mock --help', () => {
  test.each([
    ['the Prefer delay', 'delay=MS'],
    ['the query fallback', '__delay=MS'],
    ['Swagger 2', 'Swagger 2.0'],
    ['OpenAPI 3.1', '3.1'],
    ['Postman', 'Postman collection'],
    ['the admin index', 'GET /__mock lists'],
  ])('names %s', (_, text) => {
    expect(HELP).toContain(text);
  });

  test('does not say the contract must be OpenAPI 3.x', () => {
    expect(HELP).not.toMatch(/3\.x only|OpenAPI 3\.x file/);
  });
});

describe('parseFlags', () => {
  test('names the nearest flag of the table it was given', () => {
    expect(() => parseFlags(['--base-ur', 'x'], VERIFY_FLAGS)).toThrow(
      new UsageError("Unknown option '--base-ur'. Did you mean --base-url?"),
    );
  });

  test('a flag missing its value is a usage error, not a crash', () => {
    expect(() => parseFlags(['--port'], FLAGS)).toThrow(UsageError);
  });
});
