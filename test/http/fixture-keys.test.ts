// Records given as fixtures, through PUT /__mock/state or the admin record endpoints are kept as the contract's own
// requests find them: under a path whose values are written as a request's are (`ann@example.com`, `café`), and
// without the write-only fields a create would not keep either.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract, type StoreSnapshot } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const NOTE = `{ $ref: '#/components/schemas/Note' }`;
const json = (schema: string) => `{ application/json: { schema: ${schema} } }`;
const CONTRACT = `
openapi: 3.0.3
info: { title: Notes, version: '1' }
paths:
  /boards/{board}/notes:
    parameters: [{ name: board, in: path, required: true, schema: { type: string } }]
    get: { responses: { '200': { description: ok, content: ${json(`{ type: array, items: ${NOTE} }`)} } } }
    post: { requestBody: { content: ${json(NOTE)} }, responses: { '201': { description: made, content: ${json(NOTE)} } } }
  /boards/{board}/notes/{noteId}:
    parameters:
      - { name: board, in: path, required: true, schema: { type: string } }
      - { name: noteId, in: path, required: true, schema: { type: string } }
    get: { responses: { '200': { description: ok, content: ${json(NOTE)} }, '404': { description: none } } }
components:
  schemas:
    Note:
      type: object
      required: [id, text]
      properties:
        id: { type: string }
        text: { type: string }
        secret: { type: string, writeOnly: true }
        author: { type: object, properties: { name: { type: string }, pin: { type: string, writeOnly: true } } }
`;

const appOf = async (state?: StoreSnapshot) =>
  createApp(await loadContract(await inlineContract(CONTRACT)), state ? { state } : {}).app;
const note = (id: string) => ({ id, text: `note ${id}` });

describe('a collection path given as a fixture', () => {
  test.each([
    ['an @ in a path value', '/boards/ann@example.com/notes', '/boards/ann@example.com/notes/n1'],
    ['a letter past ASCII', '/boards/café/notes', '/boards/caf%C3%A9/notes/n1'],
    ['a space written %20', '/boards/my%20board/notes', '/boards/my%20board/notes/n1'],
  ])('with %s is read back by the contract’s requests', async (_, key, read) => {
    const app = await appOf({ [key]: [note('n1')] });
    expect((await request(app).get(read).expect(200)).body).toEqual(note('n1'));
  });

  test('is read back when PUT /__mock/state gives it', async () => {
    const app = await appOf();
    await request(app)
      .put('/__mock/state')
      .send({ '/boards/bob@example.com/notes': [note('n2')] })
      .expect(200);
    await request(app).get('/boards/bob@example.com/notes/n2').expect(200);
    await request(app).get('/__mock/state/boards/bob@example.com/notes/n2').expect(200);
  });

  test('named twice, two ways, is refused: one would hide the other', async () => {
    const app = await appOf();
    const res = await request(app)
      .put('/__mock/state')
      .send({ '/boards/a@b/notes': [note('n1')], '/boards/a%40b/notes': [note('n2')] })
      .expect(422);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.detail).toMatch(/"\/boards\/a%40b\/notes" names the same collection as "\/boards\/a@b\/notes"/);
  });
});

describe('a write-only field given as state', () => {
  test('in a fixture is not answered, at any depth', async () => {
    const given = { ...note('n1'), secret: 's', author: { name: 'Ann', pin: '1234' } };
    const app = await appOf({ '/boards/b1/notes': [given] });
    const read = (await request(app).get('/boards/b1/notes/n1').expect(200)).body;
    expect(read).toEqual({ ...note('n1'), author: { name: 'Ann' } });
  });

  test('written through the admin record endpoint is not answered', async () => {
    const app = await appOf();
    await request(app)
      .put('/__mock/state/boards/b1/notes/n3')
      .send({ text: 'hi', secret: 's3', author: { name: 'Bo', pin: '9' } })
      .expect(201);
    const read = (await request(app).get('/boards/b1/notes/n3').expect(200)).body;
    expect(read).toEqual({ id: 'n3', text: 'hi', author: { name: 'Bo' } });
  });
});
