// A list whose `page` parameter is text is paged by a token (`?page=<next_page_token>`), as Google's and many
// APIs page: the token the mock hands out in the envelope, sent back as `page`, answers the next page, and a client
// that follows the tokens until none is given reads every record once.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const ITEM = `{ type: object, required: [id, name], properties: { id: { type: string, readOnly: true }, name: { type: string } } }`;
const POST = `post:
      requestBody: { content: { application/json: { schema: ${ITEM} } } }
      responses: { '201': { description: made, content: { application/json: { schema: ${ITEM} } } } }`;
const REFUSED = `'400':
          description: a page token this service did not hand out
          content:
            application/problem+json:
              schema: { type: object, properties: { title: { type: string }, detail: { type: string } } }`;

const CONTRACT = `
openapi: 3.0.3
info: { title: Tokens, version: '1' }
paths:
  /notes:
    ${POST}
    get:
      parameters:
        - { name: page, in: query, schema: { type: string } }
        - { name: limit, in: query, schema: { type: integer, default: 3 } }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [data, next_page_token]
                properties:
                  data: { type: array, items: ${ITEM} }
                  next_page_token: { type: string, nullable: true }
        ${REFUSED}
  /tags:
    ${POST}
    get:
      parameters:
        - { name: page, in: query, schema: { type: string } }
        - { name: limit, in: query, schema: { type: integer } }
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: ${ITEM} } } } }
        ${REFUSED}
`;

/** A mock of the contract with `n` records created at `path`, named `${prefix}0`… oldest first. */
async function filled(path: string, prefix: string, n: number) {
  const { app } = createApp(await loadContract(await inlineContract(CONTRACT)), { placeholders: 0 });
  for (let i = 0; i < n; i++)
    await request(app)
      .post(path)
      .send({ name: `${prefix}${i}` })
      .expect(201);
  return app;
}

describe('a text `page` where the list hands out no token', () => {
  test('is no paging: every record is listed, and ?page=1 is not refused', async () => {
    const app = await filled('/tags', 't', 25);
    expect((await request(app).get('/tags').expect(200)).body).toHaveLength(25);
    expect((await request(app).get('/tags').query({ page: '1' }).expect(200)).body).toHaveLength(25);
  });
});

describe('a list paged by a text `page`', () => {
  test('follows the tokens it hands out to the end, each record once', async () => {
    const app = await filled('/notes', 'n', 7);
    const seen: string[] = [];
    let token: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const query: Record<string, string> = token === null ? {} : { page: token };
      const body = (await request(app).get('/notes').query(query).expect(200)).body as {
        data: { name: string }[];
        next_page_token: string | null;
      };
      seen.push(...body.data.map((note) => note.name));
      token = body.next_page_token;
      if (token === null) break;
    }
    expect(token).toBeNull();
    expect(seen).toEqual(['n6', 'n5', 'n4', 'n3', 'n2', 'n1', 'n0']);
  });

  test('refuses a token it did not hand out, naming the parameter', async () => {
    const app = await filled('/notes', 'n', 0);
    const res = await request(app).get('/notes').query({ page: 'not-ours' });
    expect(res.status).toBe(400);
    expect(res.type).toBe('application/problem+json');
    expect((JSON.parse(res.text) as { detail: string }).detail).toMatch(/query \/page: .*names no page/);
  });
});
