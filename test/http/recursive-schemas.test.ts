import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import { createApp, loadContract, type MockApp } from '../../mock/index.js';

/** A tree whose nodes hold nodes: Prism's validator reads the recursion through the operation's `__bundled__`. */
const TREES = `
openapi: 3.0.3
info: { title: Trees, version: '1' }
paths:
  /trees:
    post:
      operationId: plantTree
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/Node' } } }
      responses:
        '201': { description: planted, content: { text/plain: { schema: { type: string, example: planted } } } }
        '422': { description: not a tree }
components:
  schemas:
    Node:
      type: object
      required: [name]
      properties:
        name: { type: string }
        children: { type: array, items: { $ref: '#/components/schemas/Node' } }
`;

let mock: MockApp;
beforeAll(async () => {
  const path = join(await mkdtemp(join(tmpdir(), 'trees-')), 'trees.yaml');
  await writeFile(path, TREES);
  mock = createApp(await loadContract(path), { stateless: true });
});

describe('a request body whose schema contains itself', () => {
  test('a tree that fits at every depth is taken', async () => {
    const tree = { name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] };
    await request(mock.app).post('/trees').send(tree).expect(201);
  });

  test('a node that breaks the schema three levels down is refused with its pointer', async () => {
    const tree = { name: 'a', children: [{ name: 'b', children: [{ name: 3 }] }] };
    const res = await request(mock.app).post('/trees').send(tree).expect(422);
    expect(res.body.violations).toEqual([
      { location: 'body', pointer: '/children/0/children/0/name', message: 'must be string' },
    ]);
  });
});
