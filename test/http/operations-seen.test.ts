import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { AUTH, newMock } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

describe('GET /__mock/operations', () => {
  test('lists every operation in contract order, with its documented codes as the contract writes them', async () => {
    const contract = await inlineContract(`
openapi: 3.0.3
info: { title: Things, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      summary: List the things
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: { type: string } } } } }
        4XX: { description: client error }
        default: { description: anything else }
    post:
      operationId: addThing
      responses:
        '201': { description: made }
`);
    const mock = await newMock({ contract });
    const { body } = await request(mock.app).get('/__mock/operations').expect(200);
    expect(body).toEqual({
      operations: [
        {
          operationId: 'listThings',
          method: 'GET',
          path: '/things',
          summary: 'List the things',
          documented: ['200', '4XX', 'default'],
          seen: {},
          calls: 0,
          violations: 0,
        },
        {
          operationId: 'addThing',
          method: 'POST',
          path: '/things',
          documented: ['201'],
          seen: {},
          calls: 0,
          violations: 0,
        },
      ],
    });
  });

  test('counts the statuses the session’s kept calls answered, and those that broke the contract', async () => {
    const mock = await newMock();
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    await request(mock.app).get('/members/m2/passes').set(AUTH).expect(200);
    await request(mock.app).get('/members/m2/passes').expect(401);
    await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'x' }).expect(422);
    await request(mock.app).get('/members/m1/passes').set(AUTH).set('X-Mock-Session', 'other').expect(200);
    const { body } = await request(mock.app).get('/__mock/operations').expect(200);
    const byId = Object.fromEntries(body.operations.map((o: { operationId: string }) => [o.operationId, o]));
    expect(byId.listPasses).toMatchObject({ seen: { '200': 2, '401': 1 }, calls: 3, violations: 1 });
    expect(byId.createCredential).toMatchObject({ seen: { '422': 1 }, calls: 1, violations: 1 });
    expect(body.operations.map((o: { operationId: string }) => o.operationId)).toEqual(
      mock.contract.operations.map((o) => o.id),
    );
  });

  test('counts only the calls kept: past the journal limit, the oldest are not counted', async () => {
    const mock = await newMock({ journalLimit: 2 });
    for (const member of ['m1', 'm2', 'm3'])
      await request(mock.app).get(`/members/${member}/passes`).set(AUTH).expect(200);
    const { body } = await request(mock.app).get('/__mock/operations').expect(200);
    expect(body.operations.find((o: { operationId: string }) => o.operationId === 'listPasses')).toMatchObject({
      calls: 2,
    });
  });

  test('behind a token it is guarded like the rest of the admin API', async () => {
    const mock = await newMock({ admin: { token: 's3cret' } });
    await request(mock.app).get('/__mock/operations').expect(401);
  });
});
