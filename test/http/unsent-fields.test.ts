// A created record does not invent the optional fields the client chose not to send: what the response requires,
// and what only the server sets (the id, readOnly times, fields the request cannot carry), is still made.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { newMock } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';
import { createContractValidator } from '../support/contract-validator.js';

/** Contacts: `POST /contacts` takes a name and optional details; `required` is what a Contact must have. */
function contract(required: string): Promise<string> {
  return inlineContract(`openapi: 3.0.3
info: { title: contacts, version: '1' }
paths:
  /contacts:
    get:
      operationId: listContacts
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Contact' } } } }
    post:
      operationId: createContact
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/ContactCreate' } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Contact' } } } }
  /contacts/{id}:
    get:
      operationId: getContact
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Contact' } } } }
        '404': { description: missing }
components:
  schemas:
    ContactCreate:
      type: object
      additionalProperties: false
      required: [name]
      properties:
        name: { type: string, maxLength: 40 }
        email: { type: string, format: email }
        phone: { type: string, nullable: true }
        kind: { type: string, enum: [person, company] }
        tags: { type: array, items: { type: string } }
    Contact:
      type: object
      additionalProperties: false
      required: [${required}]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string, maxLength: 40 }
        email: { type: string, format: email }
        phone: { type: string, nullable: true }
        kind: { type: string, enum: [person, company] }
        tags: { type: array, items: { type: string } }
        score: { type: integer, minimum: 0, maximum: 100 }
        created_at: { type: string, format: date-time, readOnly: true }
`);
}

const NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald'];

async function createEach(file: string) {
  const mock = await newMock({ contract: file, seed: 3 });
  const created: Record<string, unknown>[] = [];
  for (const name of NAMES) created.push((await request(mock.app).post('/contacts').send({ name }).expect(201)).body);
  return { mock, created };
}

describe('a create without an optional field answers without it', () => {
  test('no email, phone, kind or tags is invented, and a read and the list agree', async () => {
    const file = await contract('id, name');
    const { mock, created } = await createEach(file);
    for (const contact of created) {
      for (const unsent of ['email', 'phone', 'kind', 'tags']) expect(contact).not.toHaveProperty(unsent);
      expect(
        (
          await request(mock.app)
            .get(`/contacts/${contact.id as string}`)
            .expect(200)
        ).body,
      ).toEqual(contact);
    }
    const list = (await request(mock.app).get('/contacts').expect(200)).body as Record<string, unknown>[];
    for (const contact of created) expect(list).toContainEqual(contact);
  });

  test('what only the server sets is still made: the id, a readOnly time, a field the request cannot carry', async () => {
    const { created } = await createEach(await contract('id, name'));
    for (const contact of created) expect(contact).toMatchObject({ id: expect.any(String), name: expect.any(String) });
    // Optional and the server's: made as before, as the generator draws them (most of the time).
    expect(created.filter((c) => typeof c.created_at === 'string').length).toBeGreaterThan(0);
    expect(created.filter((c) => typeof c.score === 'number').length).toBeGreaterThan(0);
  });

  test('a field the response requires is still made, even when the client could have sent it', async () => {
    const file = await contract('id, name, email, kind, phone');
    const { created } = await createEach(file);
    const validator = createContractValidator(file);
    for (const contact of created) {
      expect(contact).toMatchObject({ email: expect.any(String), kind: 'person', phone: null });
      expect(validator.check('createContact', 201, 'application/json', contact)).toEqual([]);
    }
  });

  test('every answer fits the response schema, and what was sent is kept', async () => {
    const file = await contract('id, name');
    const mock = await newMock({ contract: file, seed: 3 });
    const validator = createContractValidator(file);
    const sent = { name: 'Ada', email: 'ada@example.com', tags: [] };
    const body = (await request(mock.app).post('/contacts').send(sent).expect(201)).body;
    expect(body).toMatchObject(sent);
    expect(body).not.toHaveProperty('phone');
    expect(validator.check('createContact', 201, 'application/json', body)).toEqual([]);
  });

  test('a record put in place with fields left out is completed the same way', async () => {
    const file = await contract('id, name');
    const mock = await newMock({ contract: file, seed: 3 });
    mock.setState({ '/contacts': [{ name: 'Ada' }] });
    const [contact] = (await request(mock.app).get('/contacts').expect(200)).body as Record<string, unknown>[];
    expect(contact).toMatchObject({ id: expect.any(String), name: 'Ada' });
    for (const unsent of ['email', 'phone', 'kind', 'tags']) expect(contact).not.toHaveProperty(unsent);
  });
});
