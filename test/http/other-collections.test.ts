import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { loadContract } from '../../mock/index.js';
import { inferCollections } from '../../mock/plan/infer-collections.js';
import { newMock } from '../support/harness.js';

const LIBRARY = fileURLToPath(new URL('../fixtures/library.openapi.yaml', import.meta.url));
const BOOKSHOP = fileURLToPath(new URL('../fixtures/bookshop.openapi.yaml', import.meta.url));

describe('state is inferred from the shape of any contract', () => {
  test('finds the collections of our contract and of another one, with their id fields', async () => {
    const ours = inferCollections(
      (await loadContract(fileURLToPath(new URL('../../contracts/membership.openapi.yaml', import.meta.url))))
        .operations,
    );
    expect(ours.collections.map((c) => [c.path, c.itemPath, c.idParam, c.idField, c.read?.id, c.remove?.id])).toEqual([
      [
        '/members/{member_id}/passes',
        '/members/{member_id}/passes/{pass_id}',
        'pass_id',
        'id',
        'getPass',
        'deletePass',
      ],
      [
        '/members/{member_id}/credentials',
        '/members/{member_id}/credentials/{credential_id}',
        'credential_id',
        'id',
        undefined,
        'deleteCredential',
      ],
    ]);
    const library = inferCollections((await loadContract(LIBRARY)).operations);
    expect(library.collections.map((c) => [c.path, c.idField])).toEqual([['/shelves/{shelf}/books', 'isbn']]);
  });

  test('a path without an item path below it is still a collection that lists what was created', async () => {
    const bookshop = inferCollections((await loadContract(BOOKSHOP)).operations);
    expect(bookshop.collections.map((c) => [c.path, c.itemPath])).toEqual([['/shops/{shop}/books', undefined]]);
  });

  test('create, list, read, delete and 404 work on another contract of the same shape', async () => {
    const mock = await newMock({ contract: LIBRARY, seed: 2 });
    const shelved = (await request(mock.app).post('/shelves/s1/books').send({ title: 'Odes' }).expect(201)).body;
    expect(shelved).toMatchObject({ shelf: 's1', title: 'Odes', genre: 'fiction' });
    const list = (await request(mock.app).get('/shelves/s1/books').expect(200)).body;
    expect(list[0]).toEqual(shelved);
    expect(list).toHaveLength(4);
    expect((await request(mock.app).get(`/shelves/s1/books/${shelved.isbn}`).expect(200)).body).toEqual(shelved);
    await request(mock.app).delete(`/shelves/s1/books/${shelved.isbn}`).expect(204);
    await request(mock.app)
      .get(`/shelves/s1/books/${shelved.isbn}`)
      .expect(404)
      .expect('Content-Type', /problem\+json/);
    expect((await request(mock.app).get('/shelves/s1/books').expect(200)).body).toHaveLength(3);
  });

  test('a create into a full collection answers the mock’s own 507 problem where the contract documents none', async () => {
    const mock = await newMock({ contract: LIBRARY, seed: 2, collectionLimit: 3 });
    const res = await request(mock.app)
      .post('/shelves/s1/books')
      .send({ title: 'Odes' })
      .expect(507)
      .expect('Content-Type', /^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: 'https://example.com/problems/storage-full', status: 507 });
    expect((await request(mock.app).get('/shelves/s1/books').expect(200)).body).toHaveLength(3);
  });
});

describe('created records in contracts of other shapes', () => {
  const GADGETS = fileURLToPath(new URL('../fixtures/gadgets.openapi.yaml', import.meta.url));

  test('a record schema built with allOf is generated whole and fits the contract', async () => {
    const mock = await newMock({ contract: GADGETS, seed: 4 });
    const first = (await request(mock.app).post('/gadgets').send({ name: 'g' }).expect(201)).body;
    const second = (await request(mock.app).post('/gadgets').send({ name: 'h' }).expect(201)).body;
    expect(first.id).toMatch(/^g_[a-z]{5}$/);
    expect(second.id).not.toBe(first.id);
    const ids = (await request(mock.app).get('/gadgets').expect(200)).body.map((g: { id: string }) => g.id);
    expect(ids).toEqual(expect.arrayContaining([first.id, second.id]));
  });

  test('the path parameter wins over a field of the same name in the body', async () => {
    const mock = await newMock({ contract: GADGETS, seed: 4 });
    const thing = (await request(mock.app).post('/owners/o1/things').send({ name: 'n', owner_id: 'other' }).expect(201))
      .body;
    expect(thing).toMatchObject({ owner_id: 'o1', name: 'n' });
  });
});
