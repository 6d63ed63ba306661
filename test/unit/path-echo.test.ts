import { describe, expect, test } from 'vitest';
import type { Operation } from '../../mock/contract/contract.js';
import { echoBody, ownersOf, ownerValues, planBodyEcho } from '../../mock/plan/path-echo.js';
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
    update: [],
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

describe('a path parameter in a field that takes a number or a boolean', () => {
  const INTEGER = { type: 'integer' };
  /** The body of `GET path` drawn as `drawn`, after the echo of `pathParams` (whose field is `id` unless named). */
  const echoed = (path: string, field: object, pathParams: Record<string, string>, drawn: unknown = 99) => {
    const body: Record<string, unknown> = { id: drawn };
    const echo = planBodyEcho(operation('get', path), object({ id: field }));
    if (echo) echoBody(body, echo, pathParams);
    return body.id;
  };

  test.each([
    ['7', INTEGER, 7],
    ['-3', INTEGER, -3],
    ['0', INTEGER, 0],
    ['1.5', { type: 'number' }, 1.5],
    ['7', { type: ['integer', 'null'] }, 7],
    ['7', { type: 'integer', nullable: true }, 7],
    ['7', { type: 'integer', format: 'int64' }, 7],
    ['12', { type: 'integer', minimum: 10 }, 12],
    ['true', { type: 'boolean' }, true],
    ['false', { type: 'boolean' }, false],
    ['7', { type: ['integer', 'boolean'] }, 7],
    ['true', { type: ['integer', 'boolean'] }, true],
  ])('%j goes into a field of %j as %j', (text, field, value) => {
    expect(echoed('/orders/{id}', field, { id: text })).toEqual(value);
  });

  test.each([
    ['7', { type: 'integer', minimum: 10 }],
    ['1.5', INTEGER],
    ['abc', INTEGER],
    ['07', INTEGER],
    ['+7', INTEGER],
    [' 7', INTEGER],
    ['7 ', INTEGER],
    ['', INTEGER],
    ['7.0', INTEGER],
    ['1e3', INTEGER],
    ['0x10', INTEGER],
    ['-0', INTEGER],
    ['Infinity', { type: 'number' }],
    ['NaN', { type: 'number' }],
    // Past 2^53 a JSON reader would not give back the number the path says.
    ['9007199254740993', INTEGER],
    ['yes', { type: 'boolean' }],
    ['True', { type: 'boolean' }],
    ['1', { type: 'boolean' }],
  ])('%j does not go into a field of %j: the drawn value stays', (text, field) => {
    expect(echoed('/orders/{id}', field, { id: text })).toBe(99);
  });

  test('a field that takes strings too keeps the text', () => {
    expect(echoed('/orders/{id}', { type: ['integer', 'string'] }, { id: '7' })).toBe('7');
    expect(echoed('/orders/{id}', STRING, { id: '7' })).toBe('7');
  });

  test('the reading is chosen once, when the echo is planned', () => {
    const echo = planBodyEcho(operation('get', '/orders/{id}'), object({ id: INTEGER }));
    expect(echo?.top[0]?.read).toBeTypeOf('function');
    expect(planBodyEcho(operation('get', '/orders/{id}'), object({ id: STRING }))?.top[0]?.read).toBeUndefined();
  });

  test('a parent’s integer goes into the integer reference of each record listed', () => {
    const records = { type: 'array', items: object({ id: INTEGER, customer_id: INTEGER }) };
    const echo = planBodyEcho(operation('get', '/customers/{customerId}/orders'), records);
    const body = [
      { id: 1, customer_id: 99 },
      { id: 2, customer_id: 98 },
    ];
    echoBody(body, echo!, { customerId: '7' });
    expect(body).toEqual([
      { id: 1, customer_id: 7 },
      { id: 2, customer_id: 7 },
    ]);
  });

  describe('ownersOf', () => {
    const orders: Collection = {
      path: '/customers/{customerId}/orders',
      idField: 'id',
      update: [],
      schema: object({ id: INTEGER, customer_id: { type: 'integer', minimum: 1 } }),
      create: operation('post', '/customers/{customerId}/orders'),
      list: operation('get', '/customers/{customerId}/orders'),
    };

    test('an integer reference takes the path’s number (the text names it, as fixtures are checked by)', () => {
      const owners = ownersOf(orders, { customerId: '7' });
      expect(owners).toEqual({ customer_id: '7' });
      expect(ownerValues(owners)).toEqual({ customer_id: 7 });
      expect(ownersOf(orders, { customerId: '7' })).toBe(owners);
      expect(ownerValues(ownersOf(orders, { customerId: '7' }))).toBe(ownerValues(owners));
    });

    test('a value that is no number the field takes is left out', () => {
      expect(ownersOf(orders, { customerId: 'c7' })).toEqual({});
      expect(ownersOf(orders, { customerId: '0' })).toEqual({});
      expect(ownersOf(orders, { customerId: '07' })).toEqual({});
      expect(ownerValues(ownersOf(orders, { customerId: '0' }))).toEqual({});
    });

    test('text owners stay text', () => {
      const passes: Collection = {
        ...orders,
        path: '/members/{member_id}/passes',
        schema: object({ member_id: STRING }),
      };
      const owners = ownersOf(passes, { member_id: '7' });
      expect(ownerValues(owners)).toBe(owners);
      expect(ownerValues({ member_id: 'm1' })).toEqual({ member_id: 'm1' });
    });
  });
});
