import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import { createContractValidator, type ContractValidator } from '../support/contract-validator.js';
import { newMock } from '../support/harness.js';

/**
 * Shapes of real contracts the default (stateful) mode must answer as faithfully as stateless mode:
 * `POST` on an item path as an update (OpenAI, Stripe), a response shape that differs from the request's,
 * reads with no 404 documented, records declared with allOf, lists whose items are not the created record.
 */
const CONTRACT = `
openapi: 3.0.3
info: { title: shapes, version: '1' }
paths:
  /roles/{role_id}:
    parameters: [{ name: role_id, in: path, required: true, schema: { type: string } }]
    get:
      operationId: getRole
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Role' } } } }
    post:
      operationId: updateRole
      requestBody:
        content: { application/json: { schema: { type: object, properties: { permissions: { type: array, items: { type: string } } } } } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Role' } } } }
  /things:
    get:
      operationId: listThings
      parameters:
        - { name: limit, in: query, schema: { type: integer } }
        - { name: after, in: query, schema: { type: string } }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [object, data]
                properties:
                  object: { type: string, enum: [list] }
                  data: { type: array, items: { $ref: '#/components/schemas/Thing' } }
                  has_more: { type: boolean }
                  first_id: { type: string, nullable: true }
                  last_id: { type: string, nullable: true }
    post:
      operationId: createThing
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties:
                name: { type: string }
                tags: { type: array, items: { type: string } }
                owner: { type: string }
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
  /things/{thing_id}:
    parameters: [{ name: thing_id, in: path, required: true, schema: { type: string } }]
    get:
      operationId: getThing
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
    post:
      operationId: updateThing
      requestBody:
        content: { application/json: { schema: { type: object, properties: { name: { type: string } } } } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
    delete:
      operationId: deleteThing
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { type: object, required: [id, deleted], properties: { id: { type: string }, deleted: { type: boolean } } }
  /widgets:
    get:
      operationId: listWidgets
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Widget' } } } } }
    post:
      operationId: createWidget
      requestBody:
        content: { application/json: { schema: { type: object, properties: { label: { type: string } } } } }
      responses:
        '201': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Widget' } } } }
  /widgets/{widget_id}:
    parameters: [{ name: widget_id, in: path, required: true, schema: { type: string } }]
    get:
      operationId: getWidget
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Widget' } } } }
        '404': { description: missing, content: { application/problem+json: { schema: { type: object } } } }
  /notes:
    get:
      operationId: listNotes
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: array
                items: { type: object, required: [id, score], properties: { id: { type: string }, score: { type: integer } } }
    post:
      operationId: createNote
      requestBody:
        content: { application/json: { schema: { type: object, properties: { text: { type: string } } } } }
      responses:
        '201':
          description: ok
          content: { application/json: { schema: { type: object, required: [id, text], properties: { id: { type: string }, text: { type: string } } } } }
components:
  schemas:
    Role:
      type: object
      required: [id, permissions]
      properties:
        id: { type: string }
        permissions: { type: array, items: { type: string, enum: [read, write] } }
    Thing:
      type: object
      required: [id, name, tags]
      properties:
        id: { type: string, pattern: '^thg_[a-z]{6}$' }
        name: { type: string }
        tags: { type: array, items: { type: object, required: [label], properties: { label: { type: string } } } }
        owner: { type: object, nullable: true, properties: { name: { type: string } } }
    Base:
      type: object
      required: [label]
      properties:
        label: { type: string }
    Widget:
      allOf:
        - $ref: '#/components/schemas/Base'
        - type: object
          required: [widget_id]
          properties: { widget_id: { type: string, pattern: '^wdg_[0-9]{4}$' } }
`;

let file: string;
let contract: ContractValidator;
beforeAll(async () => {
  file = join(await mkdtemp(join(tmpdir(), 'shapes-')), 'shapes.yaml');
  await writeFile(file, CONTRACT);
  contract = createContractValidator(file);
});

