import { beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_CONTRACT, loadContract } from '../../mock/index.js';
import { createBodyGenerator } from '../../mock/generate/generate-body.js';
import { inferCollections, type CollectionMap } from '../../mock/plan/infer-collections.js';
import { checkSnapshot, collectionOf } from '../../mock/state/check-snapshot.js';
import { completeRecord, completeSnapshot, recordMaker } from '../../mock/state/complete-record.js';

// Our contract: what a front-end developer writes fixtures for.
let collections: CollectionMap;
beforeAll(async () => {
  collections = inferCollections((await loadContract(DEFAULT_CONTRACT)).operations);
});

const PASS_ID = /^pas_[0-9A-HJKMNP-TV-Z]{26}$/;
const CREDENTIAL_ID = /^crd_[0-9A-HJKMNP-TV-Z]{26}$/;
const COMPLETE = {
  id: 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M',
  member_id: 'm1',
  name: 'Gold membership',
  status: 'active',
  valid_from: '2026-01-05T09:30:00Z',
  valid_until: null,
  created_at: '2026-01-05T09:30:00Z',
};

const complete = (given: unknown, { seed = 7, path = '/members/m1/passes', key = 'k' } = {}) =>
  completeRecord(
    recordMaker(collections, createBodyGenerator(seed)),
    collectionOf(collections, path)!,
    path,
    given,
    key,
  ) as Record<string, unknown>;

describe('completeRecord', () => {
  test('fills a partial pass as a create would, keeping what was given', () => {
    const generator = createBodyGenerator(7);
    const anchor = generator.anchor.toISOString().replace('.000Z', 'Z');
    expect(complete({ status: 'suspended' })).toEqual({
      id: expect.stringMatching(PASS_ID),
      member_id: 'm1',
      name: 'Membership pass',
      status: 'suspended',
      valid_from: anchor,
      valid_until: null,
      created_at: anchor,
    });
  });

  test('makes the same record for the same seed and key, whatever the clock', () => {
    expect(complete({ name: 'Gold' })).toEqual(complete({ name: 'Gold' }));
  });

  test('draws another id for another seed or another key', () => {
    const first = complete({}).id;
    expect(complete({}, { seed: 8 }).id).not.toBe(first);
    expect(complete({}, { key: 'other' }).id).not.toBe(first);
  });

  test('generates ids that look like the contract’s, for passes and credentials', () => {
    for (const key of ['a', 'b', 'c']) {
      expect(complete({}, { key }).id).toMatch(PASS_ID);
      expect(complete({ kind: 'pin' }, { key, path: '/members/m1/credentials' }).id).toMatch(CREDENTIAL_ID);
    }
  });

  test('fills member_id from the collection path, percent-decoded', () => {
    expect(complete({}, { path: '/members/m%2D1/passes' }).member_id).toBe('m-1');
  });

  test('keeps what the contract refuses, for the check that follows to name', () => {
    const record = complete({ status: 'lost', colour: 'red', member_id: 'm2' });
    expect(record).toMatchObject({ status: 'lost', colour: 'red', member_id: 'm2' });
    expect(Object.keys(record).at(-1)).toBe('colour');
  });

  test('keeps an id that was given', () => {
    expect(complete({ id: 'pas_01JD40C2M5K8H1G4F7E0D3C6B9' }).id).toBe('pas_01JD40C2M5K8H1G4F7E0D3C6B9');
  });

  test('returns a record that lacks nothing as it is', () => {
    const record = { ...COMPLETE };
    expect(complete(record)).toBe(record);
  });

  test('returns what is not an object as it is', () => {
    expect(complete('pas_1')).toBe('pas_1');
    expect(complete(null)).toBe(null);
  });

  test('keeps a __proto__ key given as plain data', () => {
    const record = complete(JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.hasOwn(record, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('completeSnapshot', () => {
  const maker = () => recordMaker(collections, createBodyGenerator(3));

  test('completes every record of both forms, each under its own key, so the result passes the check', () => {
    const given = { '/members/m1/passes': [{}, {}], '/members/m1/credentials': [{ kind: 'card' }] };
    const bare = completeSnapshot(maker(), given) as Record<string, Record<string, unknown>[]>;
    expect(completeSnapshot(maker(), { collections: given })).toEqual(bare);
    expect(bare['/members/m1/passes']![0]!.id).not.toBe(bare['/members/m1/passes']![1]!.id);
    expect(() => checkSnapshot(bare, collections, 'data.json')).not.toThrow();
  });

  test('leaves what it cannot complete for the check to name', () => {
    const given = { '/members/m1/vouchers': [{}], '/members/m1/passes': {}, '/members/m2/passes': ['x'] };
    expect(completeSnapshot(maker(), given)).toEqual(given);
    expect(completeSnapshot(maker(), 'state')).toBe('state');
  });
});
