import { describe, expect, test } from 'vitest';
import { parsePrefer } from '../../mock/respond/parse-prefer.js';

describe('parsePrefer', () => {
  test.each([
    [undefined, {}],
    ['code=404', { code: 404 }],
    ['code=200, example=empty, dynamic=false', { code: 200, example: 'empty', dynamic: false }],
    ['Code=201; dynamic=true', { code: 201, dynamic: true }],
    ['example="open_ended"', { example: 'open_ended' }],
    [['code=500', 'return=minimal'], { code: 500 }],
    ['respond-async, wait=10', {}],
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
});