describe('stateful answers follow the contract of any shape', () => {
  test('a POST on an item path is an update: the item’s GET answers the item, not a list of records', async () => {
    const mock = await newMock({ contract: file, seed: 3 });
    const updated = await request(mock.app)
      .post('/roles/r1')
      .send({ permissions: ['read'] })
      .expect(200);
    expect(contract.check('updateRole', 200, updated.headers['content-type'], updated.body)).toEqual([]);
    const res = await request(mock.app).get('/roles/r1').expect(200);
    expect(contract.check('getRole', 200, res.headers['content-type'], res.body)).toEqual([]);
    expect(
      Array.isArray(res.body.permissions) && res.body.permissions.every((p: unknown) => typeof p === 'string'),
    ).toBe(true);
  });

  test('a created record keeps a sent field whose response declaration differs only when the value fits it', async () => {
    const mock = await newMock({ contract: file, seed: 3 });
    const res = await request(mock.app)
      .post('/things')
      .send({ name: 'Lamp', tags: ['blue'], owner: 'ann' })
      .expect(200);
    expect(contract.check('createThing', 200, res.headers['content-type'], res.body)).toEqual([]);
    expect(res.body.name).toBe('Lamp');
    expect(res.body.tags).not.toEqual(['blue']);
    expect(res.body.owner).not.toBe('ann');
    // A value that fits the response's declaration is kept though the declarations differ.
    const kept = await request(mock.app).post('/things').send({ name: 'Desk', tags: [] }).expect(200);
    expect(kept.body.tags).toEqual([]);
  });

  test('a created record keeps the sent fields that the response declares alike', async () => {
    const mock = await newMock({ contract: file, seed: 3 });
    const res = await request(mock.app).post('/things').send({ name: 'Lamp', tags: [] }).expect(200);
    expect(res.body.name).toBe('Lamp');
  });

  test('a record created in a collection is read back by its id', async () => {
    const mock = await newMock({ contract: file, seed: 3 });
    const created = (await request(mock.app).post('/things').send({ name: 'Lamp' }).expect(200)).body;
    expect((await request(mock.app).get(`/things/${created.id}`).expect(200)).body).toEqual(created);
  });

  test('a read of an unknown id answers a generated success where the operation documents no 404', async () => {
    const mock = await newMock({ contract: file, seed: 3 });
    const res = await request(mock.app).get('/things/thg_nobody').expect(200);
    expect(contract.check('getThing', 200, res.headers['content-type'], res.body)).toEqual([]);
  });

  test('a delete of an unknown id answers a documented success where the operation documents no 404', async () => {
    const mock = await newMock({ contract: file, seed: 3 });
    const res = await request(mock.app).delete('/things/thg_nobody').expect(200);
    expect(contract.check('deleteThing', 200, res.headers['content-type'], res.body)).toEqual([]);
  });

  test('a read of an unknown id answers 404 where the operation documents one', async () => {
    const mock = await newMock({ contract: file, seed: 3 });
    await request(mock.app).get('/widgets/wdg_0000').expect(404);
  });

  test('a record declared with allOf keeps state under its own id field', async () => {
    const mock = await newMock({ contract: file, seed: 3 });
    const created = (await request(mock.app).post('/widgets').send({ label: 'w' }).expect(201)).body;
    expect(created).toMatchObject({ label: 'w', widget_id: expect.stringMatching(/^wdg_[0-9]{4}$/) });
    expect((await request(mock.app).get(`/widgets/${created.widget_id}`).expect(200)).body).toEqual(created);
  });

  test('a list pages after the record whose id is given as its cursor (`after=obj_123`)', async () => {
    const mock = await newMock({ contract: file, seed: 3 });
    const newest = (await request(mock.app).get('/things?limit=2').expect(200)).body.data;
    const next = (await request(mock.app).get(`/things?limit=2&after=${newest[1].id}`).expect(200)).body.data;
    const all = (await request(mock.app).get('/things').expect(200)).body.data;
    expect(next).toEqual(all.slice(2, 4));
  });

  test('a list’s has_more, first_id and last_id describe the page it answers', async () => {
    const mock = await newMock({ contract: file, seed: 3 });
    const page = (await request(mock.app).get('/things?limit=2').expect(200)).body;
    const last = (await request(mock.app).get(`/things?limit=2&after=${page.data[1].id}`).expect(200)).body;
    expect([page.has_more, page.first_id, page.last_id]).toEqual([true, page.data[0].id, page.data[1].id]);
    expect([last.has_more, last.first_id, last.last_id]).toEqual([false, last.data[0].id, last.data[0].id]);
  });

  test('a cursor that names nothing answers the first page where the operation documents no 400', async () => {
    const mock = await newMock({ contract: file, seed: 3 });
    const first = (await request(mock.app).get('/things').expect(200)).body;
    expect((await request(mock.app).get('/things?after=thg_nobody').expect(200)).body).toEqual(first);
  });

  test('a list whose items are not the created record is answered from the contract, not from state', async () => {
    const mock = await newMock({ contract: file, seed: 3 });
    await request(mock.app).post('/notes').send({ text: 'hi' }).expect(201);
    const res = await request(mock.app).get('/notes').expect(200);
    expect(contract.check('listNotes', 200, res.headers['content-type'], res.body)).toEqual([]);
  });
});
