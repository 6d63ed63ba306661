// Lists paged by number (`?page=2&per_page=5`) or by offset (`?offset=10&limit=5`), as most APIs page: each page
// answers the records it names, every record is reachable, and an envelope's totals count the records held.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { createApp, loadContract } from '../../mock/index.js';
import { inlineContract } from '../support/inline-contract.js';

const ITEM = `{ type: object, required: [id, name], properties: { id: { type: string, readOnly: true }, name: { type: string } } }`;
const q = (name: string, schema: string) => `{ name: ${name}, in: query, schema: ${schema} }`;
const created = `'201': { description: made, content: { application/json: { schema: ${ITEM} } } }`;
const post = `post: { requestBody: { content: { application/json: { schema: ${ITEM} } } }, responses: { ${created} } }`;

const CONTRACT = `
openapi: 3.0.3
info: { title: Pages, version: '1' }
paths:
  /numbered:
    ${post}
    get:
      parameters: [${q('page', '{ type: integer, minimum: 1, default: 1 }')}, ${q('per_page', '{ type: integer, default: 5 }')}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [data, total, total_pages, page]
                properties:
                  data: { type: array, items: ${ITEM} }
                  total: { type: integer }
                  total_pages: { type: integer }
                  page: { type: integer }
  /from-zero:
    ${post}
    get:
      parameters: [${q('page', '{ type: integer, minimum: 0, default: 0 }')}, ${q('size', '{ type: integer, default: 4 }')}]
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: ${ITEM} } } } }
  /offsets:
    ${post}
    get:
      parameters: [${q('offset', '{ type: integer, minimum: 0 }')}, ${q('limit', '{ type: integer, default: 5 }')}]
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: ${ITEM} } } } }
  /events:
    ${post}
    get:
      parameters: [${q('start', '{ type: integer, format: int64 }')}]
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: ${ITEM} } } } }
  /reports:
    ${post}
    get:
      parameters: [${q('page', '{ type: integer }')}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                required: [data]
                properties: { data: { type: array, items: ${ITEM} }, total_pages: { type: integer, minimum: 1 } }
  /limited:
    ${post}
    get:
      parameters: [${q('limit', '{ type: integer, maximum: 30 }')}]
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, maxItems: 30, items: ${ITEM} } } } }
  /capped:
    ${post}
    get:
      parameters: [${q('limit', '{ type: integer }')}]
      responses:
        '200': { description: ok, content: { application/json: { schema: { type: array, items: ${ITEM} } } } }
`;

const appOf = async (options: { placeholders?: number } = {}) =>
  createApp(await loadContract(await inlineContract(CONTRACT)), { errors: true, ...options }).app;
type App = Awaited<ReturnType<typeof appOf>>;

/** Creates `n` records and answers every id the list holds, newest first (placeholders included). */
async function fill(app: App, path: string, n: number): Promise<string[]> {
  for (let i = 0; i < n; i++)
    await request(app)
      .post(path)
      .send({ name: `r${i}` })
      .expect(201);
  return ids((await request(app).get(path).query({ limit: 1000, per_page: 1000, size: 1000 }).expect(200)).body);
}

const ids = (body: unknown) => (body as { id: string }[]).map((r) => r.id);

describe('a list paged by page number', () => {
  test('answers each page its records, and the envelope counts them all', async () => {
    const app = await appOf();
    for (let i = 0; i < 12; i++)
      await request(app)
        .post('/numbered')
        .send({ name: `r${i}` })
        .expect(201);
    const first = (await request(app).get('/numbered').expect(200)).body;
    const total = first.total as number;
    expect(total).toBeGreaterThanOrEqual(12);
    expect(first.total_pages).toBe(Math.ceil(total / 5));
    expect(first.page).toBe(1);
    const seen: string[] = [];
    for (let page = 1; page <= first.total_pages; page++) {
      const res = (await request(app).get('/numbered').query({ page }).expect(200)).body;
      expect(res.page).toBe(page);
      expect(res.data.length).toBe(Math.min(5, total - (page - 1) * 5));
      seen.push(...ids(res.data));
    }
    expect(new Set(seen).size).toBe(total);
    expect(seen[0]).toBe(ids(first.data)[0]);
    // Past the last page: no records.
    expect(
      (
        await request(app)
          .get('/numbered')
          .query({ page: first.total_pages + 1 })
          .expect(200)
      ).body.data,
    ).toEqual([]);
  });

  test('counts from zero where the page parameter does (`minimum: 0`), with the page size in `size`', async () => {
    const app = await appOf();
    const all = await fill(app, '/from-zero', 6);
    const page0 = ids((await request(app).get('/from-zero').query({ page: 0 }).expect(200)).body);
    const page1 = ids((await request(app).get('/from-zero').query({ page: 1 }).expect(200)).body);
    expect(page0).toEqual(all.slice(0, 4));
    expect(page1).toEqual(all.slice(4, 8));
  });
});

describe('a list paged by offset', () => {
  test('starts each page after as many records as the offset says', async () => {
    const app = await appOf();
    const all = await fill(app, '/offsets', 9);
    expect(all.length).toBeGreaterThanOrEqual(9);
    for (const offset of [0, 2, 5, all.length - 1])
      expect(ids((await request(app).get('/offsets').query({ offset }).expect(200)).body)).toEqual(
        all.slice(offset, offset + 5),
      );
    expect((await request(app).get('/offsets').query({ offset: all.length }).expect(200)).body).toEqual([]);
  });
});

describe('a list whose limit only caps it', () => {
  test('answers every record when no limit is sent: it has no other way to reach them', async () => {
    const app = await appOf();
    for (let i = 0; i < 25; i++)
      await request(app)
        .post('/capped')
        .send({ name: `r${i}` })
        .expect(201);
    const all = ids((await request(app).get('/capped').expect(200)).body);
    expect(all.length).toBeGreaterThanOrEqual(25);
    expect(ids((await request(app).get('/capped').query({ limit: 3 }).expect(200)).body)).toEqual(all.slice(0, 3));
  });
});

describe('what is no paging', () => {
  test('an integer start without a page size is a filter: every record is answered, whatever it says', async () => {
    const app = await appOf();
    for (let i = 0; i < 25; i++)
      await request(app)
        .post('/events')
        .send({ name: `e${i}` })
        .expect(201);
    const all = ids((await request(app).get('/events').expect(200)).body);
    expect(all.length).toBeGreaterThanOrEqual(25);
    expect(ids((await request(app).get('/events').query({ start: 1700000000 }).expect(200)).body)).toEqual(all);
  });
});

describe('an envelope count its schema refuses', () => {
  test('is left out where the envelope does not require it (no total_pages of 0 where it must be 1 or more)', async () => {
    const app = await appOf({ placeholders: 0 });
    const empty = (await request(app).get('/reports').expect(200)).body;
    expect(empty).toEqual({ data: [] });
    await request(app).post('/reports').send({ name: 'r' }).expect(201);
    expect((await request(app).get('/reports').expect(200)).body.total_pages).toBe(1);
  });
});

describe('a list whose limit only caps it, with a maximum', () => {
  test('answers no more than the contract lets a page hold', async () => {
    const app = await appOf();
    for (let i = 0; i < 35; i++)
      await request(app)
        .post('/limited')
        .send({ name: `r${i}` })
        .expect(201);
    expect((await request(app).get('/limited').expect(200)).body).toHaveLength(30);
  });
});
