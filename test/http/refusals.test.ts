// Every refusal is an answer the contract documents: its status, media type and a body that fits its schema;
// only where nothing fitting is documented does the mock send its own problem+json.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { AUTH, newMock } from '../support/harness.js';

/** A contract file made of paths (YAML), with the security schemes the tests use and `schemas` if given. */
async function contractFile(paths: string, { security = '', schemas = '' } = {}): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'refusals-')), 'contract.yaml');
  await writeFile(
    file,
    `openapi: 3.0.3
info: { title: refusals, version: '1' }
${security}
paths:
${paths}
components:
  schemas:${schemas || ' {}'}
  securitySchemes:
    ApiKey: { type: apiKey, in: query, name: apiKey }
    OAuth2:
      type: oauth2
      flows: { clientCredentials: { tokenUrl: /token, scopes: { read: read } } }
    Basic: { type: http, scheme: basic }
    BearerAuth: { type: http, scheme: bearer }
    HeaderKey: { type: apiKey, in: header, name: X-Api-Key }
    CookieKey: { type: apiKey, in: cookie, name: session }
    Digest: { type: http, scheme: digest }
`,
  );
  return file;
}

const LIMIT_PARAM = `      parameters:
        - { name: limit, in: query, required: true, schema: { type: integer, maximum: 10 } }`;

const LIMIT_REASON = 'query /limit: must be <= 10';
const BODY_REASON = 'body /name: must NOT have more than 5 characters';

const NAME_BODY = `      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [name]
              properties: { name: { type: string, maxLength: 5 } }`;

describe('a request that breaks the contract answers the status the operation documents', () => {
  test.each([
    { name: 'a bad parameter', method: 'get', code: '400', query: '?limit=99', body: undefined, status: 400 },
    { name: 'a bad parameter', method: 'get', code: '422', query: '?limit=99', body: undefined, status: 422 },
    { name: 'a bad body', method: 'post', code: '400', query: '', body: { name: 'far too long' }, status: 400 },
    { name: 'a bad body', method: 'post', code: '422', query: '', body: { name: 'far too long' }, status: 422 },
    // A class or default answers 422 for any request that breaks the contract, as Prism does.
    { name: 'a bad parameter', method: 'get', code: '4XX', query: '?limit=99', body: undefined, status: 422 },
    { name: 'a bad parameter', method: 'get', code: 'default', query: '?limit=99', body: undefined, status: 422 },
  ])('$name where only $code is documented answers $status, its message the reason', async (row) => {
    const { method, code, query, body, status } = row;
    const file = await contractFile(`  /things:
    ${method}:
      operationId: thing
${method === 'get' ? LIMIT_PARAM : NAME_BODY}
      responses:
        '200': { description: ok }
        '${code}':
          description: refused
          content:
            application/json:
              schema: { type: object, properties: { message: { type: string } } }
              example: { message: refused }
`);
    const mock = await newMock({ contract: file });
    const call = request(mock.app)[method as 'get' | 'post'](`/things${query}`);
    const res = await (body === undefined ? call : call.send(body)).expect(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    // The example's message gives way to the reason (refusal-text.test.ts has the rest).
    expect(res.body).toEqual({ message: body ? BODY_REASON : LIMIT_REASON });
    expect(mock.calls()[0]!.refusal).toEqual({ status, documented: true });
  });

  test('a body error prefers a documented 422 and a parameter error a documented 400 when both are', async () => {
    const file = await contractFile(`  /things:
    post:
      operationId: createThing
${LIMIT_PARAM}
${NAME_BODY}
      responses:
        '201': { description: created }
        '400':
          description: bad
          content: { application/json: { schema: { type: object }, example: { which: 400 } } }
        '422':
          description: unprocessable
          content: { application/json: { schema: { type: object }, example: { which: 422 } } }
`);
    const mock = await newMock({ contract: file });
    await request(mock.app).post('/things?limit=99').send({ name: 'ok' }).expect(400, { which: 400 });
    await request(mock.app).post('/things?limit=1').send({ name: 'far too long' }).expect(422, { which: 422 });
  });

  test('with nothing fitting documented, the mock answers its own 422 problem and the journal says so', async () => {
    const file = await contractFile(`  /things:
    get:
      operationId: listThings
${LIMIT_PARAM}
      responses:
        '200': { description: ok }
`);
    const mock = await newMock({ contract: file });
    const res = await request(mock.app).get('/things?limit=99').expect(422);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toMatchObject({ type: 'https://example.com/problems/invalid-request', status: 422 });
    expect(res.body.violations).toEqual([{ location: 'query', pointer: '/limit', message: 'must be <= 10' }]);
    expect(mock.calls()[0]!.refusal).toEqual({ status: 422, documented: false });
  });

  test('a documented response with no body answers its status with no body', async () => {
    const file = await contractFile(`  /things:
    get:
      operationId: listThings
${LIMIT_PARAM}
      responses:
        '200': { description: ok }
        '422': { description: unprocessable }
`);
    const mock = await newMock({ contract: file });
    const res = await request(mock.app).get('/things?limit=99').expect(422);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
  });

  test('our own contract still answers 400 for a bad parameter and 422 for a bad body, as documented', async () => {
    const mock = await newMock();
    const bad = await request(mock.app).get('/members/m1/passes?limit=1000').set(AUTH).expect(400);
    expect(bad.body).toMatchObject({ type: 'https://example.com/problems/invalid-request', status: 400 });
    expect(bad.body.instance).toBe('/members/m1/passes');
    const body = await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'retina' }).expect(422);
    expect(body.body.violations[0]).toMatchObject({ location: 'body', pointer: '/kind' });
    expect(mock.calls().map((c) => c.refusal)).toEqual([
      { status: 400, documented: true },
      { status: 422, documented: true },
    ]);
  });
});

