// A create's documented Location names the record made, at the path the client called: under the servers' base
// path (`/v1`) when the request came through it, by the record's own id field (`charge_id`), never a drawn one.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const CHARGE = `{ type: object, required: [charge_id, amount], properties: { charge_id: { type: string, readOnly: true }, amount: { type: integer } } }`;
const CONTRACT = `
openapi: 3.0.3
info: { title: Payments, version: '1' }
servers: [{ url: 'https://pay.example.com/v1' }]
paths:
  /charges:
    get: { responses: { '200': { description: ok, content: { application/json: { schema: { type: array, items: ${CHARGE} } } } } } }
    post:
      requestBody: { content: { application/json: { schema: ${CHARGE} } } }
      responses:
        '201':
          description: made
          headers: { Location: { schema: { type: string } } }
          content: { application/json: { schema: ${CHARGE} } }
  /charges/{charge_id}:
    get:
      parameters: [{ name: charge_id, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok, content: { application/json: { schema: ${CHARGE} } } }, '404': { description: none } }
`;

const appOf = async () => createApp(await loadContract(await inlineContract(CONTRACT))).app;

describe('the Location of a create', () => {
  test('is under the base path the request came through, and reads back the record', async () => {
    const app = await appOf();
    const res = await request(app).post('/v1/charges').send({ amount: 5 }).expect(201);
    expect(res.headers.location).toBe(`/v1/charges/${res.body.charge_id}`);
    expect((await request(app).get(res.headers.location!).expect(200)).body).toEqual(res.body);
  });

  test('is at the path called when the request came without the base path', async () => {
    const app = await appOf();
    const res = await request(app).post('/charges').send({ amount: 5 }).expect(201);
    expect(res.headers.location).toBe(`/charges/${res.body.charge_id}`);
  });
});
