import { describe, expect, test } from 'vitest';
import { hasPreferQuery, parsePrefer } from '../../mock/http/parse-prefer.js';

describe('parsePrefer', () => {
  test.each([
    [undefined, {}],
    ['code=404', { code: 404 }],
    ['code=200, example=empty, dynamic=false', { code: 200, example: 'empty', dynamic: false }],
    ['Code=201; dynamic=true', { code: 201, dynamic: true }],
    ['example="open_ended"', { example: 'open_ended' }],
    ['example=say"hi"', { example: 'say"hi"' }],
    ['example="hi"there', { example: '"hi"there' }],
    [['code=500', 'return=minimal'], { code: 500 }],
    ['respond-async, wait=10', {}],
    ['code=599', { code: 599 }],
    ['  CODE = 404 ', { code: 404 }],
    ['code=404, code=500', { code: 404 }],
    ['example=a=b', { example: 'a=b' }],
    ['delay=0', { delay: 0 }],
    ['delay=60000', { delay: 60000 }],
    ['dynamic="true"', { dynamic: true }],
  ])('reads %j as %j', (header, preferences) => {
    expect(parsePrefer(header)).toEqual({ ok: true, preferences });
  });

  test.each([
    ['code=abc', 'Prefer code=abc is not a final HTTP status code (200-599).'],
    ['code=999', 'Prefer code=999 is not a final HTTP status code (200-599).'],
    ['code=100', 'Prefer code=100 is not a final HTTP status code (200-599).'],
    ['dynamic=yes', 'Prefer dynamic=yes must be true or false.'],
    ['example=', 'Prefer example= needs the name of an example.'],
  ])('refuses %j with a message', (header, message) => {
    expect(parsePrefer(header)).toEqual({ ok: false, message });
  });

  test.each(['code=199', 'code=600', 'code=4040', 'code=x404'])('refuses %j, which is not a final status', (header) => {
    expect(parsePrefer(header)).toEqual({ ok: false, message: expect.stringContaining('200-599') });
  });

  test.each(['delay=60001', 'delay=100000', 'delay=-1', 'delay=1.5', 'delay=', 'delay=1s'])(
    'refuses %j, which is not whole milliseconds up to a minute',
    (header) => {
      expect(parsePrefer(header)).toEqual({ ok: false, message: expect.stringContaining('0 to 60000') });
    },
  );

  test('reads the __code, __example, __dynamic and __delay query parameters like the header', () => {
    expect(parsePrefer(undefined, { __code: '404', __example: 'empty', __dynamic: 'false', __delay: '10' })).toEqual({
      ok: true,
      preferences: { code: 404, example: 'empty', dynamic: false, delay: 10 },
    });
  });

  test('lets the header win over a query parameter with the same name', () => {
    expect(parsePrefer('code=404', { __code: '500', __example: 'empty' })).toEqual({
      ok: true,
      preferences: { code: 404, example: 'empty' },
    });
  });

  test('refuses a bad query parameter as it refuses a bad header', () => {
    expect(parsePrefer(undefined, { __code: 'abc' })).toEqual({
      ok: false,
      message: expect.stringContaining('code=abc'),
    });
  });

  test('ignores other query parameters and repeated ones, which are not a single text', () => {
    expect(parsePrefer(undefined, { code: '404', __code: ['404', '500'] })).toEqual({ ok: true, preferences: {} });
  });
});

describe('hasPreferQuery', () => {
  test.each([
    [{}, false],
    [{ limit: '5' }, false],
    [{ code: '404' }, false],
    [{ __code: '404' }, true],
    [{ limit: '5', __delay: '10' }, true],
    // As Node's querystring parses it: an object without a prototype.
    [Object.assign(Object.create(null) as object, { __example: 'empty' }), true],
    [Object.create(null) as object, false],
  ])('%j holds a Prefer parameter: %s', (query, expected) => {
    expect(hasPreferQuery(query)).toBe(expected);
  });
});
