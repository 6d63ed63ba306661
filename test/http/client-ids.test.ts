// A create whose request requires the id (a key, a slug, a username the client picks) keeps the id sent: the
// record reads back at the path the client chose. A second create of that id is refused as the contract says a
// conflict is (409, else 422 or 400), and the record first made is unchanged. An id the client may leave out is
// still the server's.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const contract = (idRequired: boolean, conflict: string) => `
openapi: 3.0.3
info: { title: Keys, version: '1' }
paths:
  /keys:
    get:
      responses: { '200': { description: ok, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Key' } } } } } }
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/KeyRequest' } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Key' } } } }
        ${conflict}
  /keys/{key}:
    parameters: [{ name: key, in: path, required: true, schema: { type: string } }]
    get:
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Key' } } } }
        '404': { description: none }
components:
  schemas:
    KeyRequest:
      type: object
      required: [${idRequired ? 'id, ' : ''}value]
      properties: { id: { type: string, pattern: '^[a-z-]+$' }, value: { type: string } }
    Key:
      type: object
      required: [id, value]
      properties: { id: { type: string }, value: { type: string } }
`;

const PROBLEM = `{ application/problem+json: { schema: { type: object, properties: { detail: { type: string } } } } }`;
const appOf = async (idRequired: boolean, conflict = `'409': { description: exists, content: ${PROBLEM} }`) =>
  createApp(await loadContract(await inlineContract(contract(idRequired, conflict)))).app;

describe('an id the create requires of the client', () => {
  test('is the record’s id, and the record reads back at it', async () => {
    const app = await appOf(true);
    const made = await request(app).post('/keys').send({ id: 'my-key', value: 'v' }).expect(201);
    expect(made.body).toEqual({ id: 'my-key', value: 'v' });
    expect((await request(app).get('/keys/my-key').expect(200)).body).toEqual(made.body);
  });

  test('taken already is refused with the documented 409, and the record is unchanged', async () => {
    const app = await appOf(true);
    await request(app).post('/keys').send({ id: 'my-key', value: 'first' }).expect(201);
    const refused = await request(app).post('/keys').send({ id: 'my-key', value: 'second' }).expect(409);
    expect(refused.body.detail).toMatch(/my-key exists already/);
    expect((await request(app).get('/keys/my-key').expect(200)).body.value).toBe('first');
  });

  test('taken already is refused with 422 where the create documents no 409', async () => {
    const app = await appOf(true, `'422': { description: refused }`);
    await request(app).post('/keys').send({ id: 'my-key', value: 'first' }).expect(201);
    await request(app).post('/keys').send({ id: 'my-key', value: 'second' }).expect(422);
  });
});

describe('an id the client chose that no record can have', () => {
  test('is refused with 422 naming the id, where the record’s id is narrower than the request’s', async () => {
    const narrow = contract(true, `'422': { description: refused, content: ${PROBLEM} }`).replace(
      'Key:\n      type: object\n      required: [id, value]\n      properties: { id: { type: string }',
      'Key:\n      type: object\n      required: [id, value]\n      properties: { id: { type: string, maxLength: 4 }',
    );
    expect(narrow).toContain('maxLength: 4');
    const app = createApp(await loadContract(await inlineContract(narrow))).app;
    const refused = await request(app).post('/keys').send({ id: 'toolong', value: 'v' }).expect(422);
    expect(refused.body.detail).toMatch(/the key id sent cannot be kept: it does not fit the record's id/);
    await request(app).get('/keys/toolong').expect(404);
  });

  test.each(['.', '..'])('is refused with 422 when no path can carry it (%s)', async (id) => {
    const loose = contract(true, `'422': { description: refused, content: ${PROBLEM} }`).replace(
      "pattern: '^[a-z-]+$'",
      () => "pattern: '^[a-z.-]+$'",
    );
    const app = createApp(await loadContract(await inlineContract(loose))).app;
    const refused = await request(app).post('/keys').send({ id, value: 'v' }).expect(422);
    expect(refused.body.detail).toMatch(/no path can carry this id/);
  });
});

describe('an id the client may leave out', () => {
  test('is made by the server, whatever was sent', async () => {
    const app = await appOf(false);
    const made = await request(app).post('/keys').send({ id: 'my-key', value: 'v' }).expect(201);
    expect(made.body.id).not.toBe('my-key');
  });
});
