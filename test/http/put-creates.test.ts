// A PUT that documents 201 creates the record its path names when there is none (an upsert, as many APIs do):
// the id from the path, the fields from the body, the server's fields made as a create makes them.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const THING = `{ $ref: '#/components/schemas/Thing' }`;
const json = (schema: string) => `{ application/json: { schema: ${schema} } }`;
const contract = ({ created = true, idType = 'string', idPattern = '' } = {}) => `
openapi: 3.0.3
info: { title: Things, version: '1' }
paths:
  /things:
    get: { responses: { '200': { description: ok, content: ${json(`{ type: array, items: ${THING} }`)} } } }
    post: { requestBody: { content: ${json(THING)} }, responses: { '201': { description: made, content: ${json(THING)} } } }
  /things/{thingId}:
    parameters: [{ name: thingId, in: path, required: true, schema: { type: ${idType} } }]
    get: { responses: { '200': { description: ok, content: ${json(THING)} }, '404': { description: none } } }
    put:
      requestBody: { content: ${json(THING)} }
      responses:
        '200': { description: replaced, content: ${json(THING)} }
        ${created ? `'201': { description: created, headers: { Location: { schema: { type: string } } }, content: ${json(THING)} }` : ''}
        '404': { description: none }
components:
  schemas:
    Thing:
      type: object
      required: [id, name, created_at]
      properties:
        id: { type: ${idType}, readOnly: true${idPattern ? `, pattern: '${idPattern}'` : ''} }
        name: { type: string }
        colour: { type: string, default: grey }
        created_at: { type: string, format: date-time, readOnly: true }
`;
const appOf = async (options: { created?: boolean; idType?: string; idPattern?: string } = {}) =>
  createApp(await loadContract(await inlineContract(contract(options)))).app;

describe('a PUT that documents 201', () => {
  test('creates the record its path names, answering 201 with it; a read and the list show it', async () => {
    const app = await appOf();
    const res = await request(app).put('/things/lamp').send({ name: 'Lamp' }).expect(201);
    expect(res.body).toMatchObject({ id: 'lamp', name: 'Lamp', colour: 'grey' });
    expect(res.headers.location).toBe('/things/lamp');
    expect(Date.parse(res.body.created_at)).not.toBeNaN();
    expect((await request(app).get('/things/lamp').expect(200)).body).toEqual(res.body);
    const listed = (await request(app).get('/things').expect(200)).body;
    expect(listed[0]).toEqual(res.body);
  });

  test('replaces the record once it is there, answering 200 and keeping its time of creation', async () => {
    const app = await appOf();
    const created = (await request(app).put('/things/lamp').send({ name: 'Lamp' }).expect(201)).body;
    const replaced = (await request(app).put('/things/lamp').send({ name: 'Desk lamp' }).expect(200)).body;
    expect(replaced).toEqual({ ...created, name: 'Desk lamp' });
  });

  test('keeps the id of a collection of numbers as a number', async () => {
    const app = await appOf({ idType: 'integer' });
    const res = await request(app).put('/things/7').send({ name: 'Seven' }).expect(201);
    expect(res.body.id).toBe(7);
    await request(app).get('/things/7').expect(200);
  });

  test('points Location at the path as sent, whatever its id holds', async () => {
    const app = await appOf();
    const res = await request(app).put('/things/ann@example.com').send({ name: 'Ann' }).expect(201);
    expect(res.headers.location).toBe('/things/ann@example.com');
    await request(app).get(res.headers.location!).expect(200);
  });

  test('refuses an id the record cannot have (its pattern), and creates nothing', async () => {
    const app = await appOf({ idPattern: '^thg_[a-z]+$' });
    const res = await request(app).put('/things/lamp').send({ name: 'Lamp' }).expect(422);
    expect(res.body.detail).toMatch(/does not fit the record's id/);
    await request(app).get('/things/lamp').expect(404);
    await request(app).put('/things/thg_lamp').send({ name: 'Lamp' }).expect(201);
  });

  test('refuses a body the request schema refuses, and creates nothing', async () => {
    const app = await appOf();
    await request(app).put('/things/lamp').send({ name: 12 }).expect(422);
    await request(app).get('/things/lamp').expect(404);
  });
});

test('a PUT that documents no 201 does not create: a missing record is 404', async () => {
  const app = await appOf({ created: false });
  await request(app).put('/things/lamp').send({ name: 'Lamp' }).expect(404);
  await request(app).get('/things/lamp').expect(404);
});
