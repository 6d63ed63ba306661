// Strict flag parsing shared by the commands: an unknown flag is a usage error naming the nearest known one.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { nearestFlag } from '../lib/nearest-name.js';

/** Thrown for a bad flag: the message is for the person at the terminal. */
export class UsageError extends Error {}

/** The flags a command takes, as `parseArgs` reads them. */
export type FlagTable = NonNullable<ParseArgsConfig['options']>;

/** What {@link parseFlags} gives: the values of the flags in `T`, typed. */
export type ParsedFlags<T extends FlagTable> = ReturnType<
  typeof parseArgs<{ args: string[]; strict: true; allowPositionals: false; options: T }>
>;

/**
 * `parseArgs`, strict and without positionals, whose unknown flag names the nearest known one.
 * @example parseFlags(['--contracts', 'x'], { contract: { type: 'string' } })
 * // throws UsageError("Unknown option '--contracts'. Did you mean --contract?")
 */
export function parseFlags<T extends FlagTable>(argv: string[], options: T): ParsedFlags<T> {
  try {
    const { table, opposite } = withOpposites(options);
    const parsed = parseArgs({ args: argv, strict: true, allowPositionals: false, options: table, tokens: true });
    undoOpposites(parsed, opposite);
    delete (parsed as { tokens?: unknown }).tokens;
    return parsed as unknown as ParsedFlags<T>;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const typed = /'([^']+)'/.exec(message)?.[1] ?? '';
      const near = nearestFlag(typed, Object.keys(options));
      throw new UsageError(`Unknown option '${typed}'.${near ? ` Did you mean ${near}?` : ''}`);
    }
    // A missing value, a value given to a switch: parseArgs's own message says which flag.
    if (code?.startsWith('ERR_PARSE_ARGS_')) throw new UsageError(message);
    throw error;
  }
}

/**
 * Every switch has its opposite, so a flag can undo what a config file turned on: `--no-stateless` for
 * `--stateless`, `--cors` for `--no-cors`. The opposites are added to the table parseArgs reads, so an argument
 * is a flag or a value as parseArgs says (`--contract --cors` misses a value; `--contract=--cors` names a file).
 * @example withOpposites({ errors: { type: 'boolean' } }) // { errors: …, 'no-errors': { type: 'boolean' } }
 */
function withOpposites(options: FlagTable): { table: FlagTable; opposite: Map<string, string> } {
  const opposite = new Map<string, string>();
  for (const [name, { type }] of Object.entries(options)) {
    if (type !== 'boolean') continue;
    const other = name.startsWith('no-') ? name.slice(3) : `no-${name}`;
    if (!(other in options)) opposite.set(other, name);
  }
  const added = Object.fromEntries([...opposite.keys()].map((name) => [name, { type: 'boolean' as const }]));
  return { table: { ...options, ...added }, opposite };
}

/**
 * The values parseArgs read, with each opposite set as `false` on its switch: the last of a switch and its
 * opposite wins (the tokens give the order).
 */
function undoOpposites(
  parsed: { values: Record<string, unknown>; tokens?: { kind: string; name?: string }[] },
  opposite: Map<string, string>,
): void {
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    const name = opposite.get(token.name);
    if (name !== undefined) {
      parsed.values[name] = false;
      delete parsed.values[token.name];
    } else if (typeof parsed.values[token.name] === 'boolean') parsed.values[token.name] = true;
  }
}
