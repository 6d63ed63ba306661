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
    const { args, undone } = opposites(argv, options);
    const parsed = parseArgs({ args, strict: true, allowPositionals: false, options });
    Object.assign(parsed.values, undone);
    return parsed;
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
 * `--stateless`, `--cors` for `--no-cors`. The opposites are taken out of the arguments and set to `false`;
 * the last of a switch and its opposite wins.
 * @example opposites(['--no-errors'], { errors: { type: 'boolean' } }) // { args: [], undone: { errors: false } }
 */
function opposites(argv: string[], options: FlagTable): { args: string[]; undone: Record<string, false> } {
  const undone: Record<string, false> = {};
  const args: string[] = [];
  for (const arg of argv) {
    const name = /^--([a-z][a-z-]*)$/.exec(arg)?.[1];
    const opposite =
      name === undefined || name in options
        ? undefined
        : name.startsWith('no-') && options[name.slice(3)]?.type === 'boolean'
          ? name.slice(3)
          : options[`no-${name}`]?.type === 'boolean'
            ? `no-${name}`
            : undefined;
    if (opposite === undefined) {
      // A switch given after its opposite wins.
      if (name !== undefined && name in undone) delete undone[name];
      args.push(arg);
      continue;
    }
    undone[opposite] = false;
    // Its opposite given before it loses.
    for (let i = args.length - 1; i >= 0; i--) if (args[i] === `--${opposite}`) args.splice(i, 1);
  }
  return { args, undone };
}
