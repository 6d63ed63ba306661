// A list's next cursor names the last record of its page, so a record created or deleted between two pages
// (an infinite scroll after "add pass") moves no other: the next page neither repeats a record nor skips one.
// It was an offset, and a create between pages repeated the last record of the page before. It holds that
// record's position too, so the page after a deleted record starts at the first older one still there; it
// counted the older records instead, and one of those deleted as well repeated a record.
import Database from 'better-sqlite3';
import request from 'supertest';
import { afterEach, describe, expect, test } from 'vitest';
import { createApp, loadContract, type MockOptions } from '../../mock/index.js';
import { createStateTables } from '../../mock/node/open-state-file.js';
import { SqliteStore } from '../../mock/node/sqlite-store.js';
import { AUTH, newMock } from '../support/harness.js';
import { inlineContract } from '../support/inline-contract.js';

type Page = { data: { id: string }[]; next_cursor: string | null };
const LIST = '/members/m1/passes';

async function page(app: Parameters<typeof request>[0], cursor?: string, limit = 2): Promise<Page> {
  const query = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  return (await request(app).get(`${LIST}${query}`).set(AUTH).expect(200)).body as Page;
}

const ids = (p: Page) => p.data.map((r) => r.id);

/** The ids of every page from `cursor` on, in order. */
async function pagesFrom(app: Parameters<typeof request>[0], cursor: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  for (let next: string | null = cursor; next !== null;) {
    const got = await page(app, next, limit);
    seen.push(...ids(got));
    next = got.next_cursor;
  }
  return seen;
}

async function remove(app: Parameters<typeof request>[0], ...gone: string[]): Promise<void> {
  for (const id of gone) await request(app).delete(`${LIST}/${id}`).set(AUTH).expect(204);
}

const opened: SqliteStore[] = [];
afterEach(() => opened.splice(0).forEach((store) => store.close()));

/** A SQLite store on a database in memory, as a state file keeps the default session. */
function sqliteStore(): MockOptions {
  const db = new Database(':memory:');
  createStateTables(db);
  const store = new SqliteStore(db);
  opened.push(store);
  return { store };
}

// Each store gives positions of its own (a counter in memory, a row's seq in SQLite): the pages are the same.
describe.each([
  ['in memory', (): MockOptions => ({})],
  ['in SQLite', sqliteStore],
])('the next page after a change between pages, state %s', (_, stored) => {
  test('a record created in between: the next page starts after the last one listed', async () => {
    const { app } = await newMock(stored());
    const all = ids(await page(app, undefined, 100));
    const first = await page(app);
    await request(app).post(LIST).set(AUTH).send({ name: 'New' }).expect(201);
    const second = await page(app, first.next_cursor!);
    expect([...ids(first), ...ids(second)]).toEqual(all.slice(0, 4));
  });

  test('a record of the page before deleted in between: none is skipped', async () => {
    const { app } = await newMock(stored());
    const all = ids(await page(app, undefined, 100));
    const first = await page(app);
    await request(app)
      .delete(`${LIST}/${ids(first)[0]}`)
      .set(AUTH)
      .expect(204);
    const second = await page(app, first.next_cursor!);
    expect(ids(second)).toEqual(all.slice(2, 4));
  });

  test('the record the cursor names deleted in between: the next page starts after where it was', async () => {
    const { app } = await newMock(stored());
    const all = ids(await page(app, undefined, 100));
    const first = await page(app);
    await request(app)
      .delete(`${LIST}/${ids(first)[1]}`)
      .set(AUTH)
      .expect(204);
    expect(ids(await page(app, first.next_cursor!))).toEqual(all.slice(2, 4));
  });

  // Ten records A..J, newest first, three a page: the first page is A, B, C.
  test('the record the cursor names and an older one deleted in between: every other record is listed once', async () => {
    const { app } = await newMock({ ...stored(), placeholders: 10 });
    const all = ids(await page(app, undefined, 100));
    const first = await page(app, undefined, 3);
    await remove(app, all[2]!, all[4]!);
    // C was listed before it went: every record but E, once.
    expect([...ids(first), ...(await pagesFrom(app, first.next_cursor!, 3))]).toEqual(all.toSpliced(4, 1));
  });

  test('the record the cursor names and older ones deleted in between, of records clients created', async () => {
    const { app } = await newMock({ ...stored(), placeholders: 0 });
    for (let n = 0; n < 10; n++)
      await request(app)
        .post(LIST)
        .set(AUTH)
        .send({ name: `Pass ${n}` })
        .expect(201);
    const all = ids(await page(app, undefined, 100));
    const first = await page(app, undefined, 3);
    await remove(app, all[2]!, all[3]!, all[7]!);
    const unlisted = all.filter((id) => id !== all[3] && id !== all[7]);
    expect([...ids(first), ...(await pagesFrom(app, first.next_cursor!, 3))]).toEqual(unlisted);
  });

  test('the record the cursor names and one listed before it deleted in between: none is skipped', async () => {
    const { app } = await newMock({ ...stored(), placeholders: 10 });
    const all = ids(await page(app, undefined, 100));
    const first = await page(app, undefined, 3);
    await remove(app, all[0]!, all[2]!);
    expect(await pagesFrom(app, first.next_cursor!, 3)).toEqual(all.slice(3));
  });

  test('records deleted and created between every page: each record there throughout is listed once', async () => {
    const { app } = await newMock({ ...stored(), placeholders: 10 });
    const all = ids(await page(app, undefined, 100));
    const seen: string[] = [];
    let got = await page(app, undefined, 2);
    seen.push(...ids(got));
    // After each page: the last record listed and the oldest one go, and a new one comes.
    const gone = new Set<string>();
    while (got.next_cursor !== null) {
      const oldest = all.findLast((id) => !gone.has(id) && !seen.includes(id));
      for (const id of [ids(got).at(-1)!, oldest!]) gone.add(id);
      await remove(app, ids(got).at(-1)!, oldest!);
      await request(app).post(LIST).set(AUTH).send({ name: 'New' }).expect(201);
      got = await page(app, got.next_cursor, 2);
      seen.push(...ids(got));
    }
    const throughout = all.filter((id) => !gone.has(id));
    expect(seen.filter((id) => throughout.includes(id))).toEqual(throughout);
    expect(new Set(seen).size).toBe(seen.length);
  });

  test('an unchanged list pages as before, each record once', async () => {
    const { app } = await newMock(stored());
    const all = ids(await page(app, undefined, 100));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const next = await page(app, cursor, 1);
      seen.push(...ids(next));
      cursor = next.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all);
  });
});

