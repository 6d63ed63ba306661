// Tuple-form arrays (`items: [a, b]`, draft 4, common in Swagger 2.0 documents; `prefixItems` in OpenAPI 3.1)
// are answered as tuples, one item per schema in order, that fit the schema and stay small: they were answered
// as arrays of `{"0": …, "1": …}` objects that fit neither item, and nested ones grew to hundreds of kB.
// Bodies are checked with ajv over the schemas as the documents write them, not with Prism's checker.
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const require = createRequire(import.meta.url);
const Ajv = require('ajv') as typeof import('ajv').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;

/** A point, a labelled segment of two points, and a path of segments: tuples three deep. */
const POINT = '{ type: array, items: [ { type: number }, { type: number } ], additionalItems: false, minItems: 2 }';
const SEGMENT = `{ type: array, items: [ { type: string, maxLength: 8 }, ${POINT}, ${POINT} ], additionalItems: false }`;
/** What each document answers: `{ route: [[label, [x, y], [x, y]], …], pair: [name, count, …flags] }`. */
const answerSchema = (indent: number) => {
  const pad = ' '.repeat(indent);
  const pair = `{ type: array, items: [ { type: string, minLength: 1 }, { type: integer, minimum: 0 } ], additionalItems: { type: boolean }, minItems: 3 }`;
  return [
    '',
    'type: object',
    'required: [route, pair]',
    'properties:',
    `  route: { type: array, minItems: 1, maxItems: 3, items: ${SEGMENT} }`,
    `  pair: ${pair}`,
  ].join(`\n${pad}`);
};

const SWAGGER_2 = `
swagger: '2.0'
info: { title: Tuples, version: '1' }
produces: [application/json]
paths:
  /route:
    get:
      responses:
        '200':
          description: A route
          schema:${answerSchema(12)}
`;

// OpenAPI 3.0 asks for one schema under `items`: a list there makes the document invalid. The mock serves it
// anyway, as Prism does, reading it as JSON Schema draft 4 to 7 read it (a tuple), the way Prism validates it.
const OPENAPI_30 = `
openapi: 3.0.3
info: { title: Tuples, version: '1' }
paths:
  /route:
    get:
      responses:
        '200':
          description: A route
          content:
            application/json:
              schema:${answerSchema(16)}
`;

// OpenAPI 3.1 writes a tuple with `prefixItems`, and what may follow it with `items` (JSON Schema 2020-12).
const OPENAPI_31 = `
openapi: 3.1.0
info: { title: Tuples, version: '1' }
paths:
  /route:
    get:
      responses:
        '200':
          description: A route
          content:
            application/json:
              schema:
                type: object
                required: [pair, closed, open]
                properties:
                  pair: { type: array, prefixItems: [ { type: string, minLength: 1 }, { type: integer, minimum: 0 } ], items: { type: boolean }, minItems: 3 }
                  closed: { type: array, prefixItems: [ { type: string, minLength: 1 }, { type: integer, minimum: 0 } ], items: false }
                  open: { type: array, prefixItems: [ { type: string, format: email }, { type: boolean } ] }
`;

const draft7 = new Ajv({ strict: false, allErrors: true });
addFormats(draft7);
const draft2020 = new Ajv2020({ strict: false, allErrors: true });
addFormats(draft2020);

/** The document's own response schema for GET /route, as it writes it. */
async function serve(text: string) {
  const file = await inlineContract(text);
  const contract = await loadContract(file);
  const { parse } = await import('yaml');
  const document = parse(text);
  const response = document.paths['/route'].get.responses['200'];
  const schema = response.schema ?? response.content['application/json'].schema;
  return { contract, schema };
}

const answers = async (text: string, dynamic: boolean) => {
  const { contract, schema } = await serve(text);
  const mock = createApp(contract, { stateless: true, dynamic });
  const got: { body: any; size: number }[] = [];
  for (const seed of dynamic ? ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] : ['a']) {
    const res = await request(mock.app).get(`/route?seed=${seed}`).set('Authorization', 'Bearer t').expect(200);
    got.push({ body: res.body, size: res.text.length });
  }
  return { schema, got };
};

describe.each([
  ['Swagger 2.0', SWAGGER_2],
  ['OpenAPI 3.0 (a list under items, invalid 3.0, read as draft 4 to 7 read it)', OPENAPI_30],
])('draft 4 tuples: %s', (_, text) => {
  test.each([true, false])(
    'answers tuples that fit, one item per schema in order, small (dynamic %s)',
    async (dynamic) => {
      const { schema, got } = await answers(text, dynamic);
      const validate = draft7.compile(schema);
      for (const { body, size } of got) {
        expect(validate(body) ? [] : validate.errors).toEqual([]);
        expect(size).toBeLessThan(1000);
        for (const [label, from, to] of body.route) {
          expect(typeof label).toBe('string');
          expect(from).toEqual([expect.any(Number), expect.any(Number)]);
          expect(to).toEqual([expect.any(Number), expect.any(Number)]);
        }
        const [name, count, ...flags] = body.pair;
        expect(typeof name).toBe('string');
        expect(Number.isInteger(count)).toBe(true);
        // minItems 3: what follows the tuple is additionalItems'.
        expect(flags.length).toBeGreaterThanOrEqual(1);
        for (const flag of flags) expect(typeof flag).toBe('boolean');
      }
    },
  );
});

describe('OpenAPI 3.1 prefixItems', () => {
  test.each([true, false])('answers the tuple, then items after it as items says (dynamic %s)', async (dynamic) => {
    const { schema, got } = await answers(OPENAPI_31, dynamic);
    const validate = draft2020.compile(schema);
    for (const { body, size } of got) {
      expect(validate(body) ? [] : validate.errors).toEqual([]);
      expect(size).toBeLessThan(1000);
      expect(body.pair.length).toBeGreaterThanOrEqual(3);
      expect(body.pair.slice(0, 2)).toEqual([expect.any(String), expect.any(Number)]);
      for (const flag of body.pair.slice(2)) expect(typeof flag).toBe('boolean');
      expect(body.closed).toEqual([expect.any(String), expect.any(Number)]);
      expect(body.open.slice(0, 2)).toEqual([expect.stringContaining('@'), expect.any(Boolean)]);
    }
  });
});
