// Every record the mock makes can be read back by its id: an id is never the empty string, which a path cannot
// carry (`/things/` is another path). A contract's `id: { type: string }` allows "", and a draw made one about
// once in sixty records, in a create and among the placeholders alike.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const THING = `{ type: object, required: [id, name], properties: { id: { type: string, readOnly: true }, name: { type: string } } }`;

const CONTRACT = `
openapi: 3.0.3
info: { title: Things, version: '1' }
paths:
  /owners/{ownerId}/things:
    parameters: [{ name: ownerId, in: path, required: true, schema: { type: string } }]
    get:
      responses:
        '200': { description: The things, content: { application/json: { schema: { type: array, items: ${THING} } } } }
    post:
      requestBody: { content: { application/json: { schema: ${THING} } } }
      responses:
        '201': { description: Created, content: { application/json: { schema: ${THING} } } }
  /owners/{ownerId}/things/{id}:
    parameters:
      - { name: ownerId, in: path, required: true, schema: { type: string } }
      - { name: id, in: path, required: true, schema: { type: string } }
    get:
      responses:
        '200': { description: A thing, content: { application/json: { schema: ${THING} } } }
        '404': { description: No such thing }
`;

const appOf = async () => createApp(await loadContract(await inlineContract(CONTRACT))).app;

describe('the ids the mock makes', () => {
  test('of created records are never empty, and each reads back', async () => {
    const app = await appOf();
    const ids: string[] = [];
    for (let i = 0; i < 150; i++)
      ids.push(
        (
          await request(app)
            .post('/owners/o1/things')
            .send({ name: `n${i}` })
            .expect(201)
        ).body.id,
      );
    expect(ids.filter((id) => id === '')).toEqual([]);
    for (const id of ids.slice(0, 20))
      expect(
        (
          await request(app)
            .get(`/owners/o1/things/${encodeURIComponent(id)}`)
            .expect(200)
        ).body.id,
      ).toBe(id);
  });

  test('of placeholders are never empty', async () => {
    const app = await appOf();
    const empty: string[] = [];
    for (let i = 0; i < 60; i++) {
      const listed = (await request(app).get(`/owners/o${i}/things`).expect(200)).body as { id: string }[];
      expect(listed.length).toBeGreaterThan(0);
      for (const thing of listed) if (thing.id === '') empty.push(`o${i}`);
    }
    expect(empty).toEqual([]);
  });
});
