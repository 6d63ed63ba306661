// A documented refusal says why in the fields its schema gives a reason in (`message`, `error.message`,
// `error_description`…), not with a sample's "string" or an example's placeholder, as long as the body fits.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { newMock } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

const REASON = 'query /limit: must be <= 10';

/** A contract whose `GET /things?limit=` (10 at most) documents its 400 with `error` (YAML of a media type). */
function contract(error: string, schemas = '', mediaType = 'application/json'): Promise<string> {
  return inlineContract(`openapi: 3.0.3
info: { title: refusal text, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - { name: limit, in: query, required: true, schema: { type: integer, maximum: 10 } }
      responses:
        '200': { description: ok }
        '400':
          description: bad
          content:
            ${mediaType}:
${error.replace(/^/gm, '              ')}
components:
  schemas:${schemas || ' {}'}
`);
}

async function refusalOf(error: string, schemas?: string, mediaType?: string): Promise<unknown> {
  const mock = await newMock({ contract: await contract(error, schemas, mediaType) });
  const res = await request(mock.app).get('/things?limit=99').expect(400);
  return mediaType === undefined ? res.body : JSON.parse(res.text);
}

describe('a documented application/problem+json refusal', () => {
  const PROBLEM = 'application/problem+json';

  test('of an open object schema is the problem, its fields in', async () => {
    const body = await refusalOf('schema: { type: object }', '', PROBLEM);
    expect(body).toMatchObject({ title: expect.any(String), status: 400, detail: REASON });
    expect(typeof (body as { type: unknown }).type).toBe('string');
  });

  test.each([PROBLEM, 'application/json'])(
    'documented with no schema nor example (%s) is the problem',
    async (type) => {
      const body = await refusalOf('{}', '', type);
      expect(body).toMatchObject({ title: expect.any(String), status: 400, detail: REASON });
    },
  );

  test('of a schema that allows no field is the documented body', async () => {
    const body = await refusalOf('schema: { type: object, additionalProperties: false }', '', PROBLEM);
    expect(body).toEqual({});
  });
});

describe("a documented refusal's text fields carry its reason", () => {
  test('a string message of a schema without an example says why, not "string"', async () => {
    const body = await refusalOf(
      `schema: { type: object, required: [message], properties: { message: { type: string } } }`,
    );
    expect(body).toEqual({ message: REASON });
  });

  test("an example's message is replaced by the reason; its code stays", async () => {
    const body = await refusalOf(`schema:
  type: object
  properties: { code: { type: string }, message: { type: string }, description: { type: string } }
example: { code: E_LIMIT, message: Something went wrong, description: See the docs }`);
    expect(body).toEqual({ code: 'E_LIMIT', message: REASON, description: REASON });
  });

  test('OAuth-style error_description says why while error, beside it, stays the code', async () => {
    const body = await refusalOf(`schema:
  type: object
  required: [error]
  properties:
    error: { type: string }
    error_description: { type: string }
example: { error: invalid_request, error_description: The request is invalid }`);
    expect(body).toEqual({ error: 'invalid_request', error_description: REASON });
  });

  test('a string error with no other text field says why', async () => {
    const body = await refusalOf(`schema: { type: object, properties: { error: { type: string } } }
example: { error: Bad Request }`);
    expect(body).toEqual({ error: REASON });
  });

  test('a Google-style error object carries the reason in its message, its code and status kept', async () => {
    const body = await refusalOf(`schema:
  type: object
  required: [error]
  properties:
    error:
      type: object
      required: [code, message, status]
      properties:
        code: { type: integer }
        message: { type: string }
        status: { type: string, enum: [INVALID_ARGUMENT] }`);
    expect(body).toEqual({ error: { code: expect.any(Number), message: REASON, status: 'INVALID_ARGUMENT' } });
  });

  test("an error object's title and detail carry the problem's title and detail", async () => {
    const body = await refusalOf(`schema:
  type: object
  properties:
    error:
      type: object
      properties: { code: { type: string }, title: { type: string }, detail: { type: string } }
example: { error: { code: E_LIMIT, title: Error, detail: Something } }`);
    expect(body).toEqual({
      error: { code: 'E_LIMIT', title: 'The request does not match the contract', detail: REASON },
    });
  });

  test('a Stripe-style error that contains itself carries the reason in error.message', async () => {
    const body = await refusalOf(
      `schema: { $ref: '#/components/schemas/Error' }
example: { error: { type: invalid_request_error, message: Placeholder } }`,
      `
    Error:
      type: object
      required: [error]
      properties: { error: { $ref: '#/components/schemas/ApiError' } }
    ApiError:
      type: object
      required: [type]
      properties:
        type: { type: string }
        message: { type: string }
        cause: { $ref: '#/components/schemas/ApiError' }`,
    );
    expect(body).toEqual({ error: { type: 'invalid_request_error', message: REASON } });
  });

  test('a reason longer than maxLength is cut to fit, one that breaks a pattern or enum leaves the example', async () => {
    const body = await refusalOf(`schema:
  type: object
  properties:
    message: { type: string, maxLength: 12 }
    detail: { type: string, maxLength: 8 }
    description: { type: string, pattern: '^[A-Z ]+$' }
    error_description: { type: string, enum: [Invalid] }
example: { message: Bad, detail: Bad, description: BAD INPUT, error_description: Invalid }`);
    expect(body).toEqual({
      message: 'query /limi…',
      detail: 'query /…',
      description: 'BAD INPUT',
      error_description: 'Invalid',
    });
  });

  test('a body with no text field is left as documented', async () => {
    const body =
      await refusalOf(`schema: { type: object, properties: { code: { type: string }, name: { type: string } } }
example: { code: E_LIMIT, name: limit }`);
    expect(body).toEqual({ code: 'E_LIMIT', name: 'limit' });
  });
});
