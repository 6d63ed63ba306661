// A DELETE that documents a body answers about the record it removed: the record itself where its schema is
// the record's, else (Stripe's `{ id, deleted: true }`) the removed record's id, never one drawn at random.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const CHARGE = `{ type: object, required: [id, amount], properties: { id: { type: string, readOnly: true }, amount: { type: integer } } }`;
const DELETED = `{ type: object, required: [id, object, deleted], properties: { id: { type: string }, object: { type: string, enum: [customer] }, deleted: { type: boolean } } }`;
const json = (schema: string) => `content: { application/json: { schema: ${schema} } }`;
const item = (name: string) => `[{ name: ${name}, in: path, required: true, schema: { type: string } }]`;

const CONTRACT = `
openapi: 3.0.3
info: { title: Deletes, version: '1' }
paths:
  /charges:
    get: { responses: { '200': { description: ok, ${json(`{ type: array, items: ${CHARGE} }`)} } } }
    post: { requestBody: { ${json(CHARGE)} }, responses: { '201': { description: made, ${json(CHARGE)} } } }
  /charges/{chargeId}:
    parameters: ${item('chargeId')}
    get: { responses: { '200': { description: ok, ${json(CHARGE)} }, '404': { description: none } } }
    delete: { responses: { '200': { description: removed, ${json(CHARGE)} }, '404': { description: none } } }
  /customers:
    get: { responses: { '200': { description: ok, ${json(`{ type: array, items: ${CHARGE} }`)} } } }
    post: { requestBody: { ${json(CHARGE)} }, responses: { '201': { description: made, ${json(CHARGE)} } } }
  /customers/{customerId}:
    parameters: ${item('customerId')}
    delete: { responses: { '200': { description: removed, ${json(DELETED)} }, '404': { description: none } } }
`;

const appOf = async () => createApp(await loadContract(await inlineContract(CONTRACT)), { errors: true }).app;

describe('a DELETE that answers a body', () => {
  test('answers the record it removed, where it documents the record', async () => {
    const app = await appOf();
    const charge = (await request(app).post('/charges').send({ amount: 2 }).expect(201)).body;
    const removed = await request(app).delete(`/charges/${charge.id}`).expect(200);
    expect(removed.body).toEqual(charge);
    await request(app).get(`/charges/${charge.id}`).expect(404);
  });

  test('names the removed record’s id in a deleted object, and says it is deleted', async () => {
    const app = await appOf();
    const customer = (await request(app).post('/customers').send({ amount: 5 }).expect(201)).body;
    const removed = await request(app).delete(`/customers/${customer.id}`).expect(200);
    expect(removed.body).toMatchObject({ id: customer.id, object: 'customer', deleted: true });
  });
});
