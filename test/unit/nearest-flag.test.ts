import { describe, expect, test } from 'vitest';
import { nearestFlag, nearestName } from '../../mock/lib/nearest-name.js';

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

describe('the key a typo most likely meant', () => {
  const KEYS = ['port', 'host', 'bodyLimit', 'stateFile', 'faults'];

  test.each([
    ['prot', 'port'],
    ['bodylimit', 'bodyLimit'],
    ['body-limit', 'bodyLimit'],
    ['StateFile', 'stateFile'],
    ['fault', 'faults'],
  ])('%s suggests %s, spelt as the key is', (typed, meant) => {
    expect(nearestName(typed, KEYS)).toBe(meant);
  });

  test.each(['verbose', 'x', 'latency'])('%s is too far from every key to suggest one', (typed) => {
    expect(nearestName(typed, KEYS)).toBeUndefined();
  });
});
