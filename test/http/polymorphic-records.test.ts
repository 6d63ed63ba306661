// Records whose schema is a `oneOf` of kinds (a cat or a dog): a create asks nothing of the client that the
// server makes (a read-only id in each branch), keeps what was sent in the branch it fits, and answers no
// write-only field, in the created record, the placeholders or a body drawn without state.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const CONTRACT = `
openapi: 3.0.3
info: { title: Pets, version: '1' }
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: The pets
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Pet' } } } }
    post:
      operationId: createPet
      requestBody:
        content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } }
      responses:
        '201':
          description: Created
          content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } }
  /pets/{petId}:
    get:
      operationId: getPet
      parameters: [{ name: petId, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: A pet
          content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } }
        '404': { description: No such pet }
components:
  schemas:
    Pet:
      oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }]
    Cat:
      type: object
      required: [id, pet_type, name, microchip]
      properties:
        id: { type: string, readOnly: true }
        pet_type: { type: string, enum: [cat] }
        name: { type: string }
        hunting_skill: { type: string, enum: [clueless, lazy, adventurous] }
        microchip: { type: string, writeOnly: true, minLength: 8 }
    Dog:
      type: object
      required: [id, pet_type, name]
      properties:
        id: { type: string, readOnly: true }
        pet_type: { type: string, enum: [dog] }
        name: { type: string }
        pack_size: { type: integer, minimum: 0 }
`;

const appOf = async (options: { stateless?: boolean } = {}) =>
  createApp(await loadContract(await inlineContract(CONTRACT)), options).app;

describe('a record of oneOf kinds', () => {
  test('is created without the read-only id the server makes', async () => {
    const res = await request(await appOf())
      .post('/pets')
      .send({ pet_type: 'dog', name: 'Rex' })
      .expect(201);
    expect(typeof res.body.id).toBe('string');
  });

  test('keeps what was sent, in the kind it fits', async () => {
    const app = await appOf();
    const dog = await request(app).post('/pets').send({ pet_type: 'dog', name: 'Rex', pack_size: 3 }).expect(201);
    expect(dog.body).toMatchObject({ pet_type: 'dog', name: 'Rex', pack_size: 3 });
    const cat = await request(app)
      .post('/pets')
      .send({ pet_type: 'cat', name: 'Tom', hunting_skill: 'lazy', microchip: '0123456789' })
      .expect(201);
    expect(cat.body).toMatchObject({ pet_type: 'cat', name: 'Tom', hunting_skill: 'lazy' });
    expect((await request(app).get(`/pets/${cat.body.id}`).expect(200)).body).toEqual(cat.body);
  });

  test('leaves out the optional fields of its kind that were not sent, as any record does', async () => {
    const app = await appOf();
    for (let i = 0; i < 5; i++) {
      const dog = await request(app)
        .post('/pets')
        .send({ pet_type: 'dog', name: `Rex ${i}` })
        .expect(201);
      expect(dog.body).not.toHaveProperty('pack_size');
    }
  });

  test('answers no write-only field: not the one sent, not in placeholders, not drawn without state', async () => {
    const app = await appOf();
    const cat = await request(app)
      .post('/pets')
      .send({ pet_type: 'cat', name: 'Tom', microchip: '0123456789' })
      .expect(201);
    expect(cat.body).not.toHaveProperty('microchip');
    const listed = (await request(app).get('/pets').expect(200)).body as object[];
    expect(listed.length).toBeGreaterThan(1);
    expect(listed.filter((pet) => 'microchip' in pet)).toEqual([]);
    const stateless = await appOf({ stateless: true });
    for (let i = 0; i < 8; i++) {
      const drawn = (await request(stateless).get(`/pets/p${i}`).expect(200)).body;
      expect(drawn).not.toHaveProperty('microchip');
    }
  });
});

/** A contract of one collection of `/things` whose record schema is `schema` (YAML, indented for its place). */
const thingsContract = (schema: string) => `
openapi: 3.0.3
info: { title: Things, version: '1' }
paths:
  /things:
    get:
      responses:
        '200':
          description: The things
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Thing' } } } }
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
      responses:
        '201':
          description: Created
          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
  /things/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        '200':
          description: A thing
          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
        '404': { description: No such thing }
components:
  schemas:
    Thing:
