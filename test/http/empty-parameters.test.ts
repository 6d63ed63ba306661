// A parameter sent with an empty value is checked against its schema, as the empty string, in every mode:
// the stateless mode and the default (stateful) mode refuse and accept the same requests.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { newMock } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

const CONTRACT = `openapi: 3.0.3
info: { title: empty values, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - { name: cursor, in: query, schema: { type: string, minLength: 1 } }
        - { name: code, in: query, schema: { type: string, pattern: '^[a-z]+$' } }
        - { name: color, in: query, schema: { type: string, enum: [red, blue] } }
        - { name: since, in: query, schema: { type: string, format: date } }
        - { name: limit, in: query, schema: { type: integer, minimum: 1 } }
        - { name: tag, in: query, schema: { type: string } }
        - { name: note, in: query, allowEmptyValue: true, schema: { type: string, minLength: 1 } }
        - { name: X-Trace, in: header, schema: { type: string, minLength: 1 } }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  data: { type: array, items: { $ref: '#/components/schemas/Thing' } }
                  next_cursor: { type: string }
        '400':
          description: bad request
          content:
            application/problem+json:
              schema: { type: object, properties: { violations: { type: array, items: { type: object } } } }
    post:
      operationId: createThing
      requestBody:
        content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
  /things/{id}:
    get:
      operationId: getThing
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
        - { name: q, in: query, required: true, schema: { type: string } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
  /items:
    get:
      operationId: listItems
      parameters: [{ name: cursor, in: query, schema: { type: string } }]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { type: object, properties: { data: { type: array, items: { $ref: '#/components/schemas/Thing' } } } }
        '400': { description: bad request, content: { application/problem+json: { schema: { type: object } } } }
    post:
      operationId: createItem
      requestBody:
        content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
      responses:
        '201': { description: made, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
  /labels:
    get:
      operationId: listLabels
      parameters:
        - { name: filter, in: query, required: true, allowEmptyValue: true, schema: { type: string, minLength: 1 } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: { type: string } } } } }
components:
  schemas:
    Thing:
      type: object
      required: [id]
      properties: { id: { type: string }, name: { type: string } }
`;

const MODES = [{ stateless: true }, { stateless: false }];

describe.each(MODES)('with stateless: $stateless', ({ stateless }) => {
  test.each([
    ['an empty value against minLength', '/things?cursor=', {}, '/cursor'],
    ['an empty value against a pattern', '/things?code=', {}, '/code'],
    ['an empty value against an enum', '/things?color=', {}, '/color'],
    ['an empty value against a format', '/things?since=', {}, '/since'],
    ['an empty value for an integer', '/things?limit=', {}, '/limit'],
    ['a name without a value against minLength', '/things?cursor', {}, '/cursor'],
    ['an empty header against minLength', '/things', { 'X-Trace': '' }, '/x-trace'],
  ])('%s is refused with 400 naming the parameter', async (_name, path, headers, pointer) => {
    const mock = await newMock({ contract: await inlineContract(CONTRACT), stateless });
    const res = await request(mock.app).get(path).set(headers).expect(400);
    expect(res.body.violations.map((v: { pointer: string }) => v.pointer)).toEqual([pointer]);
  });

  test.each([
    ['an empty value the schema allows', '/things?tag='],
    ['an empty value with allowEmptyValue: true, whatever its schema', '/things?note='],
    ['a required parameter sent empty with allowEmptyValue: true', '/labels?filter='],
    ['an empty cursor the schema allows (the first page)', '/items?cursor='],
  ])('%s is accepted', async (_name, path) => {
    const mock = await newMock({ contract: await inlineContract(CONTRACT), stateless });
    await request(mock.app).get(path).expect(200);
  });

  test('a required parameter sent empty is refused as missing', async () => {
    const mock = await newMock({ contract: await inlineContract(CONTRACT), stateless });
    const res = await request(mock.app).get('/things/t1?q=').expect(422);
    expect(res.body.violations.map((v: { pointer: string }) => v.pointer)).toEqual(['/q']);
  });
});