describe("the body of a documented refusal fits the documented schema, with the mock's reasons where it has room", () => {
  test('problem fields the schema declares are filled in; others are not added', async () => {
    const file = await contractFile(`  /things:
    get:
      operationId: listThings
${LIMIT_PARAM}
      responses:
        '200': { description: ok }
        '400':
          description: bad
          content:
            application/json:
              schema:
                type: object
                required: [code]
                properties: { code: { type: string }, detail: { type: string }, status: { type: integer } }
              example: { code: E_LIMIT, detail: some limit is wrong, status: 400 }
`);
    const mock = await newMock({ contract: file });
    const res = await request(mock.app).get('/things?limit=99').expect(400);
    expect(res.body).toEqual({ code: 'E_LIMIT', detail: 'query /limit: must be <= 10', status: 400 });
  });

  test('a problem field that would break the schema is left as the documented body has it', async () => {
    const file = await contractFile(`  /things:
    get:
      operationId: listThings
${LIMIT_PARAM}
      responses:
        '200': { description: ok }
        '400':
          description: bad
          content:
            application/json:
              schema:
                type: object
                properties: { title: { type: string }, detail: { type: string, pattern: '^[A-Z][a-z ]+$' } }
              example: { title: Bad, detail: Too big }
`);
    const mock = await newMock({ contract: file });
    const res = await request(mock.app).get('/things?limit=99').expect(400);
    expect(res.body).toEqual({ title: 'The request does not match the contract', detail: 'Too big' });
  });

  test('without an example, the body is generated from the schema', async () => {
    const file = await contractFile(`  /things:
    get:
      operationId: listThings
${LIMIT_PARAM}
      responses:
        '200': { description: ok }
        '422':
          description: bad
          content:
            application/vnd.error+json:
              schema:
                type: object
                required: [errorCode]
                properties: { errorCode: { type: string, enum: [E1] }, detail: { type: string } }
`);
    const mock = await newMock({ contract: file });
    const res = await request(mock.app).get('/things?limit=99').expect(422);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.error\+json/);
    expect(JSON.parse(res.text)).toMatchObject({ errorCode: 'E1', detail: 'query /limit: must be <= 10' });
  });

  test('an error schema that contains itself is sampled through the bundle, not answered with our own problem', async () => {
    const file = await contractFile(
      `  /things:
    get:
      operationId: listThings
${LIMIT_PARAM}
      responses:
        '200': { description: ok }
        default:
          description: error
          content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } }
`,
      {
        schemas: `
    Error:
      type: object
      required: [message]
      properties:
        message: { type: string }
        cause: { $ref: '#/components/schemas/Error' }`,
      },
    );
    const mock = await newMock({ contract: file });
    const res = await request(mock.app).get('/things?limit=99').expect(422);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toHaveProperty('message');
    expect(mock.calls()[0]).toMatchObject({ refusal: { status: 422, documented: true } });
  });

  test('Prefer example= picks the example of the status the refusal answers', async () => {
    const file = await contractFile(`  /things:
    post:
      operationId: createThing
${NAME_BODY}
      responses:
        '201': { description: created }
        '422':
          description: bad
          content:
            application/json:
              schema: { type: object, properties: { code: { type: string }, message: { type: string } } }
              examples:
                tooShort: { value: { code: too short, message: Too short } }
                tooLong: { value: { code: too long, message: Too long } }
`);
    const mock = await newMock({ contract: file });
    await request(mock.app)
      .post('/things?__code=422&__example=tooLong')
      .send({ name: 'far too long' })
      // The example asked for is served as written: the client chose to see it.
      .expect(422, { code: 'too long', message: 'Too long' });
    // A Prefer for another status does not pick the refusal's example.
    await request(mock.app)
      .post('/things')
      .set('Prefer', 'code=201, example=tooLong')
      .send({ name: 'far too long' })
      .expect(422, { code: 'too short', message: BODY_REASON });
    const missing = await request(mock.app)
      .post('/things?__code=422&__example=nope')
      .send({ name: 'far too long' })
      .expect(404);
    expect(missing.body.type).toBe('https://example.com/problems/not-documented');
  });
});

