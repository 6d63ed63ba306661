// A path parameter goes into the body only where the path names it: the record of an item path (`/identities/{id}`
// gives `id`) and a parent reference (`identity_id` under `/identities/{id}/…`), and only where its value fits the
// field's schema. Never into nested objects, never into the id of the records below the thing it names.
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import { newMock } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

const UUID = '6b1a5d1e-8c2f-4b7a-9d3e-2f4c6a8b0c1d';
const ID = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

const CONTRACT = `openapi: 3.0.3
info: { title: echo, version: '1' }
paths:
  /identities/{id}:
    get:
      operationId: getIdentity
      parameters: [${JSON.stringify(ID)}]
      responses:
        '200':
          description: the identity
          content:
            application/json:
              schema:
                type: object
                required: [id, recovery_addresses]
                properties:
                  id: { type: string, format: uuid }
                  recovery_addresses:
                    type: array
                    minItems: 2
                    items:
                      type: object
                      required: [id, value]
                      properties:
                        id: { type: string, format: uuid }
                        value: { type: string }
  /identities/{id}/sessions:
    get:
      operationId: listIdentitySessions
      parameters: [${JSON.stringify(ID)}]
      responses:
        '200':
          description: the identity's sessions
          content:
            application/json:
              schema:
                type: array
                minItems: 2
                items: { $ref: '#/components/schemas/Session' }
  /teams/{id}/members:
    parameters: [${JSON.stringify(ID)}]
    get:
      operationId: listMembers
      responses:
        '200':
          description: the team's members
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Member' } }
    post:
      operationId: addMember
      responses:
        '201':
          description: added
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Member' }
components:
  schemas:
    Session:
      type: object
      required: [id, identity_id]
      properties:
        id: { type: string, format: uuid }
        identity_id: { type: string }
    Member:
      type: object
      required: [id, team_id]
      properties:
        id: { type: string }
        team_id: { type: string }
`;

let contract: string;
beforeAll(async () => {
  contract = await inlineContract(CONTRACT);
});

describe.each([
  ['stateful', false],
  ['stateless', true],
])('%s: a path parameter is echoed only where the path names it', (_, stateless) => {
  let mock: MockApp;
  beforeAll(async () => {
    mock = await newMock({ contract, seed: 3, stateless });
  });

  test('an item path’s parameter is not written into a field its value does not fit, nor into nested records', async () => {
    const { body } = await request(mock.app).get('/identities/SVOEJ').expect(200);
    expect(body.id).not.toBe('SVOEJ');
    expect(body.recovery_addresses.length).toBeGreaterThan(0);
    for (const address of body.recovery_addresses) expect(address.id).not.toBe('SVOEJ');
  });

  test('an item path’s parameter that fits names the record read, and nothing nested in it', async () => {
    const { body } = await request(mock.app).get(`/identities/${UUID}`).expect(200);
    expect(body.id).toBe(UUID);
    for (const address of body.recovery_addresses) expect(address.id).not.toBe(UUID);
  });

  test('a parent’s parameter goes into the reference to it, never into the id of the records below it', async () => {
    const { body } = await request(mock.app).get(`/identities/${UUID}/sessions`).expect(200);
    expect(body.length).toBeGreaterThan(0);
    for (const session of body) {
      expect(session.id).not.toBe(UUID);
      expect(session.identity_id).toBe(UUID);
    }
  });
});

describe('stateful: the records of a collection under a parent called {id}', () => {
  let mock: MockApp;
  beforeAll(async () => {
    mock = await newMock({ contract, seed: 3 });
  });

  test('placeholders and created records keep ids of their own and name their parent', async () => {
    const created = (await request(mock.app).post('/teams/t1/members').expect(201)).body;
    expect(created.id).not.toBe('t1');
    expect(created.team_id).toBe('t1');
    const { body } = await request(mock.app).get('/teams/t1/members').expect(200);
    expect(body.length).toBeGreaterThan(1);
    for (const member of body) {
      expect(member.id).not.toBe('t1');
      expect(member.team_id).toBe('t1');
    }
    expect(new Set(body.map((member: { id: string }) => member.id)).size).toBe(body.length);
  });

  test('fixtures under the parent keep their own ids', async () => {
    const fixed = await newMock({
      contract,
      state: { '/teams/t1/members': [{ id: 'm1', team_id: 't1' }, { id: 'm2' }] },
    });
    const { body } = await request(fixed.app).get('/teams/t1/members').expect(200);
    expect(body).toEqual(expect.arrayContaining([{ id: 'm1', team_id: 't1' }, expect.objectContaining({ id: 'm2' })]));
  });
});
