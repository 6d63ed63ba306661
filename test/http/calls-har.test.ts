import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { beforeEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

const require = createRequire(import.meta.url);
/** HAR 1.2 as the har-schema package writes it (JSON Schema draft-06), one schema a part. */
const harSchemas = require('har-schema') as Record<string, object>;

function harValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  for (const schema of Object.values(harSchemas)) ajv.addSchema(schema);
  return ajv.getSchema('har.json#')!;
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: Record<string, unknown> & { postData?: { text: string; _truncated?: { bytes: number } } };
  response: Record<string, unknown> & { status: number; content: { text?: string; size: number } };
  timings: { wait: number };
  _operationId: string | null;
  _violations: unknown[];
  _fault?: string;
}

let mock: MockApp;

beforeEach(async () => {
  mock = await newMock({ journalBodyLimit: 64 });
});

async function har(query = ''): Promise<{ log: { version: string; entries: HarEntry[] } }> {
  const res = await request(mock.app).get(`/__mock/calls.har${query}`).expect(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers['content-disposition']).toBe('attachment; filename="membership-mock-calls.har"');
  return res.body;
}

describe('GET /__mock/calls.har', () => {
  test('is a HAR 1.2 log valid against the HAR schema, one entry a call', async () => {
    await request(mock.app).post('/members/m1/credentials?trace=1').set(AUTH).send({ kind: 'pin' }).expect(201);
    await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'x' }).expect(422);
    await request(mock.app).get('/nowhere').expect(404);
    mock.override({ operationId: 'listPasses', fault: 'drop' });
    await request(mock.app)
      .get('/members/m1/passes')
      .set(AUTH)
      .catch(() => undefined);
    const archive = await har();
    const validate = harValidator();
    expect(validate(archive), JSON.stringify(validate.errors)).toBe(true);
    expect(archive.log.version).toBe('1.2');
    expect(archive.log.entries).toHaveLength(4);
  });

  test('is streamed a call at a time (no length known beforehand), the journal read a hundred calls at a time', async () => {
    mock = await newMock({ journalLimit: 1000 });
    for (let i = 0; i < 250; i++) await request(mock.app).get(`/members/m${i}/passes`).set(AUTH).expect(200);
    const res = await request(mock.app).get('/__mock/calls.har').expect(200);
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const paths = (res.body as { log: { entries: { request: { url: string } }[] } }).log.entries.map(
      (e) => new URL(e.request.url).pathname,
    );
    expect(paths).toEqual(Array.from({ length: 250 }, (_, i) => `/members/m${i}/passes`));
  });

  test('an entry has the request and response with headers, query string, bodies as text, and its time', async () => {
    mock = await newMock();
    mock.override({ operationId: 'createCredential', delay: 30 });
    await request(mock.app).post('/members/m1/credentials?trace=1').set(AUTH).send({ kind: 'pin' }).expect(201);
    const [call] = mock.calls();
    const [entry] = (await har()).log.entries;
    expect(entry).toMatchObject({
      startedDateTime: call!.time,
      time: call!.ms,
      request: {
        method: 'POST',
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/members\/m1\/credentials\?trace=1$/),
        queryString: [{ name: 'trace', value: '1' }],
        headers: expect.arrayContaining([{ name: 'content-type', value: 'application/json' }]),
        postData: { mimeType: 'application/json', text: '{"kind":"pin"}' },
        bodySize: 14,
      },
      response: { status: 201, statusText: 'Created', content: { mimeType: 'application/json' } },
      timings: { send: 0, wait: call!.ms, receive: 0 },
      _operationId: 'createCredential',
      _violations: [],
    });
    expect(JSON.parse(entry!.response.content.text!)).toEqual(call!.response.body);
    expect(call!.ms).toBeGreaterThanOrEqual(30);
  });

  test('a form body is its urlencoded text, its fields as params, and its size that of the text', async () => {
    mock = await newMock({
      contract: await inlineContract(`openapi: 3.0.3
info: { title: Forms, version: '1' }
paths:
  /login:
    post:
      operationId: login
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema: { type: object, properties: { user: { type: string }, x: { type: string } } }
      responses:
        '204': { description: signed in }
`),
    });
    const sent = 'user=bob+smith&x=%26';
    await request(mock.app)
      .post('/login')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(sent)
      .expect(204);
    const [entry] = (await har()).log.entries;
    expect(entry!.request).toMatchObject({
      postData: {
        mimeType: 'application/x-www-form-urlencoded',
        text: sent,
        params: [
          { name: 'user', value: 'bob smith' },
          { name: 'x', value: '&' },
        ],
      },
      bodySize: sent.length,
    });
    expect(harValidator()(await har())).toBe(true);
  });

  test('a body the journal cut says so, with the size received', async () => {
    const label = 'x'.repeat(100);
    await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'pin', label }).expect(201);
    const [entry] = (await har()).log.entries;
    const bytes = Buffer.byteLength(JSON.stringify({ kind: 'pin', label }));
    expect(entry!.request.postData).toMatchObject({ _truncated: { bytes } });
    expect(entry!.request.bodySize).toBe(bytes);
  });

  test('a dropped call has status 0 and its fault; a refused one its violations', async () => {
    await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'x' }).expect(422);
    mock.override({ operationId: 'listPasses', fault: 'drop' });
    await request(mock.app)
      .get('/members/m1/passes')
      .set(AUTH)
      .catch(() => undefined);
    const [refused, dropped] = (await har()).log.entries;
    expect(refused!._violations).toEqual(mock.calls()[0]!.violations);
    expect(refused!._violations.length).toBeGreaterThan(0);
    expect(dropped).toMatchObject({ response: { status: 0 }, _fault: 'drop' });
  });

  test('takes the filters of GET /__mock/calls, and refuses an unknown one', async () => {
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    await request(mock.app).get('/nowhere').expect(404);
    const entries = (await har('?operationId=listPasses')).log.entries;
    expect(entries.map((e) => e._operationId)).toEqual(['listPasses']);
    await request(mock.app).get('/__mock/calls.har?status=200').expect(400);
  });

  test('holds the named session’s calls only', async () => {
    await request(mock.app).get('/members/m1/passes').set(AUTH).set('X-Mock-Session', 'a').expect(200);
    expect((await har()).log.entries).toHaveLength(0);
    const res = await request(mock.app).get('/__mock/calls.har').set('X-Mock-Session', 'a').expect(200);
    expect(res.body.log.entries).toHaveLength(1);
  });
});

describe('the journal’s ms', () => {
  test('is the time from arrival to the answer decided, its delay included', async () => {
    mock.override({ operationId: 'listPasses', delay: 40, times: 1 });
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    await request(mock.app).get('/members/m2/passes').set(AUTH).expect(200);
    const [delayed, quick] = mock.calls();
    // A lower bound only: how long an answer takes depends on the machine, a delay sets its least.
    expect(delayed!.ms).toBeGreaterThanOrEqual(40);
    expect(quick!.ms).toEqual(expect.any(Number));
    expect(quick!.ms).toBeGreaterThanOrEqual(0);
  });
});
