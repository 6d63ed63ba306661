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
    [
      'a partial record that breaks the schema',
      { '/members/m1/passes': [{ name: '' }] },
      /"\/members\/m1\/passes"\[0\] \(id "pas_\w{26}"\) does not fit the contract: \/name: must NOT have fewer than 1 characters/,
    ],
    [
      'a partial record of another member',
      { '/members/m1/passes': [{ member_id: 'm2' }] },
      /"\/members\/m1\/passes"\[0\] \(id "pas_\w{26}"\) has member_id "m2", but its collection path says "m1"/,
    ],
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

describe('partial fixtures', () => {
  const PARTIAL = { '/members/mbr_demo/passes': [{ name: 'Gold membership', status: 'suspended' }, {}] };

  test('a record with fields left out is completed as a create would make it, its member from the path', async () => {
    const mock = await newMock({ seed: 5, state: PARTIAL });
    const { data } = (await request(mock.app).get('/members/mbr_demo/passes').set(AUTH).expect(200)).body;
    // Newest first: the second record is listed first.
    expect(data[1]).toEqual({
      id: expect.stringMatching(/^pas_[0-9A-HJKMNP-TV-Z]{26}$/),
      member_id: 'mbr_demo',
      name: 'Gold membership',
      status: 'suspended',
      valid_from: expect.any(String),
      valid_until: null,
      created_at: data[1].valid_from,
    });
    expect(data[0]).toMatchObject({ member_id: 'mbr_demo', name: 'Membership pass', status: 'active' });
    await request(mock.app).get(`/members/mbr_demo/passes/${data[1].id}`).set(AUTH).expect(200);
  });

  test('the same seed completes the same records, another seed other ids', async () => {
    const state = async (seed: number) => (await newMock({ seed, state: PARTIAL })).state().collections;
    expect(await state(5)).toEqual(await state(5));
    const [first, other] = [await state(5), await state(6)];
    expect(other['/members/mbr_demo/passes']![0]!.id).not.toBe(first['/members/mbr_demo/passes']![0]!.id);
  });

  test('reset returns to the completed records, the same ids', async () => {
    const mock = await newMock({ seed: 5, state: PARTIAL });
    const before = mock.state();
    await request(mock.app).post('/members/mbr_demo/passes').set(AUTH).send({}).expect(201);
    mock.reset();
    expect(mock.state()).toEqual(before);
  });
});
