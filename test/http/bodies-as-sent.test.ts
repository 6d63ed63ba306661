// A body whose parsed value does not say how it was sent (a JSON string, a form) is exported as it was sent: the
// calls API keeps `body` parsed and adds `bodyJson` or `bodyText`, and the HAR export, the inspector's curl and
// the Pact use them.
import request from 'supertest';
import { beforeEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import type { CallRecord } from '../../mock/journal/journal.js';
import { newMock } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

const curlModule = new URL('../../mock/inspector/assets/curl.js', import.meta.url).href;
const { toCurl } = (await import(curlModule)) as { toCurl(call: CallRecord, origin: string): string };

/** A JSON string taken and answered, a JSON object taken, and a form. */
const NOTES = `openapi: 3.0.3
info: { title: Notes, version: '1' }
paths:
  /notes:
    post:
      operationId: addNote
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: string }
      responses:
        '200':
          description: the note as kept
          content:
            application/json:
              schema: { type: string, enum: ['kept "as is"'] }
  /labels:
    post:
      operationId: addLabel
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, properties: { name: { type: string } } }
      responses:
        '204': { description: added }
  /login:
    post:
      operationId: login
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              properties:
                user: { type: string }
                x: { type: string }
      responses:
        '204': { description: signed in }
`;

const JSON_TYPE = { 'Content-Type': 'application/json' };
const FORM_TYPE = { 'Content-Type': 'application/x-www-form-urlencoded' };
/** A form as a browser may send it: a space as `%20`, a repeated name around another. */
const FORM = 'user=bob%20smith&tag=a&x=%26&tag=b';

let mock: MockApp;

beforeEach(async () => {
  mock = await newMock({ contract: await inlineContract(NOTES), journalBodyLimit: 64 });
});

/** The calls as GET /__mock/calls hands them out (what the inspector reads). */
async function listed(): Promise<CallRecord[]> {
  return (await request(mock.app).get('/__mock/calls').expect(200)).body.calls as CallRecord[];
}

interface HarEntry {
  request: { postData?: { text: string; params?: unknown[] }; bodySize: number };
  response: { content: { text?: string; size: number } };
}

async function harEntries(): Promise<HarEntry[]> {
  return (await request(mock.app).get('/__mock/calls.har').expect(200)).body.log.entries as HarEntry[];
}

describe('a JSON body that is a string', () => {
  beforeEach(async () => {
    await request(mock.app).post('/notes').set(JSON_TYPE).send('"hello"').expect(200);
  });

  test('is listed parsed, marked as sent as JSON, request and response', async () => {
    const [call] = await listed();
    expect(call).toMatchObject({ body: 'hello', bodyJson: true });
    expect(call).not.toHaveProperty('bodyText');
    expect(call!.response).toMatchObject({ body: 'kept "as is"', bodyJson: true });
    expect(mock.calls()[0]).toMatchObject({ body: 'hello', bodyJson: true });
  });

  test('is exported to HAR as its JSON text, quotes included, request and response', async () => {
    const [entry] = await harEntries();
    expect(entry!.request.postData).toMatchObject({ text: '"hello"' });
    expect(entry!.request.bodySize).toBe(7);
    expect(entry!.response.content).toMatchObject({ text: '"kept \\"as is\\""', size: 16 });
  });

  test('is sent again by the inspector’s curl as its JSON text', async () => {
    const [call] = await listed();
    expect(toCurl(call!, 'http://127.0.0.1:4010')).toContain(`--data-raw '"hello"'`);
  });

  test('makes a HAR the mock replays: its answer is JSON again', async () => {
    const har = (await request(mock.app).get('/__mock/calls.har').expect(200)).body as object;
    const imported = await request(mock.app).post('/__mock/har').send(har).expect(200);
    expect(imported.body).toMatchObject({ entries: 1, refused: [] });
    const res = await request(mock.app).post('/notes').set(JSON_TYPE).send('"again"').expect(200);
    expect(res.text).toBe('"kept \\"as is\\""');
  });
});

describe('a JSON body that is an object', () => {
  test('is listed parsed and unmarked: only JSON gives an object', async () => {
    await request(mock.app).post('/labels').set(JSON_TYPE).send('{"name":"Gold"}').expect(204);
    const [call] = await listed();
    expect(call!.body).toEqual({ name: 'Gold' });
    expect(call).not.toHaveProperty('bodyText');
    expect(call).not.toHaveProperty('bodyJson');
    const [entry] = await harEntries();
    expect(entry!.request.postData).toMatchObject({ text: '{"name":"Gold"}' });
  });
});

describe('a form body', () => {
  beforeEach(async () => {
    await request(mock.app).post('/login').set(FORM_TYPE).send(FORM).expect(204);
  });

  test('is listed as its fields, with its text as sent beside it', async () => {
    const [call] = await listed();
    expect(call).toMatchObject({ body: { user: 'bob smith', tag: ['a', 'b'], x: '&' }, bodyText: FORM });
  });

  test('is exported to HAR as the text sent, its fields as params', async () => {
    const [entry] = await harEntries();
    expect(entry!.request.postData).toMatchObject({ text: FORM });
    expect(entry!.request.postData!.params).toHaveLength(4);
    expect(entry!.request.bodySize).toBe(FORM.length);
  });

  test('is sent again by the inspector’s curl as the text sent', async () => {
    const [call] = await listed();
    expect(toCurl(call!, 'http://127.0.0.1:4010')).toContain(`--data-raw '${FORM}'`);
  });

  test('is written in a Pact as the text sent', () => {
    const pact = mock.pact({ consumer: 'web', provider: 'notes' });
    expect(pact.interactions[0]!.request.body).toBe(FORM);
  });

  test('longer than the journal keeps, is the start of the text sent', async () => {
    const long = `user=${'a%20'.repeat(30)}`;
    await request(mock.app).post('/login').set(FORM_TYPE).send(long).expect(204);
    const [, call] = await listed();
    expect(call).toMatchObject({ body: long.slice(0, 64), truncated: { bytes: long.length } });
    expect(call).not.toHaveProperty('bodyText');
  });
});

describe('a form body read in its charset', () => {
  /** superagent types serialize as giving text, but sends bytes it is given as they are (not a form of indexes). */
  const asSent = ((bytes: Buffer) => bytes) as unknown as (body: unknown) => string;

  test('of raw ISO-8859-1 bytes is listed as the fields read, and its text as read', async () => {
    const latin1 = Buffer.from('user=Jos\xE9', 'latin1');
    await request(mock.app)
      .post('/login')
      .set('Content-Type', 'application/x-www-form-urlencoded; charset=iso-8859-1')
      .serialize(asSent)
      .send(latin1)
      .expect(204);
    const [call] = await listed();
    expect(call).toMatchObject({ body: { user: 'José' }, bodyText: 'user=José' });
    expect(mock.calls()[0]).toMatchObject({ body: { user: 'José' } });
  });

  test('of UTF-8 after a byte order mark is listed without the mark', async () => {
    await request(mock.app)
      .post('/login')
      .set(FORM_TYPE)
      .serialize(asSent)
      .send(Buffer.from('\uFEFFuser=ann', 'utf8'))
      .expect(204);
    const [call] = await listed();
    expect(call).toMatchObject({ body: { user: 'ann' }, bodyText: 'user=ann' });
  });
});
