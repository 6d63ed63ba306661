// Counted words agree with their numbers, in the mock's messages and in the inspector page's (its own copy).
import { describe, expect, test } from 'vitest';
import { counted } from '../../mock/lib/counted.js';

const moduleUrl = new URL('../../mock/inspector/assets/call-format.js', import.meta.url).href;
const page = (await import(moduleUrl)) as { counted: typeof counted };

describe.each([
  ['the mock', counted],
  ['the inspector', page.counted],
])('counted, in %s', (_, count) => {
  test.each([
    [0, 'call', '0 calls', undefined],
    [1, 'call', '1 call', undefined],
    [2, 'call', '2 calls', undefined],
    [1, 'documented status', '1 documented status', 'documented statuses'],
    [3, 'documented status', '3 documented statuses', 'documented statuses'],
  ])('%i of %s reads "%s"', (n, singular, text, plural) => {
    expect(count(n, singular, plural)).toBe(text);
  });
});
