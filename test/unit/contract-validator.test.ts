import { describe, expect, test } from 'vitest';
import { DEFAULT_CONTRACT } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';
import { createContractValidator } from '../support/contract-validator.js';

// The conformance checks rest on this validator; these tests prove it can say no.
const validator = createContractValidator(DEFAULT_CONTRACT);
const pass = {
  id: 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M',
  member_id: 'm1',
  name: 'Gold',
  status: 'active',
  valid_from: '2026-01-05T09:30:00Z',
  valid_until: null,
  created_at: '2026-01-05T09:30:00Z',
};

describe('the independent contract validator', () => {
  test('accepts a body that fits the contract', () => {
    expect(validator.check('getPass', 200, 'application/json; charset=utf-8', pass)).toEqual([]);
  });

  test('rejects an undocumented field, and names it', () => {
    expect(validator.check('getPass', 200, 'application/json', { ...pass, extra: 1 })).toEqual([
      "getPass 200: / must NOT have additional properties 'extra'",
    ]);
  });

  test('reads an OpenAPI 3.1 document as JSON Schema 2020-12: unevaluatedProperties closes a schema', async () => {
    const closed = createContractValidator(
      await inlineContract(`openapi: 3.1.0
info: { title: closed, version: '1' }
paths:
  /a:
    get:
      operationId: getA
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                allOf: [{ type: object, properties: { id: { type: string } } }]
                properties: { name: { type: string } }
                unevaluatedProperties: false
`),
    );
    expect(closed.check('getA', 200, 'application/json', { id: 'a', name: 'n' })).toEqual([]);
    expect(closed.check('getA', 200, 'application/json', { id: 'a', extra: 1 })).toEqual([
      "getA 200: / must NOT have unevaluated properties 'extra'",
    ]);
  });

  test('rejects a wrong enum value and a malformed timestamp', () => {
    expect(
      validator.check('getPass', 200, 'application/json', { ...pass, status: 'gone', created_at: 'yesterday' }),
    ).toHaveLength(2);
  });

  test('rejects an undocumented status and a wrong media type', () => {
    expect(validator.check('getPass', 201, 'application/json', pass)).toEqual([
      'status 201 is not documented for getPass',
    ]);
    expect(validator.check('getPass', 200, 'text/plain', pass)[0]).toMatch(/media type text\/plain/);
  });

  test('rejects a body on a response that has none', () => {
    expect(validator.check('deletePass', 204, undefined, { a: 1 })).toHaveLength(1);
  });

  test('checks a request body against the one the operation documents', () => {
    expect(validator.checkRequest('createCredential', 'application/json', { kind: 'pin' })).toEqual([]);
    expect(validator.checkRequest('createCredential', 'application/json', { kind: 'retina' })).toEqual([
      'createCredential request: /kind must be equal to one of the allowed values',
    ]);
    expect(validator.checkRequest('createCredential', 'text/plain', 'pin')[0]).toMatch(/media type text\/plain/);
    expect(validator.checkRequest('getPass', 'application/json', {})).toEqual([
      'getPass takes no request body in the contract',
    ]);
  });

  test('follows $ref to shared responses', () => {
    expect(
      validator.check('getPass', 404, 'application/problem+json', {
        type: 'https://x.test/p',
        title: 't',
        status: 404,
        detail: 'd',
      }),
    ).toEqual([]);
    expect(validator.check('getPass', 404, 'application/problem+json', { title: 't' })).not.toEqual([]);
  });
});