${schema}`;

const thingsApp = async (schema: string) =>
  createApp(await loadContract(await inlineContract(thingsContract(schema)))).app;

describe('a record of kinds with fields of its own beside them', () => {
  const SCHEMA = `
      type: object
      required: [id, name]
      properties: { id: { type: string, readOnly: true }, name: { type: string } }
      oneOf:
        - { type: object, required: [pet_type], properties: { pet_type: { type: string, enum: [cat] }, hunts: { type: boolean } } }
        - { type: object, required: [pet_type], properties: { pet_type: { type: string, enum: [dog] }, barks: { type: boolean } } }`;

  test('keeps the kind that was sent, every time, with its fields', async () => {
    const app = await thingsApp(SCHEMA);
    for (let i = 0; i < 12; i++) {
      const res = await request(app)
        .post('/things')
        .send({ name: `Rex ${i}`, pet_type: 'dog', barks: true })
        .expect(201);
      expect(res.body).toMatchObject({ name: `Rex ${i}`, pet_type: 'dog', barks: true });
      expect(typeof res.body.id).toBe('string');
    }
  });
});

describe('a record of kinds whose id is optional in them', () => {
  const SCHEMA = `
      oneOf:
        - { type: object, properties: { id: { type: string }, pet_type: { type: string, enum: [cat] } } }
        - { type: object, properties: { id: { type: string }, pet_type: { type: string, enum: [dog] } } }`;

  test('has an id in every placeholder', async () => {
    const app = await thingsApp(SCHEMA);
    const listed = (await request(app).get('/things').expect(200)).body as { id?: string }[];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.filter((thing) => typeof thing.id !== 'string')).toEqual([]);
    await request(app).get('/things/undefined').expect(404);
  });
});

describe('a record of anyOf kinds', () => {
  const SCHEMA = `
      anyOf:
        - { type: object, required: [id], properties: { id: { type: string, readOnly: true }, name: { type: string } } }
        - { type: object, required: [id], properties: { id: { type: string, readOnly: true }, tag: { type: string } } }`;

  test('keeps every field sent that a kind declares', async () => {
    const app = await thingsApp(SCHEMA);
    const res = await request(app).post('/things').send({ name: 'Rex', tag: 'ab' }).expect(201);
    expect(res.body).toMatchObject({ name: 'Rex', tag: 'ab' });
  });
});

describe('a record of kinds each written as an allOf of a base and its own part', () => {
  // The discriminator style of most contracts: `Dog: allOf: [Pet, { properties: … }]`.
  const SCHEMA = `
      oneOf:
        - allOf:
            - { type: object, required: [id, name], properties: { id: { type: string, readOnly: true }, name: { type: string } } }
            - { type: object, required: [pet_type], properties: { pet_type: { type: string, enum: [cat] }, hunts: { type: boolean } } }
        - allOf:
            - { type: object, required: [id, name], properties: { id: { type: string, readOnly: true }, name: { type: string } } }
            - { type: object, required: [pet_type], properties: { pet_type: { type: string, enum: [dog] }, barks: { type: boolean } } }`;

  test('keeps the kind that was sent, with the fields of its own part, every time', async () => {
    const app = await thingsApp(SCHEMA);
    for (let i = 0; i < 12; i++) {
      const res = await request(app)
        .post('/things')
        .send({ name: `Rex ${i}`, pet_type: 'dog', barks: i % 2 === 0 })
        .expect(201);
      expect(res.body).toMatchObject({ name: `Rex ${i}`, pet_type: 'dog', barks: i % 2 === 0 });
      expect(res.body).not.toHaveProperty('hunts');
      expect((await request(app).get(`/things/${res.body.id}`).expect(200)).body).toEqual(res.body);
    }
  });
});

describe('a list of records of kinds in an envelope', () => {
  // The id is required in each kind, not beside the oneOf: the mock requires it of the record itself.
  const CONTRACT = `
openapi: 3.0.3
info: { title: Pets, version: '1' }
paths:
  /pets:
    get:
      parameters:
        - { name: limit, in: query, schema: { type: integer, default: 2 } }
        - { name: cursor, in: query, schema: { type: string } }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [data, next_cursor]
                properties:
                  data: { type: array, items: { $ref: '#/components/schemas/Pet' } }
                  next_cursor: { type: string, nullable: true }
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } } }
components:
  schemas:
    Cat: { type: object, required: [id, kind], properties: { id: { type: string, readOnly: true }, kind: { type: string, enum: [cat] } } }
    Dog: { type: object, required: [id, kind], properties: { id: { type: string, readOnly: true }, kind: { type: string, enum: [dog] } } }
    Pet:
      oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }]
