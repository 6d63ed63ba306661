import type { IHttpOperation } from '@stoplight/types';
import { expect, test } from 'vitest';
import { findBodyViolations, SchemaChecks } from '../../mock/prism/check-response.js';

/** An operation whose 200 answers JSON with `schema`. */
function answering(schema: object): IHttpOperation {
  return {
    id: 'op',
    method: 'get',
    path: '/p',
    request: {},
    responses: [{ id: 'r', code: '200', contents: [{ id: 'c', mediaType: 'application/json', schema }] }],
  } as unknown as IHttpOperation;
}

test('a body is checked as Prism checks answers: every violation, with its pointer and keyword', () => {
  const spec = answering({
    type: 'object',
    required: ['at'],
    properties: {
      at: { type: 'string', format: 'date-time' },
      n: { type: 'integer', minimum: 2 },
      secret: { type: 'string', writeOnly: true },
    },
  });
  expect(findBodyViolations(new SchemaChecks(), spec, 200, 'application/json', { at: 'soon', n: 1 })).toEqual([
    { pointer: '/at', code: 'format', message: 'must match format "date-time"' },
    { pointer: '/n', code: 'minimum', message: 'must be >= 2' },
  ]);
  expect(findBodyViolations(new SchemaChecks(), spec, 200, 'application/json', {})).toEqual([
    { pointer: '/at', code: 'required', message: "must have required property 'at'" },
  ]);
});

test('keeps at most its limit of compiled schemas, and checks a dropped one again when asked', () => {
  const checks = new SchemaChecks(2);
  const specs = [1, 2, 3].map((n) => answering({ type: 'object', required: [`f${n}`] }));
  for (const spec of specs) expect(findBodyViolations(checks, spec, 200, 'application/json', {})).toHaveLength(1);
  // The first was dropped to make room for the third: it is compiled again, with the same verdict.
  expect(findBodyViolations(checks, specs[0]!, 200, 'application/json', { f1: 1 })).toEqual([]);
  expect(findBodyViolations(checks, specs[0]!, 200, 'application/json', {})).toEqual([
    { pointer: '/f1', code: 'required', message: "must have required property 'f1'" },
  ]);
});

test('a schema past 4000 objects once expanded is not checked (its compiled code would cost megabytes)', () => {
  const shared = {
    type: 'object',
    required: ['x'],
    properties: Object.fromEntries([...'abcdefghij'].map((k) => [k, { type: 'string' }])),
  };
  // 500 properties sharing one 12-object schema: 6000 objects once expanded.
  const big = {
    type: 'object',
    properties: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`p${i}`, shared])),
  };
  expect(findBodyViolations(new SchemaChecks(), answering(big), 200, 'application/json', { p0: {} })).toEqual([]);
  const small = { type: 'object', properties: { p0: shared } };
  expect(findBodyViolations(new SchemaChecks(), answering(small), 200, 'application/json', { p0: {} })).toHaveLength(1);
});
