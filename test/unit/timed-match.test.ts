import { describe, expect, test } from 'vitest';
import { createTimedMatch } from '../../mock/node/timed-match.js';

// A backreference keeps the pattern off RE2; 2^40 steps of backtracking on this value.
const SLOW = String.raw`^(\w+\s?)*\1$`;
const HOSTILE = `${'a'.repeat(40)}!`;

describe('the time-boxed RegExp for patterns RE2 cannot run', () => {
  test('gives RegExp verdicts', () => {
    const match = createTimedMatch(1000);
    expect(match.test('^(a)\\1$', 'u', 'aa')).toBe(true);
    expect(match.test('^(a)\\1$', 'u', 'ab')).toBe(false);
  });

  test('gives no verdict on a value that would backtrack for hours, then answers the next value', () => {
    // A budget long enough for the replacement worker to start on a busy machine.
    const match = createTimedMatch(1000);
    expect(match.test(SLOW, 'u', HOSTILE)).toBeUndefined();
    expect(match.test('^(a)\\1$', 'u', 'aa')).toBe(true);
  });
});