describe('a 401 says what to send and how to turn the check off', () => {
  const OFF = /--no-security-check \(CLI\) or checkSecurity: false \(startMock, createApp\)/;

  test.each([
    {
      scheme: 'BearerAuth',
      says: 'BearerAuth (header Authorization: Bearer <any token>)',
      place: { location: 'header', pointer: '/authorization' },
      path: '/things',
      headers: { Authorization: 'Bearer anything' },
    },
    {
      scheme: 'HeaderKey',
      says: 'HeaderKey (header X-Api-Key: <any value>)',
      place: { location: 'header', pointer: '/x-api-key' },
      path: '/things',
      headers: { 'X-Api-Key': 'anything' },
    },
    {
      scheme: 'ApiKey',
      says: 'ApiKey (query parameter apiKey=<any value>)',
      place: { location: 'query', pointer: '/apiKey' },
      path: '/things?apiKey=anything',
      headers: {},
    },
    {
      scheme: 'Basic',
      says: 'Basic (header Authorization: Basic <base64 of any user:password>, such as Basic dXNlcjpwYXNz)',
      place: { location: 'header', pointer: '/authorization' },
      path: '/things',
      headers: { Authorization: 'Basic dXNlcjpwYXNz' },
    },
    {
      scheme: 'CookieKey',
      says: 'CookieKey (cookie session=<any value>)',
      place: { location: 'header', pointer: '/cookie' },
      path: '/things',
      headers: { Cookie: 'session=anything' },
    },
    {
      scheme: 'Digest',
      says: 'Digest (header Authorization: Digest username="u", realm="r", nonce="n", uri="u", response="r" (any values))',
      place: { location: 'header', pointer: '/authorization' },
      path: '/things',
      headers: { Authorization: 'Digest username="u", realm="r", nonce="n", uri="u", response="r"' },
    },
    {
      scheme: 'OAuth2',
      says: 'OAuth2 (header Authorization: Bearer <any token>)',
      place: { location: 'header', pointer: '/authorization' },
      path: '/things',
      headers: { Authorization: 'Bearer anything' },
    },
  ])('a $scheme 401 names the scheme, says any value works, and how to turn the check off', async (c) => {
    const file = await contractFile(
      `  /things:
    get:
      operationId: listThings
      responses:
        '200': { description: ok }
`,
      { security: `security:\n  - ${c.scheme}: []` },
    );
    const mock = await newMock({ contract: file });
    const res = await request(mock.app).get('/things').expect(401);
    expect(res.body.detail).toContain(`security schemes: ${c.says}.`);
    expect(res.body.detail).toContain('any value works');
    expect(res.body.detail).toMatch(OFF);
    expect(res.body.violations).toEqual([{ ...c.place, message: expect.stringContaining(c.says) }]);
    // What the detail suggests is what passes.
    await request(mock.app).get(c.path).set(c.headers).expect(200);
  });

  test('a 401 lists each way in, the schemes one requirement asks for together', async () => {
    const file = await contractFile(
      `  /things:
    get:
      operationId: listThings
      responses:
        '200': { description: ok }
`,
      { security: `security:\n  - BearerAuth: []\n  - HeaderKey: []\n    ApiKey: []` },
    );
    const mock = await newMock({ contract: file });
    const res = await request(mock.app).get('/things').expect(401);
    expect(res.body.detail).toContain(
      'security schemes: BearerAuth (header Authorization: Bearer <any token>); or HeaderKey (header X-Api-Key: ' +
        '<any value>) and ApiKey (query parameter apiKey=<any value>), together.',
    );
  });

  test('a 401 turned off by checkSecurity: false answers without credentials', async () => {
    const file = await contractFile(
      `  /things:
    get:
      operationId: listThings
      responses:
        '200': { description: ok }
`,
      { security: 'security:\n  - BearerAuth: []' },
    );
    const mock = await newMock({ contract: file, checkSecurity: false });
    await request(mock.app).get('/things').expect(200);
  });

  test('a documented 401 keeps only the fields its schema has, the advice in its detail', async () => {
    const file = await contractFile(
      `  /things:
    get:
      operationId: listThings
      responses:
        '200': { description: ok }
        '401':
          description: unauthorized
          content:
            application/json:
              schema:
                type: object
                additionalProperties: false
                required: [title]
                properties: { title: { type: string }, detail: { type: string } }
`,
      { security: 'security:\n  - BearerAuth: []' },
    );
    const mock = await newMock({ contract: file });
    const res = await request(mock.app).get('/things').expect(401);
    expect(Object.keys(res.body).sort()).toEqual(['detail', 'title']);
    expect(res.body.detail).toMatch(OFF);
  });
});

