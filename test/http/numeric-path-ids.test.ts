// A path parameter is text, but the field it names may take a number: `/orders/7` reads the order whose `id` is 7,
// and the orders under `/customers/7` have `customer_id: 7`. A value the field does not take stays out (a drawn
// one stays), and a path whose parameter breaks the contract is refused, as before.
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import { newMock } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

const param = (name: string) => JSON.stringify({ name, in: 'path', required: true, schema: { type: 'integer' } });
const ok = (status: string, schema: string) =>
  `'${status}': { description: ok, content: { application/json: { schema: ${schema} } } }`;

const CONTRACT = `openapi: 3.0.3
info: { title: numeric path ids, version: '1' }
paths:
  /orders/{id}:
    get:
      operationId: getOrder
      parameters: [${param('id')}]
      responses:
        ${ok('200', "{ $ref: '#/components/schemas/Order' }")}
        '400': { description: a parameter that breaks the contract }
  /tickets/{id}:
    get:
      operationId: getTicket
      parameters: [${param('id')}]
      responses:
        ${ok('200', "{ $ref: '#/components/schemas/Ticket' }")}
  /customers/{customerId}/orders:
    parameters: [${param('customerId')}]
    get:
      operationId: listCustomerOrders
      responses:
        ${ok('200', "{ type: array, minItems: 1, items: { $ref: '#/components/schemas/Order' } }")}
        '400': { description: a parameter that breaks the contract }
    post:
      operationId: createCustomerOrder
      responses:
        ${ok('201', "{ $ref: '#/components/schemas/Order' }")}
components:
  schemas:
    Order:
      type: object
      required: [id, customer_id, total]
      properties:
        id: { type: integer, format: int64 }
        customer_id: { type: integer, format: int64 }
        total: { type: number }
    Ticket:
      type: object
      required: [id]
      properties:
        id: { type: integer, minimum: 10 }
`;

let contract: string;
beforeAll(async () => {
  contract = await inlineContract(CONTRACT);
});

describe.each([
  ['default', false],
  ['stateless', true],
])('%s: a numeric path parameter goes into an integer field as a number', (_, stateless) => {
  let mock: MockApp;
  beforeAll(async () => {
    mock = await newMock({ contract, seed: 3, stateless });
  });

  test('GET /orders/7 reads the order whose id is 7', async () => {
    const { body } = await request(mock.app).get('/orders/7').expect(200);
    expect(body.id).toBe(7);
    expect((await request(mock.app).get('/orders/-3').expect(200)).body.id).toBe(-3);
  });

  test('a parameter that is no integer breaks the contract: the documented 400 (else 422), as before', async () => {
    await request(mock.app).get('/orders/abc').expect(400);
    await request(mock.app).get('/orders/1.5').expect(400);
    await request(mock.app).get('/customers/abc/orders').expect(400);
    await request(mock.app).get('/tickets/abc').expect(422);
  });

  test('a value the field does not take (below its minimum) is not echoed: the drawn id stays', async () => {
    const { body } = await request(mock.app).get('/tickets/7').expect(200);
    expect(body.id).not.toBe(7);
    expect(body.id).toBeGreaterThanOrEqual(10);
    expect((await request(mock.app).get('/tickets/12').expect(200)).body.id).toBe(12);
  });

  test('the orders listed under /customers/7 have customer_id 7, and their own ids', async () => {
    const { body } = await request(mock.app).get('/customers/7/orders').expect(200);
    expect(body.length).toBeGreaterThan(0);
    for (const order of body) {
      expect(order.customer_id).toBe(7);
      expect(order.id).not.toBe(7);
    }
  });

  test('an order created under /customers/7 has customer_id 7', async () => {
    const { body } = await request(mock.app).post('/customers/7/orders').expect(201);
    expect(body.customer_id).toBe(7);
  });
});

describe('default: the state under a numeric parent', () => {
  test('a created order is listed with customer_id 7', async () => {
    const mock = await newMock({ contract, seed: 3 });
    const created = (await request(mock.app).post('/customers/7/orders').expect(201)).body;
    const { body } = await request(mock.app).get('/customers/7/orders').expect(200);
    expect(body).toContainEqual(created);
    expect(body.every((order: { customer_id: unknown }) => order.customer_id === 7)).toBe(true);
  });

  test('a fixture without its parent’s reference is given the number', async () => {
    const mock = await newMock({ contract, state: { '/customers/7/orders': [{ id: 1, total: 2.5 }] } });
    const { body } = await request(mock.app).get('/customers/7/orders').expect(200);
    expect(body).toContainEqual({ id: 1, customer_id: 7, total: 2.5 });
  });

  test('a fixture whose reference names another parent is refused', async () => {
    await expect(
      newMock({ contract, state: { '/customers/7/orders': [{ id: 1, customer_id: 8, total: 2.5 }] } }),
    ).rejects.toThrow(/customer_id "8", but its collection path says "7"/);
    await newMock({ contract, state: { '/customers/7/orders': [{ id: 1, customer_id: 7, total: 2.5 }] } });
  });

  // Prism reads a request's path parameters with type coercion: /customers/07/orders gets through, so records
  // kept under it can be read, and the state API takes them as a request would.
  test('fixtures under /customers/07/orders are taken, as a request to that path is', async () => {
    const mock = await newMock({ contract, state: { '/customers/07/orders': [{ id: 1, total: 2.5 }] } });
    await request(mock.app).get('/customers/07/orders').expect(200);
    await expect(newMock({ contract, state: { '/customers/seven/orders': [] } })).rejects.toThrow(
      /path parameter customerId "seven"/,
    );
  });

  test('a record put at /__mock/state/customers/7/orders/07 is refused, not kept under id 7', async () => {
    const mock = await newMock({ contract });
    await request(mock.app).put('/__mock/state/customers/7/orders/07').send({ total: 1 }).expect(422);
    await request(mock.app).put('/__mock/state/customers/7/orders/8').send({ total: 1 }).expect(201);
    const { body } = await request(mock.app).get('/__mock/state/customers/7/orders/8').expect(200);
    expect(body).toMatchObject({ id: 8, customer_id: 7, total: 1 });
  });
});
