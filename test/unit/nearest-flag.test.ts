import { describe, expect, test } from 'vitest';
import { nearestFlag } from '../../mock/lib/nearest-name.js';

const FLAGS = ['contract', 'port', 'static', 'stateless', 'state-file', 'state-limit', 'no-cors', 'latency'];

describe('the flag a typo most likely meant', () => {
  test.each([
    ['--contracts', '--contract'],
    ['--stateles', '--stateless'],
    ['--state_file', '--state-file'],
    ['--nocors', '--no-cors'],
    ['--Port', '--port'],
    ['--latency=100', '--latency'],
  ])('%s suggests %s', (typed, meant) => {
    expect(nearestFlag(typed, FLAGS)).toBe(meant);
  });

  test.each(['--bogus', '--x', '--verbose'])('%s is too far from every flag to suggest one', (typed) => {
    expect(nearestFlag(typed, FLAGS)).toBeUndefined();
  });
});
