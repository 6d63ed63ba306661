import { describe, expect, test } from 'vitest';
import type { CallRecord } from '../../mock/index.js';
import { checkCallMatch, differences, matchesCall, unknownOperation } from '../../mock/journal/call-match.js';

const call: CallRecord = {
  id: 'call-1',
  time: '2026-01-01T00:00:00Z',
  operationId: 'createCredential',
  method: 'POST',
  path: '/members/m1/credentials',
  pathParams: { member_id: 'm1' },
  query: { trace: '1' },
  headers: { 'x-client': 'web', authorization: 'Bearer t' },
  body: { kind: 'pin', label: 'Desk', tags: ['a', 'b'] },
  response: { status: 201, headers: {} },
  violations: [],
  answeredBy: 'mock',
};

describe('matchesCall and differences', () => {
  test('matches partially on pathParams, query, headers (any case) and body', () => {
    expect(
      matchesCall(call, {
        operationId: 'createCredential',
        pathParams: { member_id: 'm1' },
        query: {},
        headers: { 'X-Client': 'web' },
        body: { kind: 'pin' },
      }),
    ).toBe(true);
  });

  test('names each difference with its path', () => {
    expect(
      differences(call, { method: 'get', pathParams: { member_id: 'm2' }, body: { kind: 'card', extra: 1 } }),
    ).toEqual([
      'method: expected GET, received POST',
      'pathParams.member_id: expected "m2", received "m1"',
      'body.kind: expected "card", received "pin"',
      'body.extra: expected 1, received nothing',
    ]);
  });

  test('compares arrays item by item and by length', () => {
    expect(differences(call, { body: { tags: ['a'] } })).toEqual(['body.tags: expected 1 item, received 2']);
    expect(matchesCall(call, { body: { tags: ['a', 'b'] } })).toBe(true);
  });

  test('accepts asymmetric matchers', () => {
    expect(matchesCall(call, { body: { label: expect.any(String) } })).toBe(true);
    expect(matchesCall(call, { body: { label: expect.any(Number) } })).toBe(false);
  });

  test('matches paths exactly or by a prefix ending in *, and statuses', () => {
    expect(matchesCall(call, { path: '/members/m1/*', status: 201 })).toBe(true);
    expect(differences(call, { path: '/members/m1', status: 400 })).toEqual([
      'path: expected "/members/m1", received "/members/m1/credentials"',
      'status: expected 400, received 201',
    ]);
  });
});

describe('differences', () => {
  test('names a different operation, and a call that matched none as null', () => {
    expect(differences({ ...call, operationId: null }, { operationId: 'createCredential' })).toEqual([
      'operationId: expected "createCredential", received null',
    ]);
  });

  test('finds none when every field set matches', () => {
    expect(
      differences(call, {
        operationId: 'createCredential',
        method: 'post',
        path: '/members/m1/credentials',
        status: 201,
        pathParams: { member_id: 'm1' },
        query: { trace: '1' },
        headers: { Authorization: 'Bearer t' },
        body: { kind: 'pin', tags: ['a', 'b'] },
      }),
    ).toEqual([]);
  });

  test('tells a missing query parameter and a different header apart', () => {
    expect(differences(call, { query: { page: '2' }, headers: { 'X-Client': 'ios' } })).toEqual([
      'query.page: expected "2", received nothing',
      'headers.x-client: expected "ios", received "web"',
    ]);
  });

  test('does not take a path prefix without * as a prefix', () => {
    expect(matchesCall(call, { path: '/members/*' })).toBe(true);
    expect(matchesCall(call, { path: '/members/' })).toBe(false);
    expect(matchesCall(call, { path: '/passes/*' })).toBe(false);
  });

  test('matches a body set to undefined only when the call had none', () => {
    const { body: _, ...bodiless } = call;
    expect(matchesCall(bodiless, { body: undefined })).toBe(true);
    expect(differences(call, { body: undefined })).toEqual([
      'body: expected nothing, received {"kind":"pin","label":"Desk","tags":["a","b"]}',
    ]);
  });

  test.each([
    [{ tags: 'a' }, 'body.tags: expected "a", received ["a","b"]'],
    [{ tags: { a: 1 } }, 'body.tags: expected an object, received ["a","b"]'],
    [{ label: ['Desk'] }, 'body.label: expected an array, received "Desk"'],
    [{ label: { text: 'Desk' } }, 'body.label: expected an object, received "Desk"'],
    [{ tags: ['a', 'c'] }, 'body.tags[1]: expected "c", received "b"'],
    [{ tags: ['a', 'b', 'c'] }, 'body.tags: expected 3 items, received 2'],
  ])('explains a body %j that does not fit: %s', (body, difference) => {
    expect(differences(call, { body })).toEqual([difference]);
  });

  test('does not take a null body for an object', () => {
    expect(differences({ ...call, body: null }, { body: { kind: 'pin' } })).toEqual([
      'body: expected an object, received null',
    ]);
  });

  test('compares values as Object.is does', () => {
    expect(matchesCall({ ...call, body: { n: NaN } }, { body: { n: NaN } })).toBe(true);
    expect(matchesCall({ ...call, body: { n: 0 } }, { body: { n: '0' } })).toBe(false);
    expect(matchesCall({ ...call, body: { n: null } }, { body: { n: null } })).toBe(true);
    expect(matchesCall({ ...call, body: { n: 0 } }, { body: { n: null } })).toBe(false);
  });

  test('does not take an inherited property for a received one', () => {
    expect(differences(call, { body: { toString: 'x' } })).toEqual(['body.toString: expected "x", received nothing']);
  });

  test('describes an asymmetric matcher that did not match by its toString, or as "a match"', () => {
    const isNumber = { asymmetricMatch: (v: unknown) => typeof v === 'number', toString: () => 'a number' };
    const bare = Object.assign(Object.create(null) as object, { asymmetricMatch: () => false });
    expect(differences(call, { body: { label: isNumber, kind: bare } })).toEqual([
      'body.label: expected a number, received "Desk"',
      'body.kind: expected a match, received "pin"',
    ]);
  });

  test('shortens a long received value to 120 characters', () => {
    const long = 'x'.repeat(200);
    const [difference] = differences({ ...call, body: long }, { body: 'y' });
    expect(difference).toBe(`body: expected "y", received ${JSON.stringify(long).slice(0, 117)}...`);
  });

  test('shows a value JSON cannot write as text', () => {
    expect(differences({ ...call, body: () => 1 }, { body: 'y' })).toEqual(['body: expected "y", received () => 1']);
  });
});

