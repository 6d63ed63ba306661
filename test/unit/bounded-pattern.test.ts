import { describe, expect, test } from 'vitest';
import { isBoundedPattern } from '../../mock/lib/bounded-pattern.js';

describe('a pattern no value can make a backtracking engine slow', () => {
  test.each([
    '^pas_[0-9A-HJKMNP-TV-Z]{26}$',
    '^a?b?c?$',
    '^[a-z]{2,5}x{3}$',
    String.raw`^\d\d\d\d-\d\d$`,
    String.raw`^[\]\\-]{1,3}$`,
    String.raw`^\u{1F600}\x41\cJ\p{L}\P{Lu}\b.$`,
    '^a{1,2}?$',
    '^a$b',
    '^[A-Za-z0-9_-]+$',
    '^mbr_[a-z]*',
    '^x?[0-9]{2,}?$',
  ])('%s is bounded', (pattern) => {
    expect(isBoundedPattern(pattern)).toBe(true);
  });

  test.each([
    ['a{2}$', 'not anchored at the start: tried from every character'],
    ['^a*b$', 'an unbounded atom, then another'],
    ['^a+b+$', 'two unbounded atoms'],
    ['^a{2,}b$', 'an atom with no upper bound, then another'],
    ['^a?a?a?a?a?a+$', 'more than 16 ways to match before an unbounded last atom (2^5)'],
    ['^(ab){2}$', 'a group'],
    ['^a|b$', 'an alternation'],
    ['^(?=a)a$', 'a lookahead'],
    [String.raw`^(a)\1$`, 'a backreference'],
    [String.raw`^(?<n>a)\k<n>$`, 'a named backreference'],
    ['^a{0,40}b{0,40}$', 'more than 1024 ways to match (41 × 41)'],
    ['^a?a?a?a?a?a?a?a?a?a?a?$', 'more than 1024 ways to match (2^11)'],
    [String.raw`^\.[a-z]{0,2000}$`, 'more than 1024 ways to match'],
  ])('%s is not (%s)', (pattern) => {
    expect(isBoundedPattern(pattern)).toBe(false);
  });

  test.each([
    ['^a?a?a?a?a?a?a?a?a?a?aaaaaaaaaa$', 'a'.repeat(1_000_000)],
    ['^a?a?a?a?[a-z]+$', `${'a'.repeat(1_000_000)}!`],
  ])('%s answers a long hostile value at once, as RegExp answers it', (pattern, value) => {
    expect(isBoundedPattern(pattern)).toBe(true);
    expect(new RegExp(pattern, 'u').test(value)).toBe(false);
  });
});
