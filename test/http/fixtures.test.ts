import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, DEFAULT_CONTRACT, loadContract } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

const DATA = JSON.parse(
  readFileSync(fileURLToPath(new URL('../fixtures/membership-data.json', import.meta.url)), 'utf8'),
);
const PASS = DATA['/members/mbr_demo/passes'][0];

describe('fixtures as the initial state', () => {
  test('a member in the fixtures has exactly its fixture records, no placeholders', async () => {
    const mock = await newMock({ state: DATA });
    const passes = await request(mock.app).get('/members/mbr_demo/passes').set(AUTH).expect(200);
    expect(passes.body).toEqual({ data: [PASS], next_cursor: null });
    const credentials = await request(mock.app).get('/members/mbr_demo/credentials').set(AUTH).expect(200);
    expect(credentials.body.data).toEqual([]);
  });

  test('a member not in the fixtures still gets placeholders', async () => {
    const mock = await newMock({ state: DATA });
    expect((await request(mock.app).get('/members/other/passes').set(AUTH)).body.data).toHaveLength(3);
  });

  test('reset returns to the fixtures', async () => {
    const mock = await newMock({ state: DATA });
    await request(mock.app).delete(`/members/mbr_demo/passes/${PASS.id}`).set(AUTH).expect(204);
    mock.reset();
    await request(mock.app).get(`/members/mbr_demo/passes/${PASS.id}`).set(AUTH).expect(200);
  });

  test.each([
    [
      'a record that breaks the schema',
      { '/members/mbr_demo/passes': [{ ...PASS, status: 'lost' }] },
      /"\/members\/mbr_demo\/passes"\[0\] \(id "pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M"\) does not fit the contract: \/status: must be equal to one of the allowed values/,
    ],
    [
      'a record with an undocumented field',
      { '/members/mbr_demo/passes': [PASS, { ...PASS, id: 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1N', colour: 'red' }] },
      /\[1\] .*must NOT have additional properties; found 'colour'/,
    ],
    ['a record without id', { '/members/m1/passes': [{ name: 'x' }] }, /"\/members\/m1\/passes"\[0\] has no "id"/],
    ['two records with one id', { '/members/mbr_demo/passes': [PASS, PASS] }, /\[1\] repeats the id/],
    [
      'a record of another member',
      { '/members/m1/passes': [PASS] },
      /"\/members\/m1\/passes"\[0\] \(id "pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M"\) has member_id "mbr_demo", but its collection path says "m1"/,
    ],
    [
      'an unknown collection',
      { '/members/m1/vouchers': [] },
      /"\/members\/m1\/vouchers" is not a collection of the contract; its collections are \/members\/\{member_id\}\/passes, \/members\/\{member_id\}\/credentials/,
    ],
    ['records that are not a list', { '/members/m1/passes': {} }, /must be an array of records/],
  ])('refuses %s, naming the record', async (_name, state, message) => {
    const contract = await loadContract(DEFAULT_CONTRACT);
    expect(() => createApp(contract, { state: state as never })).toThrow(message);
  });
});

test('what GET /__mock/state answers can be fed back as fixtures, and gives the same state', async () => {
  const first = await newMock({ seed: 4 });
  await request(first.app).post('/members/m1/passes').set(AUTH).send({ name: 'Gold' }).expect(201);
  const saved = (await request(first.app).get('/__mock/state').expect(200)).body;
  const second = await newMock({ seed: 4, state: saved });
  expect((await request(second.app).get('/__mock/state').expect(200)).body).toEqual(saved);
});
