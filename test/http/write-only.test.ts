// A write-only field (`password`) is sent in requests and never shown in answers (OpenAPI's writeOnly): not in
// a created record, a listed or read one, a placeholder, nor a body drawn without state, as Prism draws them.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const CONTRACT = `
openapi: 3.0.3
info: { title: Accounts, version: '1' }
paths:
  /users:
    get:
      operationId: listUsers
      responses:
        '200':
          description: The users
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/User' } } } }
    post:
      operationId: createUser
      requestBody:
        content: { application/json: { schema: { $ref: '#/components/schemas/User' } } }
      responses:
        '201':
          description: Created
          content: { application/json: { schema: { $ref: '#/components/schemas/User' } } }
  /users/{userId}:
    get:
      operationId: getUser
      parameters: [{ name: userId, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: A user
          content: { application/json: { schema: { $ref: '#/components/schemas/User' } } }
        '404': { description: No such user }
components:
  schemas:
    User:
      type: object
      required: [id, name, password]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string }
        password: { type: string, writeOnly: true, minLength: 8 }
`;

const appOf = async (options: { stateless?: boolean; dynamic?: boolean } = {}) =>
  createApp(await loadContract(await inlineContract(CONTRACT)), options).app;

describe('a write-only field', () => {
  test('is not in the created record, nor when it is listed and read', async () => {
    const app = await appOf();
    const created = await request(app).post('/users').send({ name: 'Ada', password: 'correct horse' });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('Ada');
    expect(created.body).not.toHaveProperty('password');
    const read = await request(app).get(`/users/${created.body.id}`).expect(200);
    expect(read.body).toEqual(created.body);
    const listed = await request(app).get('/users').expect(200);
    expect(listed.body.some((user: object) => 'password' in user)).toBe(false);
  });

  test('is not drawn into placeholders', async () => {
    const listed = await request(await appOf())
      .get('/users')
      .expect(200);
    expect(listed.body.length).toBeGreaterThan(0);
    expect(listed.body.some((user: object) => 'password' in user)).toBe(false);
  });

  test.each([true, false])('is not drawn into a body without state (dynamic %s)', async (dynamic) => {
    const res = await request(await appOf({ stateless: true, dynamic }))
      .get('/users/u1')
      .expect(200);
    expect(res.body).toHaveProperty('name');
    expect(res.body).not.toHaveProperty('password');
  });

  test('is still required of the request', async () => {
    const refused = await request(await appOf())
      .post('/users')
      .send({ name: 'Ada' });
    expect(refused.status).toBe(422);
  });

  // Prism's strip does not look inside allOf: the schema is merged first.
  test('inside an allOf is not drawn either', async () => {
    const composed = CONTRACT.replace(
      /    User:\n[\s\S]*$/,
      [
        '    User:',
        '      allOf:',
        '        - { type: object, required: [id], properties: { id: { type: string, readOnly: true } } }',
        '        - { type: object, required: [password], properties: { password: { type: string, writeOnly: true } } }',
        '',
      ].join('\n'),
    );
    const { app } = createApp(await loadContract(await inlineContract(composed)), { stateless: true });
    const res = await request(app).get('/users/u1').expect(200);
    expect(res.body).toHaveProperty('id');
    expect(res.body).not.toHaveProperty('password');
  });
});

describe('a write-only field inside what a client sends', () => {
  const ACCOUNT = `
openapi: 3.0.3
info: { title: Accounts, version: '1' }
paths:
  /accounts:
    get: { responses: { '200': { description: ok, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Account' } } } } } } }
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Account' } } } }
      responses: { '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Account' } } } } }
  /accounts/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    get: { responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Account' } } } }, '404': { description: none } } }
    patch:
      requestBody:
        content:
          # The patch list first: what a merge patch is read by is still the object schema after it.
          application/json-patch+json: { schema: { type: array, items: { type: object, required: [op, path], properties: { op: { type: string }, path: { type: string }, value: {} } } } }
          application/merge-patch+json: { schema: { $ref: '#/components/schemas/AccountPatch' } }
      responses: { '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Account' } } } }, '404': { description: none } }
components:
  schemas:
    Login:
      type: object
      properties: { user: { type: string }, password: { type: string, writeOnly: true } }
    Account:
      type: object
      required: [id, name]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string }
        owner: { $ref: '#/components/schemas/Login' }
        logins: { type: array, items: { $ref: '#/components/schemas/Login' } }
    AccountPatch:
      type: object
      properties: { name: { type: string }, owner: { $ref: '#/components/schemas/Login' } }
`;
  const app = async () => createApp(await loadContract(await inlineContract(ACCOUNT))).app;

  test('is kept out of the record at any depth, in an object and in an array’s items', async () => {
    const mock = await app();
    const sent = { name: 'Ada', owner: { user: 'ada', password: 'p1' }, logins: [{ user: 'a', password: 'p2' }] };
    const created = (await request(mock).post('/accounts').send(sent).expect(201)).body;
    expect(created).toMatchObject({ name: 'Ada', owner: { user: 'ada' }, logins: [{ user: 'a' }] });
    expect(JSON.stringify(created)).not.toMatch(/password/);
    const read = (await request(mock).get(`/accounts/${created.id}`).expect(200)).body;
    expect(read).toEqual(created);
  });

  test('is kept out of what an update merges in', async () => {
    const mock = await app();
    const created = (await request(mock).post('/accounts').send({ name: 'Ada' }).expect(201)).body;
    const patched = await request(mock)
      .patch(`/accounts/${created.id}`)
      .set('content-type', 'application/merge-patch+json')
      .send(JSON.stringify({ owner: { user: 'ada', password: 'p3' } }))
      .expect(200);
    expect(patched.body.owner).toEqual({ user: 'ada' });
  });

  test('is kept out of what a JSON Patch adds, at any depth', async () => {
    const mock = await app();
    const created = (await request(mock).post('/accounts').send({ name: 'Ada' }).expect(201)).body;
    const ops = [
      { op: 'add', path: '/owner', value: { user: 'ada', password: 'p4' } },
      { op: 'add', path: '/logins', value: [{ user: 'a', password: 'p5' }] },
      { op: 'add', path: '/logins/-', value: { user: 'b', password: 'p6' } },
    ];
    const patched = await request(mock)
      .patch(`/accounts/${created.id}`)
      .set('content-type', 'application/json-patch+json')
      .send(JSON.stringify(ops))
      .expect(200);
    expect(patched.body).toMatchObject({ owner: { user: 'ada' }, logins: [{ user: 'a' }, { user: 'b' }] });
    expect(JSON.stringify(patched.body)).not.toMatch(/password/);
    const read = (await request(mock).get(`/accounts/${created.id}`).expect(200)).body;
    expect(JSON.stringify(read)).not.toMatch(/password/);
  });

  test('is kept out when a JSON Patch sets it alone, inside a field', async () => {
    const mock = await app();
    const sent = { name: 'Ada', owner: { user: 'ada' } };
    const created = (await request(mock).post('/accounts').send(sent).expect(201)).body;
    const patched = await request(mock)
      .patch(`/accounts/${created.id}`)
      .set('content-type', 'application/json-patch+json')
      .send(JSON.stringify([{ op: 'add', path: '/owner/password', value: 'p7' }]))
      .expect(200);
    expect(patched.body.owner).toEqual({ user: 'ada' });
  });
});
