// PUT and PATCH on an item of an inferred collection change the stored record: a later read and the list show
// the change. PUT replaces what its request declares, PATCH merges (RFC 7396); the id, the path's owners and
// read-only fields stay the server's; a change that leaves the record outside its schema is refused.
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const NOTES = fileURLToPath(new URL('../fixtures/notes.openapi.yaml', import.meta.url));

const appOf = async (options: { stateless?: boolean } = {}) => createApp(await loadContract(NOTES), options).app;

type App = Awaited<ReturnType<typeof appOf>>;

async function created(app: App, body: object): Promise<Record<string, unknown>> {
  const res = await request(app).post('/boards/b1/notes').send(body).expect(201);
  return res.body as Record<string, unknown>;
}

const mergePatch = (app: App, path: string, body: object) =>
  request(app).patch(path).set('content-type', 'application/merge-patch+json').send(JSON.stringify(body));

describe('PATCH on a stored record', () => {
  test('merges what it sends, nested objects too, and the read and the list show it', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries', text: 'milk', meta: { color: 'red', pinned: true } });
    const path = `/boards/b1/notes/${note.id}`;
    const res = await mergePatch(app, path, { text: 'oat milk', meta: { pinned: false } }).expect(200);
    expect(res.body).toMatchObject({ id: note.id, title: 'Groceries', text: 'oat milk' });
    expect(res.body.meta).toEqual({ color: 'red', pinned: false });
    expect((await request(app).get(path).expect(200)).body).toEqual(res.body);
    const listed = await request(app).get('/boards/b1/notes').expect(200);
    expect(listed.body.find((n: { id: string }) => n.id === note.id)).toEqual(res.body);
  });

  test('merges objects inside objects', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries', meta: { color: 'red', layout: { x: 1, y: 2 } } });
    const res = await mergePatch(app, `/boards/b1/notes/${note.id}`, { meta: { layout: { x: 5 } } }).expect(200);
    expect(res.body.meta).toEqual({ color: 'red', layout: { x: 5, y: 2 } });
  });

  test('with application/json merges the same way', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries', tags: ['home'] });
    const res = await request(app)
      .patch(`/boards/b1/notes/${note.id}`)
      .send({ tags: ['home', 'weekly'] })
      .expect(200);
    expect(res.body).toMatchObject({ title: 'Groceries', tags: ['home', 'weekly'] });
  });

  test('removes an optional field it sends as null', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries', text: 'milk' });
    const res = await mergePatch(app, `/boards/b1/notes/${note.id}`, { text: null }).expect(200);
    expect(res.body).not.toHaveProperty('text');
    expect(res.body.title).toBe('Groceries');
  });

  test('with application/json sets a field that may be null to null; a merge patch removes it', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries' });
    const path = `/boards/b1/notes/${note.id}`;
    const plain = await request(app).patch(path).send({ due: '2026-12-24' }).expect(200);
    expect(plain.body.due).toBe('2026-12-24');
    const nulled = await request(app).patch(path).send({ due: null }).expect(200);
    expect(nulled.body).toHaveProperty('due', null);
    const removed = await mergePatch(app, path, { due: null }).expect(200);
    expect(removed.body).not.toHaveProperty('due');
  });

  test('removes a nested field it sends as null', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries', meta: { color: 'red', pinned: true } });
    const res = await mergePatch(app, `/boards/b1/notes/${note.id}`, { meta: { color: null } }).expect(200);
    expect(res.body.meta).toEqual({ pinned: true });
  });

  test('leaves the id, the created time and the owner from the path as they were', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries' });
    const res = await mergePatch(app, `/boards/b1/notes/${note.id}`, { title: 'Chores', board_id: 'b2' }).expect(200);
    expect(res.body).toMatchObject({ id: note.id, board_id: 'b1', title: 'Chores', created_at: note.created_at });
  });

  test('sets the record’s update time to the time of the change, and leaves its creation time', async () => {
    const app = await appOf();
    const old = '2020-01-01T00:00:00Z';
    const note = { id: 'n1', board_id: 'b1', title: 'Groceries', created_at: old, updated_at: old };
    await request(app)
      .put('/__mock/state')
      .send({ collections: { '/boards/b1/notes': [note] } })
      .expect(200);
    const before = Date.now();
    const res = await mergePatch(app, '/boards/b1/notes/n1', { title: 'Chores' }).expect(200);
    expect(Date.parse(res.body.updated_at as string)).toBeGreaterThanOrEqual(before);
    expect(res.body.created_at).toBe(old);
  });

  test('does not keep a write-only field', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries' });
    const path = `/boards/b1/notes/${note.id}`;
    const res = await mergePatch(app, path, { secret: 'hunter2hunter2' }).expect(200);
    expect(res.body).not.toHaveProperty('secret');
    expect((await request(app).get(path).expect(200)).body).not.toHaveProperty('secret');
  });

  test('with a value the record refuses is refused with 422, and nothing of it is applied', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries', text: 'milk' });
    const path = `/boards/b1/notes/${note.id}`;
    // The patch schema takes an empty title; the note's does not (minLength 1).
    const res = await mergePatch(app, path, { title: '', text: 'oat milk' }).expect(422);
    expect(res.body.detail).toMatch(/\/title: must NOT have fewer than 1 characters/);
    expect((await request(app).get(path).expect(200)).body).toEqual(note);
  });

  test('that would leave a required field out is refused with 422, and the record is unchanged', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries' });
    const path = `/boards/b1/notes/${note.id}`;
    const res = await mergePatch(app, path, { title: null })
      .expect(422)
      .expect('content-type', /^application\/problem\+json/);
    expect(res.body.detail).toBe(
      `updateNote: the change would leave note ${note.id} outside its schema, so nothing was changed: must have required property 'title'.`,
    );
    expect((await request(app).get(path).expect(200)).body).toEqual(note);
  });

  test('of a record that is not there answers 404', async () => {
    const app = await appOf();
    const res = await mergePatch(app, '/boards/b1/notes/nope', { title: 'Chores' })
      .expect(404)
      .expect('content-type', /^application\/problem\+json/);
    expect(res.body.detail).toMatch(/nope/);
  });

  test('of a deleted record answers 404', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries' });
    await request(app).delete(`/boards/b1/notes/${note.id}`).expect(204);
    await mergePatch(app, `/boards/b1/notes/${note.id}`, { title: 'Chores' }).expect(404);
  });

  test('of a placeholder keeps it in its place in the list', async () => {
    const app = await appOf();
    const before = (await request(app).get('/boards/b1/notes').expect(200)).body as { id: string }[];
    expect(before.length).toBeGreaterThan(1);
    const res = await mergePatch(app, `/boards/b1/notes/${before[0]!.id}`, { title: 'Changed' }).expect(200);
    const after = (await request(app).get('/boards/b1/notes').expect(200)).body as { id: string }[];
    expect(after.map((n) => n.id)).toEqual(before.map((n) => n.id));
    expect(after[0]).toEqual(res.body);
  });

  test('without state (--stateless) is answered from the contract: an id never created is no 404', async () => {
    const stateless = await appOf({ stateless: true });
    const res = await mergePatch(stateless, '/boards/b1/notes/n1', { title: 'Chores' }).expect(200);
    expect(typeof res.body.id).toBe('string');
    // The same request goes through the state with it, which has no note n1.
    await mergePatch(await appOf(), '/boards/b1/notes/n1', { title: 'Chores' }).expect(404);
  });
});

