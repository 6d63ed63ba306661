import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { newMock } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

/** A GET whose 200 answers one fixed string, so an answer says which operation it came from. */
const says = (id: string, word = id) =>
  `{ operationId: ${id}, responses: { '200': { description: ok, content: { application/json: { schema: { type: string, enum: [${word}] } } } } } }`;

async function mockOf(yaml: string, options: { cors?: boolean } = {}) {
  return newMock({ contract: await inlineContract(yaml), stateless: true, ...options });
}

describe('paths declared with a trailing slash', () => {
  const contract = `openapi: 3.0.3
info: { title: slashes, version: '1' }
paths:
  /api/:
    get: ${says('slash')}
  /core/:
    get: ${says('core')}
  /core/v1:
    get: ${says('v1')}
  /things:
    get: ${says('things')}
  /things/{id}:
    get:
      operationId: thing
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok, content: { application/json: { schema: { type: string, enum: [thing] } } } } }
`;

  test.each([
    ['a path declared with its trailing slash, sent with it', '/api/', 'slash'],
    ['a path declared with a trailing slash, sent without it', '/core', 'core'],
    ['a path declared without a trailing slash, sent with one', '/things/', 'things'],
    ['a path declared without a trailing slash, sent as declared', '/core/v1', 'v1'],
  ])('%s is routed to it', async (_name, path, word) => {
    const mock = await mockOf(contract);
    const res = await request(mock.app).get(path).expect(200);
    expect(res.body).toBe(word);
  });

  test('a trailing slash alone never fills a path parameter: /things/ is the list, not a thing', async () => {
    const mock = await mockOf(contract);
    expect((await request(mock.app).get('/things/').expect(200)).body).toBe('things');
  });

  test('a path declared both with and without the slash routes each form to its own operation', async () => {
    const mock = await mockOf(`openapi: 3.0.3
info: { title: both, version: '1' }
paths:
  /api:
    get: ${says('bare')}
  /api/:
    get: ${says('slashed', 'slash')}
`);
    expect((await request(mock.app).get('/api').expect(200)).body).toBe('bare');
    expect((await request(mock.app).get('/api/').expect(200)).body).toBe('slash');
  });

  test('a wrong method on a path declared with a trailing slash answers 405 with Allow', async () => {
    const mock = await mockOf(contract);
    const res = await request(mock.app).delete('/api/').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
  });
});

describe('operations are served under their servers’ paths too', () => {
  const openapi = `openapi: 3.0.3
info: { title: servers, version: '1' }
servers:
  - url: https://api.example.com/v1/
  - url: /relative
  - url: '{scheme}://{host}/{version}/api'
    variables:
      scheme: { default: https }
      host: { default: example.com }
      version: { default: v3, enum: [v3, v4] }
paths:
  /pets:
    get: ${says('pets')}
  /owners:
    servers: [{ url: /people }]
    get: ${says('owners')}
`;

  test.each([
    ['at the root, as Prism serves them', '/pets'],
    ['under the path of an absolute server URL', '/v1/pets'],
    ['under a relative server URL', '/relative/pets'],
    ['under a server URL with the default of its variables', '/v3/api/pets'],
    ['under a server URL with another enum value of a variable', '/v4/api/pets'],
    ['with a trailing slash under a server path', '/v1/pets/'],
  ])('%s', async (_name, path) => {
    const mock = await mockOf(openapi);
    expect((await request(mock.app).get(path).expect(200)).body).toBe('pets');
  });

  test('an operation with servers of its own is served under those, not under the document’s', async () => {
    const mock = await mockOf(openapi);
    expect((await request(mock.app).get('/people/owners').expect(200)).body).toBe('owners');
    await request(mock.app).get('/v1/owners').expect(404);
  });

  test('a path not under any server path is a 404 that names the server paths', async () => {
    const mock = await mockOf(openapi);
    const res = await request(mock.app).get('/v2/pets').expect(404);
    expect(res.body.detail).toContain("under its servers' paths");
    expect(res.body.detail).toContain('/v1');
  });

  test('a wrong method under a server path answers 405 with Allow', async () => {
    const mock = await mockOf(openapi);
    const res = await request(mock.app).post('/v1/pets').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  test.each([
    ['a Swagger 2 basePath with host and schemes', 'host: api.example.com\nschemes: [https]\nbasePath: /v2\n'],
    ['a Swagger 2 basePath alone', 'basePath: /v2\n'],
  ])('%s serves the operations under it', async (_name, lines) => {
    const mock = await mockOf(`swagger: '2.0'
info: { title: base, version: '1' }
${lines}paths:
  /pets:
    get:
      operationId: listPets
      responses: { '200': { description: ok } }
`);
    await request(mock.app).get('/v2/pets').expect(200);
    await request(mock.app).get('/pets').expect(200);
    await request(mock.app).get('/v3/pets').expect(404);
  });
});

describe('HEAD', () => {
  const contract = `openapi: 3.0.3
info: { title: heads, version: '1' }
paths:
  /todos:
    head:
      operationId: headTodos
      responses:
        '200':
          description: ok
          headers: { nonce: { schema: { type: string, example: abc } } }
    post:
      operationId: createTodo
      responses: { '201': { description: created } }
  /notes:
    get: ${says('notes')}
  /drafts:
    post:
      operationId: createDraft
      responses: { '201': { description: created } }
`;

  test('an explicit head operation answers with its documented headers and no body', async () => {
    const mock = await mockOf(contract);
    const res = await request(mock.app).head('/todos').expect(200);
    expect(res.headers.nonce).toBe('abc');
    expect(res.text).toBeUndefined();
  });

  test('HEAD on a path with a GET and no head operation answers as the GET would, without a body', async () => {
    const mock = await mockOf(contract);
    const res = await request(mock.app).head('/notes').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  test('HEAD on a path with neither GET nor head answers 405 with Allow', async () => {
    const mock = await mockOf(contract);
    const res = await request(mock.app).head('/drafts').expect(405);
    expect(res.headers.allow).toBe('POST, OPTIONS');
  });

  test('a wrong method on a path with a head operation lists HEAD once in Allow', async () => {
    const mock = await mockOf(contract);
    const res = await request(mock.app).delete('/todos').expect(405);
    expect(res.headers.allow).toBe('HEAD, POST, OPTIONS');
  });
});

describe('OPTIONS with CORS off', () => {
  const contract = `openapi: 3.0.3
info: { title: options, version: '1' }
paths:
  /todos:
    get: ${says('todos')}
  /test:
    options: ${says('options')}
`;

  test('OPTIONS on a path whose operations lack it answers 405 with Allow', async () => {
    const mock = await mockOf(contract, { cors: false });
    const res = await request(mock.app).options('/todos').expect(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  test('an options operation of the contract is answered as documented', async () => {
    const mock = await mockOf(contract, { cors: false });
    expect((await request(mock.app).options('/test').expect(200)).body).toBe('options');
  });

  test('with CORS on, a plain OPTIONS (no preflight) on a path without one answers 204 with Allow', async () => {
    const mock = await mockOf(contract);
    const res = await request(mock.app).options('/todos').expect(204);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
  });
});