describe('a contract that bounds its cursors', () => {
  const contract = `
openapi: 3.0.3
info: { title: Short cursors, version: '1' }
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - { name: limit, in: query, schema: { type: integer, minimum: 1 } }
        - { name: cursor, in: query, schema: { type: string, maxLength: 24 } }
      responses:
        '200':
          description: The things
          content:
            application/json:
              schema:
                type: object
                properties:
                  data: { type: array, items: { $ref: '#/components/schemas/Thing' } }
                  next_cursor: { type: string, maxLength: 24, nullable: true }
    post:
      operationId: createThing
      responses:
        '201':
          description: Created
          content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } }
  /things/{id}:
    delete:
      operationId: deleteThing
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '204': { description: Deleted }
components:
  schemas:
    Thing:
      type: object
      required: [id]
      properties:
        id: { type: string, format: uuid }
`;

  test('gets shorter cursors that fit it, and pages with them past a create', async () => {
    const { app } = createApp(await loadContract(await inlineContract(contract)));
    const all = (await request(app).get('/things?limit=100').expect(200)).body.data.map((t: { id: string }) => t.id);
    const first = (await request(app).get('/things?limit=1').expect(200)).body;
    expect(first.next_cursor.length).toBeLessThanOrEqual(24);
    // They count the records older than the page: one created in between moves nothing.
    await request(app).post('/things').expect(201);
    const second = await request(app).get(`/things?limit=1&cursor=${first.next_cursor}`).expect(200);
    expect(second.headers['sl-violations']).toBeUndefined();
    expect(second.body.data.map((t: { id: string }) => t.id)).toEqual(all.slice(1, 2));
  });

  test('pages with them past an older record deleted, neither repeating nor skipping one', async () => {
    const { app } = createApp(await loadContract(await inlineContract(contract)));
    const all = (await request(app).get('/things?limit=100').expect(200)).body.data.map((t: { id: string }) => t.id);
    const first = (await request(app).get('/things?limit=1').expect(200)).body;
    await request(app)
      .delete(`/things/${all.at(-1)}`)
      .expect(204);
    const second = await request(app).get(`/things?limit=1&cursor=${first.next_cursor}`).expect(200);
    expect(second.body.data.map((t: { id: string }) => t.id)).toEqual(all.slice(1, 2));
  });
});