describe('PUT on a stored record', () => {
  test('replaces what its request declares: a field it leaves out is gone', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries', text: 'milk', tags: ['home'] });
    const path = `/boards/b1/notes/${note.id}`;
    await request(app)
      .put(path)
      .send({ title: 'Chores', meta: { color: 'blue' } })
      .expect(204);
    const read = (await request(app).get(path).expect(200)).body;
    expect(read).toMatchObject({ id: note.id, board_id: 'b1', title: 'Chores', meta: { color: 'blue' } });
    expect(read).not.toHaveProperty('text');
    expect(read).not.toHaveProperty('tags');
    expect(read.created_at).toBe(note.created_at);
  });

  test('gives a field it declares with a default and leaves out that default, as a create does', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries', visibility: 'public' });
    const path = `/boards/b1/notes/${note.id}`;
    await request(app).put(path).send({ title: 'Chores' }).expect(204);
    expect((await request(app).get(path).expect(200)).body.visibility).toBe('private');
  });

  test('keeps the fields its request does not declare', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries' });
    const path = `/boards/b1/notes/${note.id}`;
    await mergePatch(app, path, { due: '2026-12-24' }).expect(200);
    await request(app).put(path).send({ title: 'Chores' }).expect(204);
    expect((await request(app).get(path).expect(200)).body).toMatchObject({ title: 'Chores', due: '2026-12-24' });
  });

  test('of a record that is not there answers 404 and creates nothing', async () => {
    const app = await appOf();
    await request(app).put('/boards/b1/notes/nope').send({ title: 'Chores' }).expect(404);
    await request(app).get('/boards/b1/notes/nope').expect(404);
  });

  test('is refused when its body breaks the contract, and the record is unchanged', async () => {
    const app = await appOf();
    const note = await created(app, { title: 'Groceries' });
    const path = `/boards/b1/notes/${note.id}`;
    await request(app).put(path).send({ text: 'no title' }).expect(422);
    expect((await request(app).get(path).expect(200)).body).toEqual(note);
  });
});

