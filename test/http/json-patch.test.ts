// A PATCH of `application/json-patch+json` (RFC 6902: a list of operations) changes the stored record as the
// operations say, by the same rules as a merge patch: the server's fields stay the server's, the time of the change
// is stamped, and a patch that cannot apply or would break the record is refused with nothing changed.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const TASK = `{ $ref: '#/components/schemas/Task' }`;
const json = (schema: string) => `{ application/json: { schema: ${schema} } }`;
const CONTRACT = `
openapi: 3.0.3
info: { title: Tasks, version: '1' }
paths:
  /tasks:
    get: { responses: { '200': { description: ok, content: ${json(`{ type: array, items: ${TASK} }`)} } } }
    post: { requestBody: { content: ${json(TASK)} }, responses: { '201': { description: made, content: ${json(TASK)} } } }
  /tasks/{taskId}:
    parameters: [{ name: taskId, in: path, required: true, schema: { type: string } }]
    get: { responses: { '200': { description: ok, content: ${json(TASK)} }, '404': { description: none } } }
    patch:
      requestBody:
        content:
          application/json-patch+json:
            schema:
              type: array
              items:
                type: object
                required: [op, path]
                properties:
                  op: { type: string, enum: [add, remove, replace, move, copy, test] }
                  path: { type: string }
                  from: { type: string }
                  value: {}
      responses:
        '200': { description: ok, content: ${json(TASK)} }
        '404': { description: none }
        '422': { description: refused, content: { application/problem+json: { schema: { type: object, properties: { detail: { type: string } } } } } }
components:
  schemas:
    Task:
      type: object
      required: [id, title, created_at]
      properties:
        id: { type: string, readOnly: true }
        title: { type: string, minLength: 1 }
        tags: { type: array, items: { type: string } }
        done: { type: boolean }
        created_at: { type: string, format: date-time, readOnly: true }
        updated_at: { type: string, format: date-time, readOnly: true }
`;

const appOf = async () => createApp(await loadContract(await inlineContract(CONTRACT)), { errors: true }).app;
type App = Awaited<ReturnType<typeof appOf>>;
const jsonPatch = (app: App, path: string, ops: unknown[]) =>
  request(app).patch(path).set('content-type', 'application/json-patch+json').send(JSON.stringify(ops));

describe('a JSON Patch on a stored record', () => {
  test('applies its operations in order, and the read shows them', async () => {
    const app = await appOf();
    const task = (
      await request(app)
        .post('/tasks')
        .send({ title: 'Write', tags: ['a'] })
        .expect(201)
    ).body;
    const before = Date.now();
    const res = await jsonPatch(app, `/tasks/${task.id}`, [
      { op: 'replace', path: '/title', value: 'Write more' },
      { op: 'add', path: '/tags/-', value: 'b' },
      { op: 'add', path: '/done', value: true },
      { op: 'test', path: '/done', value: true },
    ]).expect(200);
    expect(res.body).toMatchObject({ id: task.id, title: 'Write more', tags: ['a', 'b'], done: true });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(before - 1000);
    expect((await request(app).get(`/tasks/${task.id}`).expect(200)).body).toEqual(res.body);
  });

  test('leaves the server’s fields as they are', async () => {
    const app = await appOf();
    const task = (await request(app).post('/tasks').send({ title: 'Write' }).expect(201)).body;
    const res = await jsonPatch(app, `/tasks/${task.id}`, [
      { op: 'replace', path: '/id', value: 'mine' },
      { op: 'replace', path: '/created_at', value: '2000-01-01T00:00:00Z' },
    ]).expect(200);
    expect(res.body).toMatchObject({ id: task.id, created_at: task.created_at });
  });

  test.each([
    ['a test that fails', [{ op: 'test', path: '/title', value: 'Other' }]],
    ['a path that is not there', [{ op: 'replace', path: '/tags/5', value: 'x' }]],
    ['a change the record refuses', [{ op: 'replace', path: '/title', value: '' }]],
    ['a required field removed', [{ op: 'remove', path: '/title' }]],
  ])('is refused with 422 for %s, and nothing of it is applied', async (_, ops) => {
    const app = await appOf();
    const task = (
      await request(app)
        .post('/tasks')
        .send({ title: 'Write', tags: ['a'] })
        .expect(201)
    ).body;
    const refused = await jsonPatch(app, `/tasks/${task.id}`, [
      { op: 'add', path: '/done', value: true },
      ...ops,
    ]).expect(422);
    expect(refused.body.detail).toMatch(/nothing was changed/);
    expect((await request(app).get(`/tasks/${task.id}`).expect(200)).body).toEqual(task);
  });

  test('of the whole document replaces what the client may set, and keeps the server’s fields', async () => {
    const app = await appOf();
    const task = (
      await request(app)
        .post('/tasks')
        .send({ title: 'Write', tags: ['a'] })
        .expect(201)
    ).body;
    const res = await jsonPatch(app, `/tasks/${task.id}`, [
      { op: 'replace', path: '', value: { id: 'mine', title: 'Whole', created_at: '2000-01-01T00:00:00Z' } },
    ]).expect(200);
    expect(res.body).toMatchObject({ id: task.id, title: 'Whole', created_at: task.created_at });
    expect(res.body).not.toHaveProperty('tags');
  });

  test('of an id that is not there answers 404', async () => {
    const app = await appOf();
    await jsonPatch(app, '/tasks/nope', [{ op: 'add', path: '/done', value: true }]).expect(404);
  });
});
