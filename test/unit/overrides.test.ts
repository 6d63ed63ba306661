import { describe, expect, test, vi } from 'vitest';
import type { CallRecord } from '../../mock/journal/journal.js';
import type { OperationPlan } from '../../mock/plan/operation-plan.js';
import { compileResponses } from '../../mock/schema/response-table.js';
import {
  findOverride,
  readOverride,
  useOverride,
  type CheckResponse,
  type Override,
} from '../../mock/respond/overrides.js';

/** An operation's plan as serve() compiles it; only the documented status codes matter here. */
const operation = (id: string, codes: string[]): OperationPlan => {
  const responses = codes.map((code) => ({ id: code, code, headers: [], contents: [] }));
  return {
    operation: { id, method: 'get', path: `/${id}`, spec: { responses } },
    responses: compileResponses(responses),
  } as unknown as OperationPlan;
};

const operations = [operation('getPass', ['200', '404', '5XX']), operation('createPass', ['201', '400', 'default'])];

const fits: CheckResponse = () => [];

const read = (value: unknown, check = fits) => readOverride(value, 'override-1', operations, check);

/** The reasons an override is refused (empty when it is accepted). */
const errors = (value: unknown) => {
  const result = read(value);
  return result.ok ? [] : result.errors;
};

describe('readOverride', () => {
  test('returns the override with its id, counting the calls it applies to', () => {
    expect(read({ operationId: 'getPass', status: 404, times: 2 })).toEqual({
      ok: true,
      override: { operationId: 'getPass', status: 404, times: 2, id: 'override-1', remaining: 2 },
    });
  });

  test('applies an override without times until reset', () => {
    expect(read({ operationId: 'getPass', delay: 100 })).toMatchObject({ ok: true, override: { remaining: null } });
  });

  test.each([
    [{ operationId: 'getPass', status: 200 }],
    [{ operationId: 'getPass', status: 503 }],
    [{ operationId: 'createPass', status: 299 }],
    [{ operationId: 'createPass', status: 599 }],
    [{ operationId: 'getPass', delay: 0 }],
    [{ operationId: 'getPass', delay: 60000 }],
    [{ operationId: 'getPass', fault: 'drop', times: 1 }],
    [{ operationId: 'getPass', headers: { 'Retry-After': '5' } }],
    [{ operationId: 'getPass', body: { id: 'p1' }, match: { pathParams: { pass_id: 'p1' } } }],
  ])('accepts %j', (value) => {
    expect(errors(value)).toEqual([]);
  });

  test.each([[null], [[]], ['getPass']])('refuses %j, which is not an object, asking for an operationId', (value) => {
    expect(errors(value)).toEqual([expect.stringContaining('"operationId"')]);
  });

  test('refuses an unknown operation, listing the operations of the contract', () => {
    expect(errors({ operationId: 'getPas', status: 404 })).toEqual([
      'operationId "getPas" is not an operation of the contract; it has getPass, createPass',
    ]);
  });

  test('refuses an unknown field, listing the fields an override has', () => {
    expect(errors({ operationId: 'getPass', status: 404, count: 1 })).toEqual([
      'unknown field "count"; an override has operationId, match, status, body, headers, delay, fault, times',
    ]);
  });

  test.each([
    ['status', { status: 199 }],
    ['status', { status: 600 }],
    ['status', { status: 404.5 }],
    ['status', { status: '404' }],
    ['status', { status: 302 }],
    ['delay', { delay: -1 }],
    ['delay', { delay: 60001 }],
    ['delay', { delay: 1.5 }],
    ['times', { delay: 1, times: 0 }],
    ['times', { delay: 1, times: 1.5 }],
    ['fault', { fault: 'close' }],
    ['headers', { headers: 'Retry-After: 5' }],
    ['headers', { headers: null }],
    ['headers', { headers: { 'Retry-After': 5 } }],
    ['headers', { headers: { 'Retry-After': '5', 'X-Attempt': 2 } }],
    ['match', { delay: 1, match: 'p1' }],
    ['match', { delay: 1, match: null }],
    ['match.params', { delay: 1, match: { params: { pass_id: 'p1' } } }],
    ['match.pass_id', { delay: 1, match: { pass_id: 'p1' } }],
  ])('refuses a bad %s in %j, naming it', (name, fields) => {
    expect(errors({ operationId: 'getPass', ...fields })).toEqual([expect.stringContaining(name)]);
  });

  test.each([199, 600])('refuses status %i even for an operation with a default response', (status) => {
    expect(errors({ operationId: 'createPass', status })).toEqual([
      'status must be a final HTTP status code (200-599)',
    ]);
  });

  test('refuses a status the operation does not document, listing those it does', () => {
    expect(errors({ operationId: 'getPass', status: 201 })).toEqual([
      'status 201 is not documented for getPass; documented: 200, 404, 5XX',
    ]);
  });

  test('matches a status range of the contract in any case', () => {
    const lower = [operation('getPass', ['200', '5xx'])];
    expect(readOverride({ operationId: 'getPass', status: 500 }, 'o', lower, fits).ok).toBe(true);
  });

  test('refuses headers the mock writes itself, in any case', () => {
    expect(
      errors({
        operationId: 'getPass',
        headers: { 'Content-Type': 'text/plain', 'X-Request-Id': 'r', 'X-Trace': 't' },
      }),
    ).toEqual([expect.stringMatching(/^headers may not set Content-Type, X-Request-Id: /)]);
  });

  test.each(['content-length', 'transfer-encoding', 'connection', 'content-encoding'])(
    'refuses a %s header',
    (name) => {
      expect(errors({ operationId: 'getPass', headers: { [name]: 'x' } })).toEqual([expect.stringContaining(name)]);
    },
  );

  test.each([
    ['a line feed', 'a\nSet-Cookie: x=1', 'control character'],
    ['a carriage return', 'a\rb', 'control character'],
    ['a NUL', 'a\u0000b', 'control character'],
    ['a character beyond Latin-1', 'Ω', 'character beyond Latin-1'],
  ])('refuses a header value with %s, naming the header', (_, value, reason) => {
    expect(errors({ operationId: 'getPass', headers: { 'X-Note': value } })).toEqual([
      expect.stringMatching(new RegExp(`^header "X-Note" has a ${reason}`)),
    ]);
  });

  test.each([['X Note'], ['X-Note:'], ['X-Nöte'], ['']])(
    'refuses the header name %j, which is no HTTP token',
    (name) => {
      expect(errors({ operationId: 'getPass', headers: { [name]: 'x' } })).toEqual([
        expect.stringContaining('is not an HTTP token'),
      ]);
    },
  );

  test('accepts a header value with spaces, a tab and Latin-1', () => {
    expect(errors({ operationId: 'getPass', headers: { 'X-Note': 'café\tau lait' } })).toEqual([]);
  });

  // A match holds its body under `body`: `{"body":…}` is 9 bytes more than the body alone.
  const sized = (field: string, bytes: number) =>
    field === 'match' ? { body: { text: 'x'.repeat(bytes - 11 - 9) } } : { text: 'x'.repeat(bytes - 11) };

  test.each(['match', 'body'])('refuses a %s of more than 64 KiB of JSON, saying how large it is', (field) => {
    expect(errors({ operationId: 'getPass', status: 200, [field]: sized(field, 65_537) })).toEqual([
      `${field} is 65537 bytes of JSON; at most 65536 are kept`,
    ]);
  });

  test.each(['match', 'body'])('accepts a %s of 64 KiB of JSON', (field) => {
    expect(errors({ operationId: 'getPass', status: 200, [field]: sized(field, 65_536) })).toEqual([]);
  });

  test.each(['match', 'body'])('refuses a %s nested 100,000 deep without overflowing the stack', (field) => {
    let value: unknown = {};
    for (let i = 0; i < 100_000; i++) value = { a: value };
    if (field === 'match') value = { body: value };
    expect(errors({ operationId: 'getPass', status: 200, [field]: value })).toEqual([
      `${field} nests deeper than 64 levels`,
    ]);
  });

  test('accepts a body nested 64 levels, and refuses one nested 65', () => {
    const nested = (levels: number) => {
      let value: unknown = {};
      for (let i = 1; i < levels; i++) value = { a: value };
      return value;
    };
    expect(errors({ operationId: 'getPass', body: nested(64) })).toEqual([]);
    expect(errors({ operationId: 'getPass', body: nested(65) })).toEqual(['body nests deeper than 64 levels']);
  });

  test('checks no body against the contract when it is too large', () => {
    const check = vi.fn<CheckResponse>(() => []);
    read({ operationId: 'getPass', body: { text: 'x'.repeat(70_000) } }, check);
    expect(check).not.toHaveBeenCalled();
  });

  test('refuses an override that says nothing to do', () => {
    expect(errors({ operationId: 'getPass', times: 1 })).toEqual([
      'say what to do: status, body, headers, delay or fault',
    ]);
  });

  test('gives every reason at once', () => {
    expect(errors({ operationId: 'getPass', status: 1, delay: -1, times: 0, fault: 'x', extra: 1 })).toHaveLength(5);
  });

  test.each([
    ['the status it is given', 'getPass', { status: 404 }, 404],
    ['the first documented 2xx without a status', 'createPass', {}, 201],
  ])('checks the body against %s', (_, operationId, fields, status) => {
    const check = vi.fn<CheckResponse>(() => ['/id: must be string']);
    const result = read({ operationId, body: { id: 1 }, ...fields }, check);
    expect(check).toHaveBeenCalledWith(
      operations.find((plan) => plan.operation.id === operationId)?.operation,
      status,
      { id: 1 },
    );
    expect(result).toEqual({ ok: false, errors: ['body: /id: must be string'] });
  });

  test('checks the body with the status it is sent with when the operation documents no 2xx', () => {
    const check = vi.fn<CheckResponse>(() => []);
    readOverride({ operationId: 'failing', body: {} }, 'o', [operation('failing', ['500'])], check);
    expect(check).toHaveBeenCalledWith(expect.anything(), 500, {});
  });

  test('checks no body when the override is refused already', () => {
    const check = vi.fn<CheckResponse>(() => []);
    read({ operationId: 'getPass', body: {}, delay: -1 }, check);
    expect(check).not.toHaveBeenCalled();
  });
});

