import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import { createApp, loadContract, type MockApp } from '../../mock/index.js';

/** A Postman collection (v2.1) with a saved response, as Postman exports it. */
const COLLECTION = {
  info: { name: 'Pet shop', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
  item: [
    {
      name: 'Get a pet',
      request: {
        method: 'GET',
        url: { raw: '{{baseUrl}}/pets/:id', host: ['{{baseUrl}}'], path: ['pets', ':id'] },
      },
      response: [
        {
          name: 'found',
          originalRequest: {
            method: 'GET',
            url: { raw: '{{baseUrl}}/pets/1', host: ['{{baseUrl}}'], path: ['pets', '1'] },
          },
          code: 200,
          header: [{ key: 'Content-Type', value: 'application/json' }],
          body: '{"id": 1, "name": "Rex"}',
        },
      ],
    },
  ],
};

let mock: MockApp;
beforeAll(async () => {
  const path = join(await mkdtemp(join(tmpdir(), 'postman-')), 'pets.postman_collection.json');
  await writeFile(path, JSON.stringify(COLLECTION));
  mock = createApp(await loadContract(path), { stateless: true, dynamic: false });
});

describe('a Postman collection is served like an OpenAPI document', () => {
  test('a saved request answers its saved response', async () => {
    const res = await request(mock.app)
      .get('/pets/7')
      .expect(200)
      .expect('Content-Type', /application\/json/);
    expect(res.body).toEqual({ id: 1, name: 'Rex' });
  });

  test('a path the collection does not have answers 404', async () => {
    await request(mock.app)
      .get('/owners')
      .expect(404)
      .expect('Content-Type', /application\/problem\+json/);
  });
});