describe('PATCH on an OpenAPI 3.1 record', () => {
  const CONTRACT_31 = `
openapi: 3.1.0
info: { title: Items, version: '1' }
paths:
  /items:
    get:
      responses:
        '200':
          description: The items
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Item' } } } }
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } } }
      responses:
        '201':
          description: Created
          content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } }
  /items/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
    get:
      responses:
        '200':
          description: An item
          content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } }
        '404': { description: No such item }
    patch:
      requestBody: { content: { application/json: { schema: { type: object } } } }
      responses:
        '200':
          description: Updated
          content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } }
        '404': { description: No such item }
    put:
      requestBody:
        content:
          application/json:
            schema: { type: object, properties: { name: { type: string }, note: { type: [string, 'null'] } } }
      responses:
        '200':
          description: Replaced
          content: { application/json: { schema: { $ref: '#/components/schemas/Item' } } }
        '404': { description: No such item }
components:
  schemas:
    Item:
      type: object
      required: [id, name, note]
      properties:
        id: { type: integer, readOnly: true }
        name: { type: string }
        note: { anyOf: [{ type: string }, { type: 'null' }] }
        created: { type: string, format: date-time, readOnly: true }
`;

  test('with application/json sets a field whose schema takes null (anyOf with null) to null', async () => {
    const app = createApp(await loadContract(await inlineContract(CONTRACT_31))).app;
    const item = await request(app).post('/items').send({ name: 'a', note: 'x' }).expect(201);
    const res = await request(app).patch(`/items/${item.body.id}`).send({ note: null }).expect(200);
    expect(res.body).toMatchObject({ id: item.body.id, name: 'a', note: null });
  });

  test('leaves a read-only field sent as it was', async () => {
    const app = createApp(await loadContract(await inlineContract(CONTRACT_31))).app;
    const item = await request(app).post('/items').send({ name: 'a', note: 'x' }).expect(201);
    const res = await request(app)
      .patch(`/items/${item.body.id}`)
      .send({ name: 'b', created: '2000-01-01T00:00:00Z' })
      .expect(200);
    expect(res.body).toMatchObject({ name: 'b', created: item.body.created });
  });

  test('a PUT that leaves out a field the record requires keeps its value', async () => {
    const app = createApp(await loadContract(await inlineContract(CONTRACT_31))).app;
    const item = await request(app).post('/items').send({ name: 'a', note: 'x' }).expect(201);
    const res = await request(app).put(`/items/${item.body.id}`).send({ name: 'b' }).expect(200);
    expect(res.body).toMatchObject({ name: 'b', note: 'x' });
  });
});
