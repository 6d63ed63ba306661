import { beforeAll, describe, expect, test } from 'vitest';
import { createBodyGenerator } from '../../mock/generate/generate-body.js';
import { DEFAULT_CONTRACT, loadContract } from '../../mock/index.js';
import { serve, type Served } from '../../mock/plan/serve.js';
import { PlaceholderSource } from '../../mock/state/placeholders.js';

let served: Served;
beforeAll(async () => {
  served = serve(await loadContract(DEFAULT_CONTRACT));
});

/** A source of three placeholders a collection, holding at most `records` of them. */
const sourceOf = (records: number) =>
  new PlaceholderSource(served.collections, createBodyGenerator(1), 3, undefined, records);

describe('PlaceholderSource', () => {
  test('a collection read again is the one kept, not made again', () => {
    const source = sourceOf(100);
    const first = source.of('/members/m1/passes');
    expect(first.size).toBe(3);
    expect(source.of('/members/m1/passes')).toBe(first);
    expect(source.info()).toEqual({ cached: 1, made: 1 });
  });

  test('past its records the least recently read collection goes, and comes back the same when read again', () => {
    const source = sourceOf(7);
    const a = source.of('/members/a/passes');
    source.of('/members/b/passes');
    source.of('/members/a/passes');
    source.of('/members/c/passes');
    // a was read after b: b went.
    expect(source.info()).toEqual({ cached: 2, made: 3 });
    expect(source.of('/members/a/passes')).toBe(a);
    expect(source.info().made).toBe(3);
    const b = source.of('/members/b/passes');
    expect(source.info().made).toBe(4);
    expect([...b.values()]).toEqual([...sourceOf(7).of('/members/b/passes').values()]);
  });

  test('a path of no collection weighs one, so a stream of them is bounded too', () => {
    const source = sourceOf(5);
    for (let i = 0; i < 50; i++) expect(source.of(`/nowhere/${i}`).size).toBe(0);
    expect(source.info().cached).toBe(5);
  });
});