const call = {
  operationId: 'getPass',
  method: 'GET',
  path: '/passes/p1',
  pathParams: { pass_id: 'p1' },
  query: {},
  headers: {},
  response: { status: 0, headers: {} },
} satisfies Partial<CallRecord>;

const override = (id: string, fields: Partial<Override> = {}): Override => ({
  operationId: 'getPass',
  status: 404,
  id,
  remaining: null,
  ...fields,
});

describe('findOverride', () => {
  test('finds the first override of the call’s operation whose match fits', () => {
    const overrides = [
      override('other', { operationId: 'createPass' }),
      override('p2', { match: { pathParams: { pass_id: 'p2' } } }),
      override('p1', { match: { pathParams: { pass_id: 'p1' } } }),
      override('any'),
    ];
    expect(findOverride(overrides, call)?.id).toBe('p1');
  });

  test('finds an override without a match for any call of its operation', () => {
    expect(findOverride([override('any')], call)?.id).toBe('any');
  });

  test('finds none when no override fits', () => {
    expect(findOverride([override('other', { operationId: 'createPass' })], call)).toBeUndefined();
  });
});

describe('useOverride', () => {
  test('removes an override once its times are used up, and only that one', () => {
    const first = override('first');
    const once = override('once', { remaining: 1 });
    const last = override('last');
    const overrides = [first, once, last];
    useOverride(overrides, once);
    expect(overrides).toEqual([first, last]);
  });

  test('keeps an override with times left, counting one down', () => {
    const twice = override('twice', { remaining: 2 });
    const overrides = [twice];
    useOverride(overrides, twice);
    expect(overrides).toEqual([{ ...twice, remaining: 1 }]);
  });

  test('keeps an override without times however often it is used', () => {
    const always = override('always');
    const overrides = [always];
    for (let i = 0; i < 3; i++) useOverride(overrides, always);
    expect(overrides).toEqual([override('always')]);
  });
});
