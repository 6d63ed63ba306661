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
    return parseArgs({ args: argv, strict: true, allowPositionals: false, options });
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
