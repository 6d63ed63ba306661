import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, DEFAULT_CONTRACT, loadContract } from '../../mock/index.js';
import { AUTH, track } from '../support/harness.js';

const THING_SCHEMA =
  "{ $id: 'https://example.com/thing', type: object, required: [name], properties: { name: { type: string } } }";

/**
 * A contract whose request body schema has an `$id`: JSON Schema ids are registered once per process in Prism's
 * ajv.
 */
const WITH_ID = `
openapi: 3.1.0
info: { title: ids, version: '1' }
paths:
  /things:
    post:
      operationId: createThing
      requestBody:
        required: true
        content:
          application/json:
            schema: ${THING_SCHEMA}
      responses:
        '201': { description: ok, content: { application/json: { schema: { type: object } } } }
        '422': { description: refused, content: { application/problem+json: { schema: { type: object } } } }
`;

describe('one loaded contract serves many mocks, which share nothing', () => {
  test('a body schema with an $id is checked by every mock, of one loaded contract or its file reloaded', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'ids-')), 'ids.yaml');
    await writeFile(file, WITH_ID);
    const contract = await loadContract(file);
    const mocks = [createApp(contract), createApp(contract), createApp(await loadContract(file))];
    for (const mock of mocks) track(file, () => mock.calls());
    for (const mock of mocks) {
      await request(mock.app).post('/things').send({ nope: 1 }).expect(422);
      await request(mock.app).post('/things').send({ name: 'ok' }).expect(201);
    }
  });

  test('two mocks of one contract keep their own state, journal and generated data', async () => {
    const contract = await loadContract(DEFAULT_CONTRACT);
    const first = createApp(contract, { seed: 1 });
    const second = createApp(contract, { seed: 2 });
    track(contract.source, () => [...first.calls(), ...second.calls()]);

    const created = await request(first.app)
      .post('/members/m1/credentials')
      .set(AUTH)
      .send({ kind: 'pin' })
      .expect(201);
    const listedByFirst = await request(first.app).get('/members/m1/credentials').set(AUTH).expect(200);
    const listedBySecond = await request(second.app).get('/members/m1/credentials').set(AUTH).expect(200);

    expect(listedByFirst.body.data.map((c: { id: string }) => c.id)).toContain(created.body.id);
    expect(listedBySecond.body.data.map((c: { id: string }) => c.id)).not.toContain(created.body.id);
    expect(listedBySecond.body.data).not.toEqual(listedByFirst.body.data.slice(1));
    expect(first.calls()).toHaveLength(2);
    expect(second.calls()).toHaveLength(1);
  });

  test('serving requests never changes the contract itself', async () => {
    const contract = await loadContract(DEFAULT_CONTRACT);
    const before = JSON.stringify(contract.operations);
    const mock = createApp(contract, { seed: 3 });
    track(contract.source, () => mock.calls());
    await request(mock.app).post('/members/m1/passes').set(AUTH).send({ name: 'Gym' }).expect(201);
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    await request(mock.app).get('/members/m1/passes').set(AUTH).set('Prefer', 'code=404').expect(404);
    await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'retina' }).expect(422);
    await request(mock.app).get('/members/m1/credentials').set(AUTH).set('Prefer', 'dynamic=false').expect(200);
    expect(JSON.stringify(contract.operations)).toBe(before);
  });
});
