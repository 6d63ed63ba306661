import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compileContractPattern, compileForRe2, patternEngine } from '../../mock/lib/pattern-engine.js';

/** Patterns whose meaning differs between ECMA-262 and RE2 unless rewritten, and the everyday ones. */
const PATTERNS = [
  String.raw`^\s$`,
  String.raw`^\S+$`,
  String.raw`^[\s\d]+$`,
  String.raw`^[^\s]+$`,
  String.raw`^[\S]+$`,
  '^.$',
  '^.+$',
  String.raw`^\d+$`,
  String.raw`^\w+$`,
  String.raw`\bfoo\b`,
  String.raw`^\u00e9$`,
  String.raw`^\u{1F600}$`,
  String.raw`\ud83d\ude00`,
  String.raw`^[\ud83d\ude00]$`,
  '^[^]$',
  '^[]$',
  '^[[:]$',
  String.raw`^[\b]$`,
  String.raw`^\cJ$`,
  String.raw`^\0$`,
  String.raw`^\x41$`,
  String.raw`^\/$`,
  '^(?<word>a)b$',
  String.raw`^(?=.*[A-Z])(?=.*\d)(?!.*\s).{8,}$`,
  '(?<=a)b',
  '(?<!a)b',
  String.raw`^\p{L}+$`,
  String.raw`^\p{Script=Greek}+$`,
  String.raw`^\p{Lu}$`,
  'a$',
  '^a|b$',
  String.raw`^(\w+\s?)*$`,
  '^[A-Za-z0-9_.:-]{1,64}$',
  '^pas_[0-9A-HJKMNP-TV-Z]{26}$',
];

/** Characters where the engines' meanings part: line terminators, Unicode spaces, astral, word and not. */
const CHARACTERS = [
  ...'aAbB19_-!.:[ foZ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\0',
  '\b',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\ufeff',
  'é',
  'α',
  '١',
  '😀',
];

describe('a contract pattern matches what JavaScript matches', () => {
  test.each(PATTERNS)('%s runs on RE2', (pattern) => {
    expect(compileForRe2(pattern).engine).toBe('re2');
  });

  test('on random strings of the characters where the engines differ (seed 17, 300 runs a pattern)', () => {
    for (const pattern of PATTERNS) {
      const native = new RegExp(pattern, 'u');
      for (const compiled of [compileForRe2(pattern), compileContractPattern(pattern)])
        fc.assert(
          fc.property(fc.array(fc.constantFrom(...CHARACTERS), { maxLength: 12 }), (chars) => {
            const value = chars.join('');
            expect(compiled.test(value), `${pattern} on ${JSON.stringify(value)}`).toBe(native.test(value));
          }),
          { seed: 17, numRuns: 300 },
        );
    }
  });

  test.each([
    '^pas_[0-9A-HJKMNP-TV-Z]{26}$',
    '^[A-Za-z0-9_.:-]{1,64}$',
    String.raw`^\d{4}-\d{2}-\d{2}$`,
    String.raw`^\u00e9?\p{Lu}{2}\b`,
  ])('%s, which no value can make slow, runs on RegExp itself', (pattern) => {
    expect(compileContractPattern(pattern).engine).toBe('bounded');
  });

  test('a password rule made of lookaheads: each rule is checked', () => {
    const rule = compileContractPattern(String.raw`^(?=.*[A-Z])(?=.*\d)(?!.*\s).{8,}$`);
    expect(['Passw0rd', 'Passw0rd!x'].map((v) => rule.test(v))).toEqual([true, true]);
    expect(['passw0rd', 'Password', 'Pass w0rd', 'Pa0'].map((v) => rule.test(v))).toEqual([false, false, false, false]);
  });

  test('refuses what RegExp refuses, as RegExp does', () => {
    expect(() => compileContractPattern(String.raw`^\-$`)).toThrow(SyntaxError);
    expect(() => compileContractPattern('(')).toThrow(SyntaxError);
  });
});

describe('a value cannot make a pattern backtrack', () => {
  // With a backtracking engine, each of these takes longer than the age of the universe.
  test.each([
    [String.raw`^(\w+\s?)*$`, `${'a'.repeat(50_000)}!`],
    ['^(a+)+$', `${'a'.repeat(50_000)}b`],
    ['^(a|a)*$', `${'a'.repeat(50_000)}b`],
    [String.raw`^(?=(\w+\s?)*$)x`, `${'a'.repeat(50_000)}!`],
  ])('%s against 50,001 characters', (pattern, value) => {
    const compiled = compileContractPattern(pattern);
    expect(compiled.engine).toBe('re2');
    expect(compiled.test(value)).toBe(false);
  });
});

describe('a pattern RE2 cannot run', () => {
  test.each([
    ['^(a)\\1$', 'it uses a backreference'],
    ['^(?<a>a)\\k<a>$', 'it uses a backreference'],
    [String.raw`^\d+(?!\.)`, 'it uses a lookahead'],
    ['^(ab){1001}$', 'invalid repeat count'],
  ])('%s runs on the guard, and says why', (pattern, reason) => {
    const compiled = compileContractPattern(pattern);
    expect(compiled.engine).toBe('guarded');
    expect(compiled.reason).toContain(reason);
  });

  test('still decides values as RegExp does', () => {
    const pair = compileContractPattern('^(a)\\1$');
    expect([pair.test('aa'), pair.test('ab'), pair.test('a')]).toEqual([true, false, false]);
  });
});

describe('the engine ajv is given', () => {
  test('prints each pattern as RegExp does: ajv keeps one compiled pattern per text', () => {
    expect(String(patternEngine('^a$', 'u'))).toBe('/^a$/u');
    expect(String(patternEngine('^b$', 'u'))).not.toBe(String(patternEngine('^a$', 'u')));
  });
});
