import type { IHttpOperationResponse } from '@stoplight/types';
import { describe, expect, test } from 'vitest';
import { compileResponses, statusOf } from '../../mock/schema/response-table.js';

const responses = (...codes: string[]): IHttpOperationResponse[] => codes.map((code, i) => ({ id: `r${i}`, code }));

describe('compileResponses', () => {
  test.each([
    ['its exact code first', ['default', '4XX', '404'], 404, '404'],
    ['else its class', ['default', '4XX', '400'], 404, '4XX'],
    ['a class in lower case', ['default', '4xx'], 404, '4xx'],
    ['else default', ['200', 'default'], 503, 'default'],
    ['a default written in capitals', ['200', 'Default'], 503, 'Default'],
    ['nothing when none of them fits', ['200', '404'], 500, undefined],
  ])('looks up a status by %s', (_name, codes, status, expected) => {
    expect(compileResponses(responses(...codes)).lookup(status)?.code).toBe(expected);
  });

  test('the first of two responses with one code wins, as a search in contract order finds it', () => {
    const table = compileResponses([
      { id: 'first', code: '404' },
      { id: 'second', code: '404' },
    ]);
    expect(table.lookup(404)?.id).toBe('first');
  });

  test.each([
    ['the lowest 2xx, whatever the order', ['500', '201', '200'], '200', 200],
    ['else the 2XX class, sent as 200', ['404', '2XX', 'default'], '2XX', 200],
    ['else default, sent as 200', ['404', 'default'], 'default', 200],
    ['else the first response', ['404', '500'], '404', 404],
  ])('answers success with %s', (_name, codes, code, status) => {
    const table = compileResponses(responses(...codes));
    expect([table.success?.code, table.successStatus]).toEqual([code, status]);
  });

  test('has no success and answers 200 when nothing is documented', () => {
    const table = compileResponses([]);
    expect([table.success, table.successStatus, table.failure]).toEqual([undefined, 200, undefined]);
  });

  test('fails with the first documented 5xx, not a 5XX class', () => {
    expect(compileResponses(responses('200', '5XX', '503', '500')).failure).toBe(503);
    expect(compileResponses(responses('200', '5XX')).failure).toBeUndefined();
  });

  test('keeps the codes as written, in contract order', () => {
    expect(compileResponses(responses('201', '4XX', 'default')).codes).toEqual(['201', '4XX', 'default']);
  });
});

describe('statusOf', () => {
  test.each([
    ['an exact code is sent as it is', '404', undefined, 404],
    ['an exact code wins over what was asked', '404', 410, 404],
    ['a class answers what was asked', '4XX', 418, 418],
    ['a class answers its first status otherwise', '5xx', undefined, 500],
    ['default answers what was asked', 'default', 429, 429],
    ['default answers 200 otherwise', 'default', undefined, 200],
  ])('%s', (_name, code, asked, status) => {
    expect(statusOf(code, asked)).toBe(status);
  });
});