`;

  test('answers the envelope, and its cursor reaches every record', async () => {
    const app = createApp(await loadContract(await inlineContract(CONTRACT)), { errors: true }).app;
    const made = new Set<string>();
    for (let i = 0; i < 3; i++) made.add((await request(app).post('/pets').send({ kind: 'dog' }).expect(201)).body.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res: { body: { data: { id: string }[]; next_cursor: string | null } } = await request(app)
        .get('/pets')
        .query(cursor ? { cursor } : {})
        .expect(200);
      expect(Array.isArray(res.body.data)).toBe(true);
      seen.push(...res.body.data.map((pet) => pet.id));
      cursor = res.body.next_cursor;
      if (!cursor) break;
    }
    expect(seen.filter((id) => made.has(id)).sort()).toEqual([...made].sort());
  });
});

describe('a record of kinds, created and updated by the rules of any record', () => {
  const stamped = (kind: string, own: string) =>
    `{ type: object, required: [id, kind, name, created_at], properties: { id: { type: string, readOnly: true }, kind: { type: string, enum: [${kind}] }, name: { type: string }, ${own}, created_at: { type: string, format: date-time, readOnly: true }, updated_at: { type: string, format: date-time, readOnly: true } } }`;
  const pet = `{ $ref: '#/components/schemas/Pet' }`;
  const json = (schema: string) => `{ content: { application/json: { schema: ${schema} } } }`;
  const CONTRACT = `
openapi: 3.0.3
info: { title: Pets, version: '1' }
paths:
  /pets:
    get: { responses: { '200': { description: ok, content: { application/json: { schema: { type: array, items: ${pet} } } } } } }
    post: { requestBody: ${json(pet)}, responses: { '201': { description: made, ${json(pet).slice(2, -2)} } } }
  /pets/{petId}:
    parameters: [{ name: petId, in: path, required: true, schema: { type: string } }]
    get: { responses: { '200': { description: ok, ${json(pet).slice(2, -2)} }, '404': { description: none } } }
    put: { requestBody: ${json(pet)}, responses: { '200': { description: ok, ${json(pet).slice(2, -2)} }, '404': { description: none } } }
    patch:
      requestBody: { content: { application/merge-patch+json: { schema: { type: object } } } }
      responses: { '200': { description: ok, ${json(pet).slice(2, -2)} }, '404': { description: none } }
components:
  schemas:
    Cat: ${stamped('cat', 'lives: { type: integer, minimum: 1, maximum: 9 }')}
    Dog: ${stamped('dog', 'pack_size: { type: integer }')}
    Pet: { oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }] }
`;
  const appOf = async () => createApp(await loadContract(await inlineContract(CONTRACT))).app;
  const within = (text: string, from: number, to: number) => {
    const at = Date.parse(text);
    return at >= from - 1000 && at <= to + 1000;
  };

  test('a create has the time of creation', async () => {
    const app = await appOf();
    const before = Date.now();
    const cat = (await request(app).post('/pets').send({ kind: 'cat', name: 'Tom', lives: 7 }).expect(201)).body;
    expect(cat).toMatchObject({ kind: 'cat', name: 'Tom', lives: 7 });
    expect(within(cat.created_at, before, Date.now())).toBe(true);
  });

  test('a PUT drops an optional field it leaves out', async () => {
    const app = await appOf();
    const cat = (await request(app).post('/pets').send({ kind: 'cat', name: 'Tom', lives: 7 }).expect(201)).body;
    const put = (await request(app).put(`/pets/${cat.id}`).send({ kind: 'cat', name: 'Tom II' }).expect(200)).body;
    expect(put).toMatchObject({ id: cat.id, kind: 'cat', name: 'Tom II', created_at: cat.created_at });
    expect(put).not.toHaveProperty('lives');
  });

  test('a PATCH keeps read-only fields and sets the time of the change', async () => {
    const app = await appOf();
    const cat = (await request(app).post('/pets').send({ kind: 'cat', name: 'Tom' }).expect(201)).body;
    const before = Date.now();
    const patched = (
      await request(app)
        .patch(`/pets/${cat.id}`)
        .set('content-type', 'application/merge-patch+json')
        .send(JSON.stringify({ name: 'Tom II', created_at: '2000-01-01T00:00:00Z' }))
        .expect(200)
    ).body;
    expect(patched).toMatchObject({ name: 'Tom II', created_at: cat.created_at });
    expect(within(patched.updated_at, before, Date.now())).toBe(true);
  });
});
