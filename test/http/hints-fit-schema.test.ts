// A hint (x-faker, x-examples, a property's name) only ever picks values its schema allows, at every level:
// third-party contract testers found `"values": "LE4mf0pt90_ZmOC"` answered for an array of strings with an
// `x-faker`. Each answer here is checked with ajv over the contract's own schemas, not with Prism's checker.
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import { createApp, loadContract, type Contract } from '../../mock/index.js';
import { createContractValidator, type ContractValidator } from '../support/contract-validator.js';
import { inlineContract } from '../support/inline-contract.js';

const CONTRACT = `
openapi: 3.0.3
info: { title: Hints, version: '1' }
paths:
  /reports/{report_id}:
    get:
      operationId: getReport
      parameters: [{ name: report_id, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: A report
          content: { application/json: { schema: { $ref: '#/components/schemas/Report' } } }
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: Things
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Thing' } } } }
    post:
      operationId: createThing
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, properties: { note: { type: string } } } } }
      responses:
        '201':
          description: Made
          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
  /things/{thing_id}:
    get:
      operationId: getThing
      parameters: [{ name: thing_id, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: A thing
          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
components:
  schemas:
    Hinted:
      type: object
      required: [values, count, code, level, email, owners, nickname, price]
      properties:
        nickname: { type: string, maxLength: 30, x-faker: person.firstName }
        price: { type: number, minimum: 0, x-faker: finance.amount }
        values: { type: array, items: { type: string }, x-faker: internet.password }
        count: { type: integer, minimum: 0, x-faker: internet.password }
        code: { type: string, maxLength: 4, x-faker: lorem.paragraph }
        level: { type: integer, x-examples: [low, high, top] }
        email: { type: integer }
        first_name: { type: boolean }
        owners:
          type: array
          minItems: 1
          items:
            type: object
            required: [email, tags, name, phones]
            properties:
              email: { type: boolean }
              tags: { type: array, items: { type: string }, x-faker: lorem.word }
              name: { type: string, maxLength: 3, x-faker: lorem.paragraph }
              phones: { type: array, items: { type: integer }, x-examples: ['+1 555 0100', '+1 555 0199'] }
    Report:
      allOf:
        - $ref: '#/components/schemas/Hinted'
        - type: object
          required: [id, report_id]
          properties:
            id: { type: integer }
            report_id: { type: string, format: uuid }
    Thing:
      allOf:
        - $ref: '#/components/schemas/Hinted'
        - type: object
          required: [id]
          properties:
            id: { type: string }
            note: { type: string }
`;

let contract: Contract;
let validator: ContractValidator;

beforeAll(async () => {
  const file = await inlineContract(CONTRACT);
  contract = await loadContract(file);
  validator = createContractValidator(file);
});

/** The body of each answer breaks nothing of its schema, nested values included. */
const expectFits = (operationId: string, res: request.Response) =>
  expect(validator.check(operationId, res.status, res.headers['content-type'], res.body)).toEqual([]);

describe('hints pick only values the schema allows', () => {
  test('dynamic: an x-faker on an array, on an integer, a name hint on non-strings, nested in arrays of objects', async () => {
    const mock = createApp(contract, { stateless: true, dynamic: true });
    for (let i = 0; i < 30; i++) {
      const res = await request(mock.app).get(`/reports/r${i}`).set('Authorization', 'Bearer t').expect(200);
      expectFits('getReport', res);
      expect(Array.isArray(res.body.values)).toBe(true);
      expect(Number.isInteger(res.body.count)).toBe(true);
      expect(Number.isInteger(res.body.email)).toBe(true);
      expect(Number.isInteger(res.body.id)).toBe(true);
      for (const owner of res.body.owners) {
        expect(typeof owner.email).toBe('boolean');
        expect(Array.isArray(owner.tags)).toBe(true);
      }
    }
  });

  test('dynamic: an x-faker whose value fits is still used, made the schema’s type as json-schema-faker makes it', async () => {
    const mock = createApp(contract, { stateless: true, dynamic: true });
    for (let i = 0; i < 20; i++) {
      const res = await request(mock.app).get(`/reports/r${i}`).set('Authorization', 'Bearer t').expect(200);
      expect(res.body.nickname).toMatch(/^[A-Z][a-z'-]+$/);
      // finance.amount gives text ("512.35"): a number schema gets its number.
      expect(typeof res.body.price).toBe('number');
    }
  });

  test.each([true, false])(
    'a field named like a path parameter takes its value only where it fits (dynamic %s)',
    async (dynamic) => {
      const mock = createApp(contract, { stateless: true, dynamic });
      const other = await request(mock.app).get('/reports/r1').set('Authorization', 'Bearer t').expect(200);
      expectFits('getReport', other);
      const uuid = '0b7e2a52-3c1f-4a8e-9d6b-2f1c0e5a7d90';
      const own = await request(mock.app).get(`/reports/${uuid}`).set('Authorization', 'Bearer t').expect(200);
      expect(own.body.report_id).toBe(uuid);
    },
  );

  test('static: the answer is the sampled schema, hints or not', async () => {
    const mock = createApp(contract, { stateless: true, dynamic: false });
    const res = await request(mock.app).get('/reports/r1').set('Authorization', 'Bearer t').expect(200);
    expectFits('getReport', res);
    expect(res.body).toMatchObject({ values: ['string'], count: 0, email: 0, id: 0 });
  });

  test.each([true, false])('records made from hints fit too (dynamic %s)', async (dynamic) => {
    const mock = createApp(contract, { dynamic });
    const made = await request(mock.app)
      .post('/things')
      .set('Authorization', 'Bearer t')
      .send({ note: 'hello' })
      .expect(201);
    expectFits('createThing', made);
    expect(Array.isArray(made.body.values)).toBe(true);
    const read = await request(mock.app).get(`/things/${made.body.id}`).set('Authorization', 'Bearer t').expect(200);
    expectFits('getThing', read);
    const list = await request(mock.app).get('/things').set('Authorization', 'Bearer t').expect(200);
    expectFits('listThings', list);
  });
});
