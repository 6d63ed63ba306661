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
        '422':
          description: not a tree
          content: { application/problem+json: { schema: { type: object, properties: { violations: { type: array } } } } }
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

/** A collection whose records contain themselves (a folder of folders), served from state. */
const FOLDERS = `
openapi: 3.0.3
info: { title: Folders, version: '1' }
paths:
  /folders:
    get:
      operationId: listFolders
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Folder' } } } }
    post:
      operationId: createFolder
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, required: [name], properties: { name: { type: string } } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Folder' } } } }
components:
  schemas:
    Folder:
      type: object
      required: [id, name, parent]
      properties:
        id: { type: string }
        name: { type: string }
        parent: { oneOf: [{ $ref: '#/components/schemas/Folder' }, { type: 'null' }] }
`;

describe('records whose schema contains itself, in the default stateful mode', () => {
  let folders: MockApp;
  beforeAll(async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'folders-')), 'folders.yaml');
    await writeFile(path, FOLDERS.replace("{ type: 'null' }", '{ type: string, enum: [root] }'));
    folders = createApp(await loadContract(path));
  });

  test('placeholders are drawn through the bundle, so a list answers 200 with records that have their parent', async () => {
    const res = await request(folders.app).get('/folders').expect(200);
    expect(res.body.length).toBeGreaterThan(0);
    for (const folder of res.body) expect(folder).toHaveProperty('parent');
  });

  test('a created record is drawn through the bundle too, and reads back in the list', async () => {
    const made = await request(folders.app).post('/folders').send({ name: 'Invoices' }).expect(201);
    expect(made.body).toMatchObject({ name: 'Invoices' });
    expect(made.body).toHaveProperty('parent');
    const list = await request(folders.app).get('/folders').expect(200);
    expect(list.body.map((f: { id: string }) => f.id)).toContain(made.body.id);
  });
});

/** A tree whose every node has an id the server makes: required, read-only, at every depth. */
const OWNED_TREES = TREES.replace(
  `      required: [name]
      properties:
        name: { type: string }`,
  `      required: [id, name]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string }`,
);

describe('a request body whose schema contains itself, with a required read-only id', () => {
  let trees: MockApp;
  beforeAll(async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'owned-trees-')), 'trees.yaml');
    await writeFile(path, OWNED_TREES);
    trees = createApp(await loadContract(path), { stateless: true });
  });

  test('asks no node for the id the server makes, at any depth', async () => {
    const tree = { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] };
    await request(trees.app).post('/trees').send(tree).expect(201);
  });

  test('still refuses a node that leaves out a field a client must send, with its pointer', async () => {
    const tree = { name: 'a', children: [{ name: 'b', children: [{ children: [] }] }] };
    const res = await request(trees.app).post('/trees').send(tree).expect(422);
    expect(res.body.violations).toEqual([
      { location: 'body', pointer: '/children/0/children/0/name', message: "must have required property 'name'" },
    ]);
  });
});

/** A folder whose every node has a write-only secret: a client sends it, no answer shows it. */
const SECRET_FOLDERS = `
openapi: 3.0.3
info: { title: Folders, version: '1' }
paths:
  /folders:
    get:
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { type: array, minItems: 3, items: { $ref: '#/components/schemas/Folder' } } } }
    post:
      requestBody: { required: true, content: { application/json: { schema: { $ref: '#/components/schemas/Folder' } } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Folder' } } } }
components:
  schemas:
    Folder:
      type: object
      required: [id, name, secret, parent]
      properties:
        id: { type: string, readOnly: true }
        name: { type: string }
        secret: { type: string, writeOnly: true, minLength: 4 }
        parent: { oneOf: [{ $ref: '#/components/schemas/Folder' }, { type: string, enum: [root] }] }
`;

/** The pointers of every `secret` in a value, at any depth. */
function secretsIn(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => secretsIn(item, `${at}/${i}`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, part]) => [
    ...(name === 'secret' ? [`${at}/secret`] : []),
    ...secretsIn(part, `${at}/${name}`),
  ]);
}

describe('answers of a schema that contains itself, with a write-only field', () => {
  let path: string;
  beforeAll(async () => {
    path = join(await mkdtemp(join(tmpdir(), 'secret-folders-')), 'folders.yaml');
    await writeFile(path, SECRET_FOLDERS);
  });

  test('show it at no depth: not in placeholders, nor in bodies drawn without state', async () => {
    for (const stateless of [false, true]) {
      const { app } = createApp(await loadContract(path), { stateless });
      const listed = (await request(app).get('/folders').expect(200)).body as unknown[];
      // Some parent is a folder, so the list shows the recursion, not only its first level.
      expect(JSON.stringify(listed)).toMatch(/"parent":\{/);
      expect(secretsIn(listed)).toEqual([]);
    }
  });

  test('keep none sent inside a node in the record a create makes', async () => {
    const { app } = createApp(await loadContract(path));
    const sent = { name: 'a', secret: 'abcd', parent: { name: 'p', secret: 'efgh', parent: 'root' } };
    const made = (await request(app).post('/folders').send(sent).expect(201)).body;
    expect(made).toMatchObject({ name: 'a', parent: { name: 'p', parent: 'root' } });
    expect(secretsIn(made)).toEqual([]);
  });
});
