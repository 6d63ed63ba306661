import { describe, expect, test } from 'vitest';
import type { Operation } from '../../mock/contract/contract.js';
import {
  checkRecord,
  checkSnapshot,
  collectionOf,
  recordId,
  StateError,
  unwrapSnapshot,
  wasChecked,
} from '../../mock/state/check-snapshot.js';
import { inferCollections } from '../../mock/plan/infer-collections.js';

/** An operation answering `status` with a JSON body of `schema`, as the loaded contract has it. */
const operation = (method: string, path: string, status: string, schema: object): Operation => ({
  id: `${method} ${path}`,
  method,
  path,
  spec: {
    id: `${method} ${path}`,
    method,
    path,
    request: {},
    servers: [],
    security: [],
    responses: [
      { id: status, code: status, headers: [], contents: [{ id: 'c', mediaType: 'application/json', schema }] },
    ],
  },
});

const pass = {
  type: 'object',
  required: ['pass_id', 'kind'],
  properties: {
    pass_id: { type: 'string' },
    member_id: { type: 'string' },
    kind: { type: 'string', enum: ['gym', 'pool'] },
  },
};
const card = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };

// Two collections: passes keyed by pass_id (the item path's parameter), cards by id; one path with dots.
// Built in each test: code run while the file loads would count as static coverage for Stryker.
const contract = () =>
  inferCollections([
    operation('post', '/members/{member_id}/passes', '201', pass),
    operation('get', '/members/{member_id}/passes', '200', { type: 'array', items: pass }),
    operation('get', '/members/{member_id}/passes/{pass_id}', '200', pass),
    operation('post', '/v1.0/cards', '201', card),
    operation('get', '/v1.0/cards', '200', { type: 'array', items: card }),
  ]);

/** The message of the StateError that checking `value` throws. */
const refusal = (value: unknown, using = contract()) => {
  try {
    checkSnapshot(value, using, 'data.json');
  } catch (error) {
    expect(error).toBeInstanceOf(StateError);
    return (error as Error).message;
  }
  throw new Error('the snapshot was accepted');
};

describe('collectionOf', () => {
  test.each([
    ['/members/m1/passes', '/members/{member_id}/passes'],
    ['/members/m-2.x/passes', '/members/{member_id}/passes'],
    ['/v1.0/cards', '/v1.0/cards'],
  ])('finds the collection of %s: %s', (path, template) => {
    expect(collectionOf(contract(), path)?.path).toBe(template);
  });

  test.each([
    '/members/m1/passes/p1',
    '/members/passes',
    '/members/m1/x/passes',
    '/x/members/m1/passes',
    '/v1x0/cards',
  ])('finds no collection for %s', (path) => {
    expect(collectionOf(contract(), path)).toBeUndefined();
  });
});

describe('recordId', () => {
  test('reads the id from the field its collection keys records by', () => {
    expect(recordId(contract(), '/members/m1/passes', { pass_id: 'p1', id: 'x' })).toBe('p1');
    expect(recordId(contract(), '/v1.0/cards', { id: 7 })).toBe('7');
  });

  test('reads "id" for a path of no collection', () => {
    expect(recordId(contract(), '/elsewhere', { id: 'e1' })).toBe('e1');
  });
});