describe('other refusals on a routed operation use what the operation documents', () => {
  test('a 401 answers the documented example and lists every scheme of the requirement', async () => {
    const file = await contractFile(
      `  /things:
    get:
      operationId: listThings
      responses:
        '200': { description: ok }
        '401':
          description: unauthorized
          content: { application/json: { schema: { type: string }, example: unauthorized } }
`,
      {
        security: `security:
  - OAuth2: [read]
    Basic: []`,
      },
    );
    const mock = await newMock({ contract: file });
    const res = await request(mock.app).get('/things').expect(401);
    expect(res.body).toBe('unauthorized');
    // Both schemes the requirement asks for together, as Prism lists them.
    expect(res.headers['www-authenticate']).toBe('OAuth2,Basic realm="*"');
  });

  test("a missing record from state answers the documented 404's body", async () => {
    const file = await contractFile(
      `  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Thing' } } } }
    post:
      operationId: createThing
      requestBody:
        content: { application/json: { schema: { $ref: '#/components/schemas/NewThing' } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
  /things/{thingId}:
    get:
      operationId: getThing
      parameters: [{ name: thingId, in: path, required: true, schema: { type: string } }]
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
        '404':
          description: missing
          content:
            application/json:
              schema: { type: object, required: [error], properties: { error: { type: string }, detail: { type: string } } }
              example: { error: not_found }
`,
      {
        schemas: `
    NewThing: { type: object, properties: { name: { type: string } } }
    Thing: { type: object, required: [id, name], properties: { id: { type: string }, name: { type: string } } }`,
      },
    );
    const mock = await newMock({ contract: file });
    const res = await request(mock.app).get('/things/nope').expect(404);
    expect(res.body).toEqual({
      error: 'not_found',
      detail: 'getThing: thing nope does not exist (it was never created, or was deleted).',
    });
    expect(mock.calls()[0]!.refusal).toEqual({ status: 404, documented: true });
  });

  test('a Prefer code the operation does not document answers 404, as Prism does', async () => {
    const file = await contractFile(`  /things:
    get:
      operationId: listThings
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: string }, example: ok } } }
`);
    const mock = await newMock({ contract: file });
    const res = await request(mock.app).get('/things?__code=304').expect(404);
    expect(res.body).toMatchObject({ type: 'https://example.com/problems/not-documented', status: 404 });
    expect(mock.calls()[0]!.refusal).toEqual({ status: 404, documented: false });
  });
});

describe('the journal says whether each refusal was documented', () => {
  test("a path no operation has is the mock's own 404, not documented", async () => {
    const mock = await newMock();
    await request(mock.app).get('/nowhere').set(AUTH).expect(404);
    expect(mock.calls()[0]!.refusal).toEqual({ status: 404, documented: false });
  });

  test('an answer that is no refusal has no refusal entry', async () => {
    const mock = await newMock();
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    expect(mock.calls()[0]).not.toHaveProperty('refusal');
  });
});
