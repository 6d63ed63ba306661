import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { depthScanner, nestsTooDeep, textNestsTooDeep } from '../../mock/http/body-depth.js';

const text = (json: string) => Buffer.from(json);

describe('textNestsTooDeep reads JSON text before it is parsed', () => {
  test.each([
    ['arrays', '[[[]]]', 2, true],
    ['arrays at the limit', '[[]]', 2, false],
    ['objects', '{"a":{"b":{}}}', 2, true],
    ['siblings, which do not add up', '[[],[],[]]', 2, false],
    ['brackets inside a string, which do not count', '["[[[[[["]', 2, false],
    ['an escaped quote, which does not end the string', '["\\"[[[[["]', 2, false],
    ['an escaped backslash before the closing quote', '["\\\\",[[]]]', 2, true],
    ['100,000 brackets', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 64, true],
  ])('%s', (_name, json, limit, deep) => {
    expect(textNestsTooDeep(text(json), limit)).toBe(deep);
  });

  test.each([
    ['a string with brackets', '["[[[[[[",[]]', 2, false],
    ['an escaped quote', '["\\"[[[[[",[]]', 2, false],
    ['an escaped backslash', '["\\\\",[[]]]', 2, true],
  ])('in pieces split anywhere, %s reads as it does whole', (_name, json, limit, deep) => {
    for (let cut = 0; cut <= json.length; cut++) {
      const tooDeep = depthScanner(limit);
      const first = tooDeep(text(json.slice(0, cut)));
      expect(first || tooDeep(text(json.slice(cut))), `cut at ${cut}`).toBe(deep);
    }
  });

  test('agrees with the check on parsed values', () => {
    for (const json of ['[[[]]]', '{"a":[{"b":1}]}', '[1,[2,[3]]]', '{}'])
      expect(textNestsTooDeep(text(json), 2)).toBe(nestsTooDeep(JSON.parse(json), 2));
  });
});

describe('textNestsTooDeep against the byte scan', () => {
  test('says what the scan of every byte says, for any text of brackets, quotes and escapes (seed 20261128)', () => {
    const piece = fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ',', ':');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 0, max: 8 }), (pieces, limit) => {
        const bytes = text(pieces.join(''));
        expect(textNestsTooDeep(bytes, limit)).toBe(depthScanner(limit)(bytes));
      }),
      { seed: 20261128, numRuns: 5000 },
    );
  });

  test.each([
    ['[[[]]]', true],
    ['["[[[[[["]', false],
    ['{"a":{"b":{}}}', true],
    ['[{}]', false],
  ])('reads %s in a Uint8Array (as the browser hands it) as in a Buffer', (json, deep) => {
    expect(textNestsTooDeep(new TextEncoder().encode(json), 2)).toBe(deep);
    expect(textNestsTooDeep(text(json), 2)).toBe(deep);
  });
});