describe('checkSnapshot', () => {
  test('returns a snapshot whose records fit the contract', () => {
    const snapshot = {
      '/members/m1/passes': [
        { pass_id: 'p1', kind: 'gym' },
        { pass_id: 'p2', kind: 'pool' },
      ],
      '/members/m2/passes': [],
      '/v1.0/cards': [{ id: 1 }, { id: 2 }],
    };
    expect(checkSnapshot(snapshot, contract(), 'data.json')).toEqual(snapshot);
  });

  test.each([[null], [[]], ['state']])('refuses %j, showing what a snapshot looks like', (value) => {
    expect(refusal(value)).toBe(
      'data.json: expected an object of collection paths, such as { "/members/m1/passes": [ ... ] }.',
    );
  });

  test('refuses a path of no collection, listing the collections', () => {
    expect(refusal({ '/members/m1/cards': [] })).toBe(
      'data.json: "/members/m1/cards" is not a collection of the contract; ' +
        'its collections are /members/{member_id}/passes, /v1.0/cards.',
    );
  });

  test('says when the contract has no collection at all', () => {
    expect(refusal({ '/cards': [] }, { collections: [], roles: new Map() })).toMatch(/its collections are none\.$/);
  });

  test('refuses records that are not an array', () => {
    expect(refusal({ '/v1.0/cards': { id: 1 } })).toBe('data.json: "/v1.0/cards" must be an array of records.');
  });

  test.each([
    ['a record that is not an object', [{ id: 1 }, [2]], '"/v1.0/cards"[1] is not an object.'],
    ['a record without its id', [{ id: 1 }, { number: 2 }], '"/v1.0/cards"[1] has no "id".'],
    ['an id that is neither a string nor a number', [{ id: true }], '"/v1.0/cards"[0] has no "id".'],
    ['a repeated id', [{ id: 1 }, { id: 2 }, { id: 1 }], '"/v1.0/cards"[2] repeats the id "1".'],
  ])('refuses %s, naming it by index', (_, records, message) => {
    expect(refusal({ '/v1.0/cards': records })).toBe(`data.json: ${message}`);
  });

  test('takes a string id and a number id that read alike as the same', () => {
    expect(refusal({ '/v1.0/cards': [{ id: 1 }, { id: '1' }] })).toBe(
      'data.json: "/v1.0/cards"[1] repeats the id "1".',
    );
  });

  test('refuses a record that does not fit the contract, naming it and what is wrong', () => {
    expect(refusal({ '/members/m1/passes': [{ pass_id: 'p1', kind: 'sauna' }] })).toMatch(
      /^data\.json: "\/members\/m1\/passes"\[0\] \(id "p1"\) does not fit the contract: .*kind.*\.$/,
    );
  });

  test('names every way a record does not fit, one after the other', () => {
    // kind: 7 is neither a string nor one of the allowed values: two problems, each with its pointer.
    expect(refusal({ '/members/m1/passes': [{ pass_id: 'p1', kind: 7 }] })).toMatch(
      /does not fit the contract: \/kind: [^;]+; \/kind: [^;]+\.$/,
    );
  });
});

describe('checkSnapshot: the GET /__mock/state format and owners', () => {
  test('takes what GET /__mock/state answers ({ collections: ... }) as it takes the fixtures format', () => {
    const records = { '/members/m1/passes': [{ pass_id: 'p1', kind: 'gym' }] };
    expect(checkSnapshot({ collections: records }, contract(), 'state.json')).toEqual(records);
  });

  test('refuses a record whose member_id differs from its collection path, naming both', () => {
    const snapshot = { '/members/m1/passes': [{ pass_id: 'p1', kind: 'gym', member_id: 'm2' }] };
    expect(refusal(snapshot)).toBe(
      'data.json: "/members/m1/passes"[0] (id "p1") has member_id "m2", but its collection path says "m1".',
    );
  });

  test('accepts a record whose member_id is its path’s, percent-encoded there or not', () => {
    const snapshot = {
      '/members/m1/passes': [{ pass_id: 'p1', kind: 'gym', member_id: 'm1' }],
      '/members/m%201/passes': [{ pass_id: 'p2', kind: 'pool', member_id: 'm 1' }],
    };
    expect(checkSnapshot(snapshot, contract(), 'data.json')).toEqual(snapshot);
  });
});

/** The place of the StateError that checking `value` throws. */
const placeOf = (value: unknown) => {
  try {
    checkSnapshot(value, contract(), 'data.json');
  } catch (error) {
    return (error as StateError).place;
  }
  throw new Error('the snapshot was accepted');
};

