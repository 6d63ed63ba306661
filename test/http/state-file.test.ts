import Database from 'better-sqlite3';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../../mock/index.js';
import { createStateTables } from '../../mock/node/open-state-file.js';
import { SqliteStore } from '../../mock/node/sqlite-store.js';
import { AUTH, newMock } from '../support/harness.js';

// The default session kept in SQLite (what --state-file does), with the database at hand to make it fail.
let db: Database.Database;
let store: SqliteStore;
let mock: MockApp;
let errors: string[];
beforeEach(async () => {
  db = new Database(':memory:');
  createStateTables(db);
  store = new SqliteStore(db, { collection: 1000 });
  errors = [];
  mock = await newMock({ seed: 3, store, logTo: (line, level) => level === 'error' && errors.push(line) });
});
afterEach(() => store.close());

const create = () => request(mock.app).post('/members/m1/passes').set(AUTH).send({ name: 'Gold' });

describe('a mock whose state is kept in SQLite', () => {
  test('serves what the database holds, and keeps what is created there', async () => {
    const created = (await create().expect(201)).body;
    const rows = db.prepare('SELECT id FROM records WHERE collection = ?').pluck().all('/members/m1/passes');
    expect(rows).toContain(created.id);
    expect((await request(mock.app).get(`/members/m1/passes/${created.id}`).set(AUTH).expect(200)).body).toEqual(
      created,
    );
  });

  test('state put over HTTP goes into the database, and a failed one answers a problem', async () => {
    const put = await request(mock.app)
      .put('/__mock/state')
      .set('Content-Type', 'application/json')
      .send({ collections: { '/members/m1/passes': [{ name: 'Family Swim Pass', status: 'suspended' }] } })
      .expect(200);
    const [pass] = put.body.collections['/members/m1/passes'];
    const body = db.prepare('SELECT body FROM records WHERE id = ?').pluck().get(pass.id) as string;
    expect(JSON.parse(body)).toMatchObject({ name: 'Family Swim Pass', status: 'suspended' });

    db.pragma('query_only = ON');
    const refused = await request(mock.app)
      .delete(`/__mock/state/members/m1/passes/${pass.id}`)
      .set('Content-Type', 'application/json')
      .expect(500);
    expect(refused.body.type).toBe('https://example.com/problems/state-not-saved');
    expect(errors).toEqual([
      expect.stringMatching(
        /^membership-mock: DELETE \/__mock\/state\/members\/m1\/passes\/\S+ changed nothing: The state file/,
      ),
    ]);
  });

  test('a create the database refuses answers a 500 problem, stores nothing, and is journaled', async () => {
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    db.pragma('query_only = ON');
    const refused = await create()
      .expect(500)
      .expect('Content-Type', /application\/problem\+json/);
    expect(refused.body).toMatchObject({
      type: 'https://example.com/problems/state-not-saved',
      title: 'The change could not be saved',
      detail: expect.stringMatching(/^The state file .* could not be written: .*readonly.*Nothing was stored/),
    });
    db.pragma('query_only = OFF');
    expect((await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200)).body.data).toHaveLength(3);
    expect(mock.calls({ operationId: 'createPass' }).map((c) => c.response.status)).toEqual([500]);
    // Whoever runs the mock hears it too, in one line without a stack: the mock did not fail, the file did.
    expect(errors).toEqual([
      expect.stringMatching(/^membership-mock: POST \/members\/m1\/passes changed nothing: The state file .*readonly/),
    ]);
  });

  test('a delete the database refuses answers a 500 problem and keeps the record', async () => {
    const created = (await create().expect(201)).body;
    db.pragma('query_only = ON');
    await request(mock.app).delete(`/members/m1/passes/${created.id}`).set(AUTH).expect(500);
    db.pragma('query_only = OFF');
    await request(mock.app).get(`/members/m1/passes/${created.id}`).set(AUTH).expect(200);
  });

  test('a full disk answers 507, and what was stored before stays', async () => {
    const first = (await create().expect(201)).body;
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    // Creates fill the pages left; the first that does not fit is refused.
    let answer: request.Response | undefined;
    for (let i = 0; i < 200 && (answer === undefined || answer.status === 201); i++) answer = await create();
    expect(answer!.status).toBe(507);
    expect(answer!.body).toMatchObject({ type: 'https://example.com/problems/storage-full', status: 507 });
    await request(mock.app).get(`/members/m1/passes/${first.id}`).set(AUTH).expect(200);
  });

  test('health says failing (503) with the last error while writes fail (ready and live stay 200), and ok once one succeeds', async () => {
    db.pragma('query_only = ON');
    await create().expect(500);
    const failing = await request(mock.app).get('/__mock/health').expect(503);
    expect(failing.body).toMatchObject({
      status: 'failing',
      state: { kind: 'sqlite', failing: true, lastError: { message: expect.stringContaining('readonly') } },
    });
    // A failed write is no reason to take the mock out of rotation: reads still answer, and the next write may pass.
    await request(mock.app).get('/__mock/health/ready').expect(200);
    await request(mock.app).get('/__mock/health/live').expect(200);
    db.pragma('query_only = OFF');
    await create().expect(201);
    const ok = await request(mock.app).get('/__mock/health').expect(200);
    // One create answered 201: what clients wrote; the member's three placeholders are not records of the file.
    expect(ok.body).toMatchObject({ status: 'ok', state: { kind: 'sqlite', failing: false, records: 1 } });
  });
});