describe('checkCallMatch', () => {
  test.each([
    [{}],
    [{ operationId: 'getPass', method: 'GET', path: '/passes/*', status: 200 }],
    [{ pathParams: { pass_id: 'p1' }, query: {}, headers: { 'x-id': '1' }, body: null }],
  ])('accepts %j', (match) => {
    expect(checkCallMatch(match)).toBeUndefined();
  });

  test.each([[null], [[]], ['getPass'], [1]])(
    'refuses %j, which is not an object, listing the fields a match has',
    (match) => {
      expect(checkCallMatch(match)).toMatch(/must be an object: \{ operationId, contract, method, path, pathParams/);
    },
  );

  test.each([
    [{ operationId: 1 }, 'match.operationId must be a string.'],
    [{ method: ['GET'] }, 'match.method must be a string.'],
    [{ path: null }, 'match.path must be a string.'],
    [{ status: '200' }, 'match.status must be a number.'],
    [{ pathParams: 'p1' }, 'match.pathParams must be an object.'],
    [{ query: null }, 'match.query must be an object.'],
    [{ headers: ['x-id'] }, 'match.headers must be an object.'],
  ])('refuses %j, naming the field', (match, message) => {
    expect(checkCallMatch(match)).toBe(message);
  });

  test('refuses params, saying path parameters are pathParams', () => {
    expect(checkCallMatch({ params: { member_id: 'm1' } })).toBe(
      'match.params is not a field of a match: path parameters are pathParams.',
    );
  });

  test('refuses a field a match does not have, listing those it has', () => {
    expect(checkCallMatch({ operationId: 'getPass', bodyy: {} })).toBe(
      'match.bodyy is not a field of a match; it has operationId, contract, method, path, pathParams, query, headers, body, status.',
    );
  });
});

describe('a status difference says what the mock did', () => {
  test('a dropped call received no answer, not status 0', () => {
    const dropped: CallRecord = { ...call, fault: 'drop', response: { status: 0, headers: {} } };
    expect(differences(dropped, { status: 201 })).toEqual([
      'status: expected 201, received no answer (dropped on purpose)',
    ]);
  });

  test('an injected 500 is told from a real one', () => {
    const failed: CallRecord = { ...call, fault: 'failure', response: { status: 500, headers: {} } };
    expect(differences(failed, { status: 201 })).toEqual(['status: expected 201, received 500 (an injected failure)']);
    expect(differences({ ...failed, fault: undefined }, { status: 201 })).toEqual([
      'status: expected 201, received 500',
    ]);
  });
});

describe('unknownOperation', () => {
  const ids = ['listPasses', 'createPass', 'getPass', 'deletePass'];

  test('accepts an operationId of the contract', () => {
    expect(unknownOperation('getPass', ids)).toBeUndefined();
  });

  test('names the nearest operationId for a misspelt one, and lists them all', () => {
    expect(unknownOperation('createPas', ids)).toBe(
      '"createPas" is not an operationId of the contract. Did you mean createPass? ' +
        'It has listPasses, createPass, getPass, deletePass.',
    );
  });

  test('guesses nothing for a name far from every operationId', () => {
    expect(unknownOperation('uploadAvatar', ids)).toBe(
      '"uploadAvatar" is not an operationId of the contract. It has listPasses, createPass, getPass, deletePass.',
    );
  });

  test('lists the first 20 of a large contract, with the count', () => {
    const many = Array.from({ length: 25 }, (_, i) => `op${i}`);
    expect(unknownOperation('zzzzzzzz', many)).toMatch(/It has op0, op1, .*, op19, … \(25 in all\)\.$/);
  });
});
