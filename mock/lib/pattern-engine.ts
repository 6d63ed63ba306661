// Runs a contract's `pattern`s in linear time (RE2, through re2js), so no value can stall the process; a pattern
// RE2 cannot run is left to JavaScript's RegExp under a guard the platform gives (a time budget in Node), and one
// no value can make slow (see bounded-pattern.ts) to RegExp itself.
import { RE2JS } from 're2js';
import { BoundedMemo } from './bounded-memo.js';
import { isBoundedPattern } from './bounded-pattern.js';
import { leadingLookaheads, toRe2, UnsupportedPattern } from './ecma-to-re2.js';

/** A compiled contract pattern: `test` answers as `new RegExp(pattern, 'u').test` would. */
export interface ContractPattern {
  test(value: string): boolean;
  /**
   * `bounded`: JavaScript's RegExp, for a pattern whose every match is tried in a bounded number of steps (an
   * id's `^pas_[0-9A-Z]{26}$`: about ten times faster than re2js); `re2`: linear in the value's length;
   * `guarded`: JavaScript's RegExp, run under the guard.
   */
  readonly engine: 'bounded' | 're2' | 'guarded';
  /** Why RE2 could not run it (a `guarded` pattern only). */
  readonly reason?: string;
  /** `/pattern/flags`, as a RegExp prints: ajv tells its patterns apart by it. */
  toString(): string;
}

/** Runs the patterns RE2 cannot run within a guard. The platform installs one: see node/timed-match.ts. */
export interface GuardedMatch {
  /** Whether a value matches; `undefined` when the guard gave no verdict (too slow, or too long to try). */
  test(source: string, flags: string, value: string): boolean | undefined;
  /** Called when such a pattern is compiled, before any value: a guard may get ready then. */
  prepare?(): void;
  /** What the guard does, for the warning a person starting the mock reads ("checks it with ..."). */
  readonly describe: string;
}

/**
 * The guard where the platform installed none (a browser): RegExp only on values short enough that even an
 * exponential pattern answers within milliseconds.
 */
const SHORT_VALUE = 16;
let guardedMatch: GuardedMatch = {
  test: (source, flags, value) => (value.length <= SHORT_VALUE ? new RegExp(source, flags).test(value) : undefined),
  describe: `tries it only on values of at most ${SHORT_VALUE} characters`,
};

/** What the installed guard does with a pattern RE2 cannot run (see GuardedMatch.describe). */
export function guardDescription(): string {
  return guardedMatch.describe;
}

/**
 * Installs how patterns RE2 cannot run are run (the last installation wins).
 * @example installGuardedMatch(createTimedMatch(40)) // node/prism-modules.ts does it when imported
 */
export function installGuardedMatch(match: GuardedMatch): void {
  guardedMatch = match;
}

/** Patterns compiled, by flags and source: ajv asks again for each schema that has one. */
const compiled = new BoundedMemo<ContractPattern>(2000);

/**
 * A contract pattern compiled for RE2 where it can be (the same strings match: see ecma-to-re2.ts), else for the
 * guard: a value the guard gives no verdict on does not match (a request with it is refused).
 * @throws SyntaxError, as `new RegExp(pattern, flags)` does, for what is no ECMA-262 pattern
 * @example compileContractPattern('^(\\w+\\s?)*$').test('a'.repeat(5000) + '!') // false, at once
 */
export function compileContractPattern(pattern: string, flags = 'u'): ContractPattern {
  const key = `${flags}/${pattern}`;
  return compiled.get(key) ?? compiled.set(key, compile(pattern, flags));
}

/**
 * A contract pattern compiled for RE2 (else the guard), even one RegExp could run bounded: for the tests that hold
 * the translation for RE2 to what RegExp matches.
 */
export function compileForRe2(pattern: string, flags = 'u'): ContractPattern {
  return compile(pattern, flags, false);
}

/**
 * The engine ajv compiles patterns with (its `code.regExp` option): every ajv that checks contract values is given it.
 * @example new Ajv({ code: { regExp: patternEngine } })
 */
export const patternEngine = Object.assign((pattern: string, flags: string) => compileContractPattern(pattern, flags), {
  code: 'compileContractPattern',
});

function compile(pattern: string, flags: string, bounded = true): ContractPattern {
  // What ECMA-262 refuses is refused the same way (ajv then reports the schema as invalid, as it always did).
  const native = new RegExp(pattern, flags);
  const name = `/${pattern}/${flags}`;
  if (bounded && flags === 'u' && isBoundedPattern(pattern))
    return { test: (value) => native.test(value), engine: 'bounded', toString: () => name };
  try {
    if (flags !== 'u') throw new UnsupportedPattern(`the flags "${flags}"`);
    const split = leadingLookaheads(pattern);
    const test = split ? allOf(split.must.map(re2), split.mustNot.map(re2), re2(split.rest)) : testOf(re2(pattern));
    return { test, engine: 're2', toString: () => name };
  } catch (error) {
    const reason = error instanceof UnsupportedPattern ? `it uses ${error.message}` : (error as Error).message;
    guardedMatch.prepare?.();
    return {
      test: (value) => guardedMatch.test(pattern, flags, value) ?? false,
      engine: 'guarded',
      reason,
      toString: () => name,
    };
  }
}

function re2(pattern: string): RE2JS {
  const { source, lookbehinds } = toRe2(pattern);
  return RE2JS.compile(source, lookbehinds ? RE2JS.LOOKBEHINDS : 0);
}

function testOf(program: RE2JS): (value: string) => boolean {
  return (value) => program.test(value);
}

function allOf(must: RE2JS[], mustNot: RE2JS[], rest: RE2JS): (value: string) => boolean {
  return (value) => must.every((p) => p.test(value)) && !mustNot.some((p) => p.test(value)) && rest.test(value);
}
