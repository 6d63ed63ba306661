import { describe, expect, test } from 'vitest';
import type { CallRecord } from '../../mock/index.js';
import { differences, matchesCall } from '../../mock/journal/call-match.js';

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
};

describe('matchesCall and differences', () => {
  test('matches partially on params, query, headers (any case) and body', () => {
    expect(
      matchesCall(call, {
        operationId: 'createCredential',
        params: { member_id: 'm1' },
        query: {},
        headers: { 'X-Client': 'web' },
        body: { kind: 'pin' },
      }),
    ).toBe(true);
  });

  test('names each difference with its path', () => {
    expect(differences(call, { method: 'get', params: { member_id: 'm2' }, body: { kind: 'card', extra: 1 } })).toEqual(
      [
        'method: expected GET, received POST',
        'params.member_id: expected "m2", received "m1"',
        'body.kind: expected "card", received "pin"',
        'body.extra: expected 1, received nothing',
      ],
    );
  });

  test('compares arrays item by item and by length', () => {
    expect(differences(call, { body: { tags: ['a'] } })).toEqual(['body.tags: expected 1 items, received 2']);
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
