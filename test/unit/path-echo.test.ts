import { describe, expect, test } from 'vitest';
import type { Operation } from '../../mock/contract/contract.js';
import { ownersOf, planBodyEcho } from '../../mock/plan/path-echo.js';
import type { Collection } from '../../mock/plan/infer-collections.js';

const operation = (method: string, path: string) => ({ id: 'op', method, path, spec: {} }) as Operation;
const object = (properties: object) => ({ type: 'object', properties });
const STRING = { type: 'string' };

/** Where each parameter goes: `field <- param` at the top, `where[]: field <- param` in listed records. */
const placesOf = (method: string, path: string, schema: object) => {
  const echo = planBodyEcho(operation(method, path), schema);
  return [
    ...(echo?.top ?? []).map((e) => `${e.field} <- ${e.param}`),
    ...(echo?.lists ?? []).flatMap((list) => list.echoes.map((e) => `${list.where ?? ''}[]: ${e.field} <- ${e.param}`)),
  ];
};

describe('planBodyEcho', () => {
  test.each([
    [
      'an item path’s last parameter names the record read, not what is nested in it',
      'get',
      '/identities/{id}',
      object({ id: STRING, recovery_addresses: { type: 'array', items: object({ id: STRING }) } }),
      ['id <- id'],
    ],
    [
      'a parent called {id} goes into the listed records’ reference to it, never their id',
      'get',
      '/identities/{id}/sessions',
      { type: 'array', items: object({ id: STRING, identity_id: STRING }) },
      ['[]: identity_id <- id'],
    ],
    [
      'a parent named like its reference goes into it, in an envelope’s records too',
      'get',
      '/members/{member_id}/passes',
      object({ data: { type: 'array', items: object({ id: STRING, member_id: STRING }) } }),
      ['data[]: member_id <- member_id'],
    ],
    [
      'an update of an item names the record and its parent',
      'put',
      '/members/{member_id}/passes/{pass_id}',
      object({ pass_id: STRING, member_id: STRING }),
      ['member_id <- member_id', 'pass_id <- pass_id'],
    ],
    [
      'a create’s nested arrays are the record’s own: nothing goes into them',
      'post',
      '/members/{member_id}/passes',
      object({ id: STRING, member_id: STRING, holders: { type: 'array', items: object({ member_id: STRING }) } }),
      ['member_id <- member_id'],
    ],
    ['a path without parameters echoes nothing', 'get', '/passes', object({ id: STRING }), []],
  ])('%s', (_, method, path, schema, places) => {
    expect(placesOf(method, path, schema)).toEqual(places);
  });
});

describe('ownersOf', () => {
  const collectionOf = (path: string, properties: object): Collection => ({
    path,
    idField: 'id',
    schema: object(properties),
    create: operation('post', path),
    list: operation('get', path),
  });
  const MEMBER = { type: 'string', pattern: '^mbr_[a-z0-9]+$' };
  const passes = collectionOf('/members/{member_id}/passes', { id: STRING, member_id: MEMBER });

  test('takes each value that fits its field, and remembers it per value', () => {
    const first = ownersOf(passes, { member_id: 'mbr_a' });
    expect(first).toEqual({ member_id: 'mbr_a' });
    expect(ownersOf(passes, { member_id: 'mbr_b' })).toEqual({ member_id: 'mbr_b' });
    expect(ownersOf(passes, { member_id: 'mbr_a' })).toBe(first);
  });

  test('leaves out a value that does not fit its field', () => {
    expect(ownersOf(passes, { member_id: 'not a member' })).toEqual({});
  });

  test('tells the parents’ values apart by place, and a missing one from any text', () => {
    const badges = collectionOf('/orgs/{org_id}/members/{member_id}/badges', {
      id: STRING,
      org_id: STRING,
      member_id: STRING,
    });
    expect(ownersOf(badges, { org_id: 'a', member_id: 'b' })).toEqual({ org_id: 'a', member_id: 'b' });
    expect(ownersOf(badges, { org_id: 'b', member_id: 'a' })).toEqual({ org_id: 'b', member_id: 'a' });
    expect(ownersOf(badges, { org_id: 'undefined', member_id: 'a' })).toEqual({ org_id: 'undefined', member_id: 'a' });
    expect(ownersOf(badges, { member_id: 'a' })).toEqual({ member_id: 'a' });
    expect(ownersOf(badges, { org_id: 'null', member_id: 'a' })).toEqual({ org_id: 'null', member_id: 'a' });
  });
});

describe('the draft of an echoed field', () => {
  const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';
  test('a listed record’s field is checked in the draft the body’s schema names (only the root says it)', () => {
    const body = { $schema: DRAFT_2020, ...object({ data: { type: 'array', items: object({ member_id: STRING }) } }) };
    const echo = planBodyEcho(operation('get', '/members/{member_id}/passes'), body);
    expect(echo?.lists[0]?.echoes[0]?.schema).toEqual({ type: 'string', $schema: DRAFT_2020 });
  });

  test('a field that names its own draft keeps it, and a body that names none adds none', () => {
    const own = { type: 'string', $schema: 'http://json-schema.org/draft-07/schema#' };
    const named = planBodyEcho(operation('put', '/members/{member_id}'), {
      $schema: DRAFT_2020,
      ...object({ member_id: own }),
    });
    expect(named?.top[0]?.schema).toBe(own);
    const plain = planBodyEcho(operation('put', '/members/{member_id}'), object({ member_id: STRING }));
    expect(plain?.top[0]?.schema).toBe(STRING);
  });
});
