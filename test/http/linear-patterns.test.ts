// A contract pattern cannot stall the mock: values are matched in linear time, so one that would make a
// backtracking RegExp run for hours (`^(\w+\s?)*$` against `aaa…a!`) is refused at once, wherever it comes.
// No test here is timed: each would never finish with a backtracking engine (2^40 steps and more).
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import { createApp, loadContract, type MockApp } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const PATTERN = String.raw`^(\w+\s?)*$`;
const WORDS = `{ type: string, maxLength: 30, pattern: '${PATTERN}' }`;
/** The value from the issue: 20 s of backtracking at 41 characters, doubling with each more. */
const HOSTILE = `${'a'.repeat(40)}!`;
/** Without a maxLength beside the pattern: no length check comes first. */
const LONG_HOSTILE = `${'a'.repeat(5000)}!`;

const CONTRACT = `openapi: 3.0.3
info: { title: patterns, version: '1' }
paths:
  /items:
    get:
      operationId: searchItems
      parameters:
        - { name: q, in: query, schema: ${WORDS} }
        - { name: text, in: query, schema: { type: string, pattern: '${PATTERN}' } }
        - { name: X-Tag, in: header, schema: ${WORDS} }
      responses:
        '200':
          description: found
          content:
            application/json:
              schema: { type: object, properties: { name: ${WORDS} } }
    post:
      operationId: createItem
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, properties: { name: ${WORDS}, text: { type: string, pattern: '${PATTERN}' } } }
      responses:
        '201': { description: created }
  /items/{id}:
    get:
      operationId: getItem
      parameters:
        - { name: id, in: path, required: true, schema: { type: string, pattern: '${PATTERN}' } }
      responses:
        '200': { description: found }
  /pairs:
    get:
      operationId: findPair
      parameters:
        - { name: pair, in: query, schema: { type: string, pattern: '^(a)\\1$' } }
      responses:
        '200': { description: found }
`;

let mock: MockApp;
const warnings: string[] = [];
beforeAll(async () => {
  const contract = await loadContract(await inlineContract(CONTRACT));
  mock = createApp(contract, { logTo: (line, level) => level === 'warn' && warnings.push(line) });
});

describe('a value that would backtrack for hours is refused at once', () => {
  test('in a query parameter (the issue: 40 letters and a "!", beyond maxLength)', async () => {
    const res = await request(mock.app).get('/items').query({ q: HOSTILE });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('must match pattern');
  });

  test('in a query parameter of 5,001 characters with no maxLength', async () => {
    const res = await request(mock.app).get('/items').query({ text: LONG_HOSTILE });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('must match pattern');
  });

  test('in a header', async () => {
    const res = await request(mock.app).get('/items').set('X-Tag', HOSTILE);
    expect(res.status).toBe(422);
  });

  test('in a path parameter', async () => {
    const res = await request(mock.app).get(`/items/${LONG_HOSTILE}`);
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('must match pattern');
  });

  test('in a body property', async () => {
    const res = await request(mock.app).post('/items').send({ name: HOSTILE, text: LONG_HOSTILE });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('must match pattern');
  });

  test('in an override body checked against the response schema', () => {
    expect(() => mock.override({ operationId: 'searchItems', status: 200, body: { name: HOSTILE } })).toThrow(
      /pattern/,
    );
  });
});

describe('values that fit the pattern still fit', () => {
  test('in a query parameter, a header, a path parameter and a body', async () => {
    expect((await request(mock.app).get('/items').query({ q: 'two words', text: 'a b c' })).status).toBe(200);
    expect((await request(mock.app).get('/items').set('X-Tag', 'tag one')).status).toBe(200);
    expect((await request(mock.app).get('/items/one_two')).status).toBe(200);
    expect(
      (
        await request(mock.app)
          .post('/items')
          .send({ name: 'a name', text: 'x'.repeat(5000) })
      ).status,
    ).toBe(201);
  });
});

describe('a pattern RE2 cannot run (a backreference)', () => {
  test('still decides values as JavaScript would', async () => {
    expect((await request(mock.app).get('/pairs').query({ pair: 'aa' })).status).toBe(200);
    expect((await request(mock.app).get('/pairs').query({ pair: 'ab' })).status).toBe(422);
  });

  test('is named in a warning when the mock is made, with its operation', () => {
    const named = warnings.filter((line) => line.includes('^(a)\\\\1$'));
    expect(named).toHaveLength(1);
    expect(named[0]).toContain('findPair');
    expect(named[0]).toContain('backreference');
    // The patterns RE2 runs are not named.
    expect(warnings.join('\n')).not.toContain(PATTERN);
  });
});
