// A body the contract gives that breaks its own schema is reported (sl-violations, the journal, one log line),
// and with `errors` answered as a 500 problem listing the violations, as Prism's --errors does.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import { createApp, loadContract, type Contract } from '../../mock/index.js';
import { checkExamples } from '../../mock/respond/report-examples.js';

let contract: Contract;
/** Its warnings are what some tests here cause on purpose. */
const quiet = () => undefined;

beforeAll(async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'response-violations-')), 'broken.yaml');
  await writeFile(
    file,
    `openapi: 3.0.3
info: { title: broken, version: '1' }
paths:
  /broken:
    get:
      operationId: getBroken
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { type: object }, examples: { one: { value: 123 } } } }
  /fine:
    get:
      operationId: getFine
      responses:
        '200':
          description: ok
          content: { application/json: { schema: { type: object }, example: { ok: true } } }
  /things:
    post:
      operationId: createThing
      requestBody:
        required: true
        content: { application/json: { schema: { type: object, required: [name] } } }
      responses:
        '201': { description: created }
        '422':
          description: bad
          content: { application/json: { schema: { type: object, required: [code] }, example: { message: no code } } }
`,
  );
  contract = await loadContract(file);
});

describe('without errors, a body that breaks its schema is sent and reported', () => {
  test('with an sl-violations header as Prism writes it', async () => {
    const mock = createApp(contract, { dynamic: false, logTo: quiet });
    const res = await request(mock.app).get('/broken').expect(200);
    expect(res.text).toBe('123');
    expect(JSON.parse(res.headers['sl-violations']!)).toEqual([
      { location: ['response', 'body'], severity: 'Error', code: 'type', message: 'must be object' },
    ]);
  });

  test("in the call's journal entry", async () => {
    const mock = createApp(contract, { dynamic: false, logTo: quiet });
    await request(mock.app).get('/broken').expect(200);
    await request(mock.app).get('/fine').expect(200);
    const [broken, fine] = mock.calls();
    expect(broken!.responseViolations).toEqual([{ pointer: '', code: 'type', message: 'must be object' }]);
    expect(fine).not.toHaveProperty('responseViolations');
  });

  test('in one log line, however many times it is sent', async () => {
    const lines: string[][] = [];
    const mock = createApp(contract, { dynamic: false, logTo: (line, level) => lines.push([level, line]) });
    await request(mock.app).get('/broken').expect(200);
    await request(mock.app).get('/broken').expect(200);
    expect(lines).toEqual([
      [
        'warn',
        'membership-mock: warning: getBroken answers 200 with a body that breaks its schema ((root): must be object). ' +
          'Reported once.',
      ],
    ]);
  });

  test("a documented refusal's example that breaks its schema is reported too, with the request's violations", async () => {
    const mock = createApp(contract, { dynamic: false, logTo: quiet });
    const res = await request(mock.app).post('/things').send({}).expect(422, { message: 'no code' });
    expect(JSON.parse(res.headers['sl-violations']!)).toEqual([
      {
        location: ['response', 'body'],
        severity: 'Error',
        code: 'required',
        message: "must have required property 'code'",
      },
      {
        location: ['request', 'body'],
        severity: 'Error',
        code: 'required',
        message: "must have required property 'name'",
      },
    ]);
    expect(mock.calls()[0]).toMatchObject({ refusal: { status: 422, documented: true } });
  });
});

describe('with errors, a body that breaks its schema answers a 500 problem', () => {
  test('listing each violation with its pointer', async () => {
    const mock = createApp(contract, { dynamic: false, errors: true, logTo: quiet });
    const res = await request(mock.app).get('/broken').expect(500);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body).toMatchObject({
      type: 'https://example.com/problems/invalid-response',
      status: 500,
      violations: [{ location: 'body', pointer: '', message: 'must be object' }],
    });
    expect(mock.calls()[0]!.responseViolations).toHaveLength(1);
  });

  test('a body that fits is answered as usual', async () => {
    const mock = createApp(contract, { dynamic: false, errors: true });
    await request(mock.app).get('/fine').expect(200, { ok: true });
  });
});

describe("the contract's examples are checked at start", () => {
  test('each broken example is found once, with where it is and why', () => {
    const found = [...checkExamples(contract.operations)].filter((e) => e !== undefined);
    expect(found).toEqual([
      {
        operationId: 'getBroken',
        code: '200',
        mediaType: 'application/json',
        name: 'one',
        violations: [{ pointer: '', code: 'type', message: 'must be object' }],
      },
      {
        operationId: 'createThing',
        code: '422',
        mediaType: 'application/json',
        name: 'default',
        violations: [{ pointer: '/code', code: 'required', message: "must have required property 'code'" }],
      },
    ]);
  });
});

describe('a deprecated parameter the request sends is a warning in sl-violations, never a refusal', () => {
  let deprecated: Contract;
  beforeAll(async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'deprecated-')), 'deprecated.yaml');
    await writeFile(
      file,
      `openapi: 3.0.3
info: { title: deprecated, version: '1' }
paths:
  /items:
    get:
      operationId: listItems
      parameters:
        - { name: productId, in: query, deprecated: true, schema: { type: string } }
        - { name: X-Legacy, in: header, deprecated: true, schema: { type: string } }
        - { name: page, in: query, schema: { type: string } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: object }, example: { ok: true } } } }
`,
    );
    deprecated = await loadContract(file);
  });

  test('a deprecated query parameter sent is listed as Prism words it, and the answer is the usual one', async () => {
    const mock = createApp(deprecated, { dynamic: false });
    const res = await request(mock.app).get('/items?productId=10&page=2').expect(200, { ok: true });
    expect(JSON.parse(res.headers['sl-violations']!)).toEqual([
      {
        location: ['request', 'query', 'productId'],
        severity: 'Warning',
        code: 'deprecated',
        message: 'Query param productId is deprecated',
      },
    ]);
  });

  test('a deprecated header is found whatever its case', async () => {
    const mock = createApp(deprecated, { dynamic: false });
    const res = await request(mock.app).get('/items').set('x-legacy', '1').expect(200);
    expect(JSON.parse(res.headers['sl-violations']!)).toMatchObject([
      { location: ['request', 'header', 'X-Legacy'], message: 'Header param X-Legacy is deprecated' },
    ]);
  });

  test('a request that sends no deprecated parameter gets no header', async () => {
    const mock = createApp(deprecated, { dynamic: false });
    const res = await request(mock.app).get('/items?page=2').expect(200);
    expect(res.headers['sl-violations']).toBeUndefined();
  });

  test('with errors, a warning alone still answers the documented body', async () => {
    const mock = createApp(deprecated, { dynamic: false, errors: true });
    const res = await request(mock.app).get('/items?productId=1').expect(200, { ok: true });
    expect(res.headers['sl-violations']).toContain('"severity":"Warning"');
  });
});