describe('StateError.place: where in the snapshot the error is', () => {
  test.each([
    ['a value of the wrong enum', [{ pass_id: 'p1', kind: 'sauna' }], '/kind'],
    ['an id of the wrong type', [{ pass_id: 5, kind: 'gym' }], '/pass_id'],
    ['a missing required field', [{ pass_id: 'p1' }], '/kind'],
    ['another owner', [{ pass_id: 'p1', kind: 'gym', member_id: 'm2' }], '/member_id'],
    [
      'a repeated id',
      [
        { pass_id: 'p1', kind: 'gym' },
        { pass_id: 'p1', kind: 'pool' },
      ],
      '/pass_id',
    ],
    ['a record that is not an object', ['p1'], ''],
  ])('points at %s inside the record, with the message of the error', (_name, records, pointer) => {
    const place = placeOf({ '/members/m1/passes': records });
    expect(place).toEqual({
      collection: '/members/m1/passes',
      index: records.length - 1,
      issues: [{ pointer, message: refusal({ '/members/m1/passes': records }) }],
    });
  });

  test('gives every way a record does not fit its own pointer and message, each as fixtures say it', () => {
    const { issues } = placeOf({ '/members/m1/passes': [{ pass_id: 'p1', kind: 7 }] });
    expect(issues!.map((i) => i.pointer)).toEqual(['/kind', '/kind']);
    for (const { message } of issues!)
      expect(message).toMatch(
        /^data\.json: "\/members\/m1\/passes"\[0\] \(id "p1"\) does not fit the contract: \/[^;]+\.$/,
      );
  });

  test('names the collection alone when the collection is at fault', () => {
    expect(placeOf({ '/members/m1/cards': [] })).toEqual({ collection: '/members/m1/cards' });
    expect(placeOf({ '/v1.0/cards': {} })).toEqual({ collection: '/v1.0/cards' });
  });
});

describe('checkRecord', () => {
  const passes = () => collectionOf(contract(), '/members/m1/passes')!;

  test('returns a record that fits, belongs to its path and has an id', () => {
    const record = { pass_id: 'p1', kind: 'gym', member_id: 'm1' };
    expect(checkRecord(passes(), '/members/m1/passes', record, { where: 'the record' })).toBe(record);
  });

  test('names the record as it is told to, with no place in a snapshot', () => {
    const check = () =>
      checkRecord(passes(), '/members/m1/passes', { pass_id: 'p1', kind: 'sauna' }, { where: 'POST x: the record' });
    expect(check).toThrow(/^POST x: the record \(id "p1"\) does not fit the contract: \/kind: /);
    try {
      check();
    } catch (error) {
      expect((error as StateError).place).toMatchObject({ collection: undefined, index: undefined });
    }
  });
});

describe('unwrapSnapshot', () => {
  test('unwraps what GET /__mock/state answers, and takes anything else as the map', () => {
    expect(unwrapSnapshot({ collections: { '/v1.0/cards': [] } })).toEqual({ '/v1.0/cards': [] });
    expect(unwrapSnapshot({ '/v1.0/cards': [] })).toEqual({ '/v1.0/cards': [] });
    expect(unwrapSnapshot({ collections: {}, other: 1 })).toEqual({ collections: {}, other: 1 });
  });
});

describe('wasChecked', () => {
  const fixtures = () => ({ '/v1.0/cards': [{ id: 7 }] });

  test('knows a snapshot checkSnapshot passed against the same collections, so it is not checked twice', () => {
    const collections = contract();
    const checked = checkSnapshot(fixtures(), collections, 'data.json');
    expect(wasChecked(checked, collections)).toBe(true);
  });

  test('does not take one checked against other collections, a copy, or one never checked', () => {
    const checked = checkSnapshot(fixtures(), contract(), 'data.json');
    expect(wasChecked(checked, contract())).toBe(false);
    expect(wasChecked({ ...checked }, contract())).toBe(false);
    expect(wasChecked(fixtures(), contract())).toBe(false);
    expect(wasChecked(undefined, contract())).toBe(false);
  });
});

describe('inferCollections', () => {
  test('infers a contract’s collections once: the same operations give the very same map', () => {
    const operations = [
      operation('post', '/v1.0/cards', '201', card),
      operation('get', '/v1.0/cards', '200', { type: 'array', items: card }),
    ];
    expect(inferCollections(operations)).toBe(inferCollections(operations));
    expect(inferCollections([...operations])).not.toBe(inferCollections(operations));
  });
});
