import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import { createContractValidator } from '../support/contract-validator.js';
import { AUTH, newMock } from '../support/harness.js';
import { DEFAULT_CONTRACT } from '../../mock/index.js';

const contract = createContractValidator(DEFAULT_CONTRACT);
let mock: MockApp;

beforeAll(async () => {
  mock = await newMock({ seed: 11 });
});

describe('the seven operations', () => {
  test('listPasses answers 200 with a page of passes that fits the contract', async () => {
    const res = await request(mock.app)
      .get('/members/mbr_1/passes')
      .set(AUTH)
      .expect(200)
      .expect('Content-Type', /^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'next_cursor']);
    expect(contract.check('listPasses', 200, 'application/json', res.body)).toEqual([]);
  });

  test('createPass answers 201 with a pass and a Location pointing at it', async () => {
    const res = await request(mock.app).post('/members/mbr_1/passes').set(AUTH).send({}).expect(201);
    expect(res.body.id).toMatch(/^pas_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(res.headers.location).toBe(`/members/mbr_1/passes/${res.body.id}`);
    expect(contract.check('createPass', 201, 'application/json', res.body)).toEqual([]);
  });

  test('getPass answers 200 with one pass of the list', async () => {
    const list = await request(mock.app).get('/members/mbr_1/passes').set(AUTH).expect(200);
    const res = await request(mock.app).get(`/members/mbr_1/passes/${list.body.data[0].id}`).set(AUTH).expect(200);
    expect(res.body).toEqual(list.body.data[0]);
    expect(contract.check('getPass', 200, 'application/json', res.body)).toEqual([]);
  });

  test('deletePass answers 204 with no body', async () => {
    const created = await request(mock.app).post('/members/mbr_1/passes').set(AUTH).send({}).expect(201);
    const res = await request(mock.app).delete(`/members/mbr_1/passes/${created.body.id}`).set(AUTH).expect(204);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
  });

  test('listCredentials answers 200 with a page of credentials of the three kinds', async () => {
    const res = await request(mock.app).get('/members/mbr_1/credentials').set(AUTH).expect(200);
    expect(contract.check('listCredentials', 200, 'application/json', res.body)).toEqual([]);
    for (const credential of res.body.data) expect(['pin', 'card', 'mobile']).toContain(credential.kind);
  });

  test('createCredential answers 201 with a credential and no Location', async () => {
    const res = await request(mock.app).post('/members/mbr_1/credentials').set(AUTH).send({ kind: 'card' }).expect(201);
    expect(res.body.id).toMatch(/^crd_/);
    expect(res.headers.location).toBeUndefined();
    expect(contract.check('createCredential', 201, 'application/json', res.body)).toEqual([]);
  });

  test('deleteCredential answers 204 with no body', async () => {
    const created = await request(mock.app)
      .post('/members/mbr_1/credentials')
      .set(AUTH)
      .send({ kind: 'pin' })
      .expect(201);
    await request(mock.app).delete(`/members/mbr_1/credentials/${created.body.id}`).set(AUTH).expect(204, '');
  });

  test('HEAD on a list answers its GET status and headers without a body', async () => {
    const res = await request(mock.app).head('/members/mbr_1/passes').set(AUTH).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text).toBeUndefined();
  });

  test('OPTIONS on a known path answers 204 with the methods it allows', async () => {
    const res = await request(mock.app).options('/members/mbr_1/passes/pas_1').expect(204);
    expect(res.headers.allow).toBe('GET, DELETE, HEAD, OPTIONS');
  });

  test('two creates answer two different records', async () => {
    const first = await request(mock.app).post('/members/mbr_1/passes').set(AUTH).send({}).expect(201);
    const second = await request(mock.app).post('/members/mbr_1/passes').set(AUTH).send({}).expect(201);
    expect(first.body.id).not.toBe(second.body.id);
  });

  test('without state, the same read of any id answers the same generated body twice', async () => {
    const stateless = await newMock({ seed: 11, stateless: true });
    const first = await request(stateless.app).get('/members/mbr_1/passes/pas_X').set(AUTH).expect(200);
    const second = await request(stateless.app).get('/members/mbr_1/passes/pas_X').set(AUTH).expect(200);
    expect(second.body).toEqual(first.body);
    expect(first.body.member_id).toBe('mbr_1');
  });
});
