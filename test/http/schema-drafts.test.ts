// Only the root of a body's schema names its JSON Schema draft (`$schema`: Prism gives each root the document's
// `jsonSchemaDialect`, else draft-07, as it reads OpenAPI 3.1 too). A field's schema checked on its own was read
// as draft-07: in a document that declares 2020-12, a create dropped a value it was sent that fits the field (a
// `prefixItems` tuple with `items: false` refused every element) and drew another in its place.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

/** A create whose request declares `pair` loosely and whose record declares it as a closed tuple. */
const contract = (openapi: string) => `
openapi: ${openapi}
jsonSchemaDialect: https://json-schema.org/draft/2020-12/schema
info: { title: Drafts, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: The things
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Thing' } }
    post:
      operationId: createThing
      requestBody:
        content:
          application/json:
            schema: { type: object, properties: { pair: { type: array } } }
      responses:
        '201':
          description: Created
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Thing' }
components:
  schemas:
    Thing:
      type: object
      required: [id]
      properties:
        id: { type: string, pattern: '^th_[a-z0-9]{6}$' }
        pair: { type: array, prefixItems: [ { type: string }, { type: integer } ], items: false }
`;

const appOf = async (openapi: string) => createApp(await loadContract(await inlineContract(contract(openapi)))).app;

describe('a field sent in a create is judged in the draft of the record schema', () => {
  test('OpenAPI 3.1 declaring 2020-12: a tuple that fits `prefixItems` is kept as sent', async () => {
    const app = await appOf('3.1.0');
    const created = await request(app)
      .post('/things')
      .send({ pair: ['a', 1] });
    expect(created.status).toBe(201);
    expect(created.body.pair).toEqual(['a', 1]);
  });

  test('OpenAPI 3.1 declaring 2020-12: a tuple that breaks it (`items: false`, a third element) is not kept', async () => {
    const app = await appOf('3.1.0');
    const created = await request(app)
      .post('/things')
      .send({ pair: ['a', 1, 'extra'] });
    expect(created.status).toBe(201);
    expect(created.body.pair).not.toEqual(['a', 1, 'extra']);
  });
});
