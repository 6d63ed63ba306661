import { describe, expect, test } from 'vitest';
import type { Operation } from '../../mock/contract/contract.js';
import { planBodyEcho } from '../../mock/plan/path-echo.js';

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
