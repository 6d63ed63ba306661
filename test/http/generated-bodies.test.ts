import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import { createApp, loadContract, type Contract } from '../../mock/index.js';
import { checkResponse } from '../../mock/prism/check-response.js';

// Small contracts that reproduce cases of real ones (DigitalOcean's agents, Kubernetes' CRDs, Prism's
// suite): a schema that refers to itself, XML, and objects documented under text media types.
const CONTRACT = `
openapi: 3.0.3
info: { title: Bodies, version: '1' }
paths:
  /tree:
    get:
      responses:
        '200':
          description: A tree
          content:
            application/json:
              schema:
                type: object
                required: [root]
                properties:
                  root: { $ref: '#/components/schemas/Node' }
  /pet:
    get:
      responses:
        '200':
          description: A pet
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Pet' }
            application/xml:
              schema: { $ref: '#/components/schemas/Pet' }
  /greeting:
    get:
      responses:
        '200':
          description: A greeting as text, wrongly documented as an object
          content:
            text/plain:
              schema:
                type: object
                properties:
                  name: { type: string, example: Clark }
components:
  schemas:
    Node:
      type: object
      required: [name]
      properties:
        name: { type: string }
        children:
          type: array
          items: { $ref: '#/components/schemas/Node' }
    Pet:
      type: object
      required: [name]
      properties:
        id: { type: integer }
        name: { type: string, example: doggie }
`;

let contract: Contract;

beforeAll(async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'bodies-')), 'bodies.yaml');
  await writeFile(file, CONTRACT);
  contract = await loadContract(file);
});

const spec = (path: string) => contract.operations.find((op) => op.path === path)!.spec;

describe('bodies for schemas that refer to themselves', () => {
  test('dynamic bodies answer 200 and fit the contract', async () => {
    const mock = createApp(contract, { stateless: true, dynamic: true });
    for (const seed of ['a', 'b', 'c', 'd', 'e']) {
      const res = await request(mock.app).get(`/tree?seed=${seed}`).expect(200);
      expect(checkResponse(spec('/tree'), { status: 200, headers: res.headers, body: res.body })).toEqual([]);
    }
  });

  // Prism's static mode stops a recursion with an empty object (even where it lacks a required property).
  test('static bodies answer 200 with the recursion sampled once, as Prism’s static mode does', async () => {
    const mock = createApp(contract, { stateless: true, dynamic: false });
    const res = await request(mock.app).get('/tree').expect(200);
    expect(res.body).toEqual({ root: { name: 'string', children: [{ name: 'string', children: [{}] }] } });
  });
});

describe('serialisation by media type', () => {
  test('an XML answer is the object as XML, as Prism sends it', async () => {
    const mock = createApp(contract, { stateless: true, dynamic: false });
    const res = await request(mock.app).get('/pet').set('Accept', 'application/xml').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.text).toBe('<xml><id>0</id><name>doggie</name></xml>');
  });

  test.each([true, false])(
    'an object under text/plain is a 500 problem, never "[object Object]" (dynamic %s)',
    async (dynamic) => {
      const mock = createApp(contract, { stateless: true, dynamic });
      const res = await request(mock.app).get('/greeting').expect(500);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 500, title: 'Cannot serialise complex objects as text' });
    },
  );
});

describe('a schema too complex to sample', () => {
  test("answers the mock's own 500 problem even where a default response is documented", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'too-complex-'));
    const file = join(dir, 'contract.yaml');
    await writeFile(
      file,
      `openapi: 3.0.2
info: { title: todos, version: '1' }
paths:
  /todos:
    get:
      responses:
        default:
          description: default response
          content: { application/json: { schema: { type: array, items: { type: string }, minItems: 3000 } } }
`,
    );
    const mock = createApp(await loadContract(file), { stateless: true, dynamic: false });
    const res = await request(mock.app).get('/todos').expect(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 500, title: 'Schema too complex' });
  });
});
