import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeEach, describe, expect, test } from 'vitest';
import { createBodyGenerator } from '../../mock/generate/generate-body.js';
import { createApp, DEFAULT_CONTRACT, loadContract, type MockApp } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

let mock: MockApp;
beforeEach(async () => {
  mock = await newMock({ seed: 9 });
});

const list = async (path: string) => (await request(mock.app).get(path).set(AUTH).expect(200)).body;

describe('passes keep state', () => {
  test('create → listed first → read as created → delete 204 → read 404 → gone from the list', async () => {
    const created = (await request(mock.app).post('/members/m1/passes').set(AUTH).send({ name: 'Gold' }).expect(201))
      .body;
    expect((await list('/members/m1/passes')).data[0]).toEqual(created);
    expect((await request(mock.app).get(`/members/m1/passes/${created.id}`).set(AUTH).expect(200)).body).toEqual(
      created,
    );
    await request(mock.app).delete(`/members/m1/passes/${created.id}`).set(AUTH).expect(204);
    const gone = await request(mock.app)
      .get(`/members/m1/passes/${created.id}`)
      .set(AUTH)
      .expect(404)
      .expect('Content-Type', /problem\+json/);
    expect(gone.body.detail).toBe(`getPass: pass ${created.id} does not exist (it was never created, or was deleted).`);
    expect((await list('/members/m1/passes')).data.map((p: { id: string }) => p.id)).not.toContain(created.id);
  });

  test('deleting twice answers 404 the second time', async () => {
    const created = (await request(mock.app).post('/members/m1/passes').set(AUTH).send({}).expect(201)).body;
    await request(mock.app).delete(`/members/m1/passes/${created.id}`).set(AUTH).expect(204);
    await request(mock.app).delete(`/members/m1/passes/${created.id}`).set(AUTH).expect(404);
  });

  test('a created pass keeps what was sent, echoes the member and fills the rest as a new record', async () => {
    const before = Date.now();
    const body = (
      await request(mock.app)
        .post('/members/mbr_7/passes')
        .set(AUTH)
        .send({ valid_until: '2030-01-01T00:00:00Z' })
        .expect(201)
    ).body;
    expect(body).toMatchObject({
      member_id: 'mbr_7',
      name: 'Membership pass',
      status: 'active',
      valid_until: '2030-01-01T00:00:00Z',
    });
    expect(Date.parse(body.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(body.valid_from).toBe(body.created_at);
  });

  test('ids of created records are unique', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++)
      ids.add((await request(mock.app).post('/members/m1/passes').set(AUTH).send({})).body.id);
    expect(ids.size).toBe(50);
  });
});

describe('credentials keep state', () => {
  test('create → listed → delete 204 → delete again 404 → gone from the list', async () => {
    const created = (
      await request(mock.app)
        .post('/members/m1/credentials')
        .set(AUTH)
        .send({ kind: 'mobile', label: 'Phone' })
        .expect(201)
    ).body;
    expect(created).toMatchObject({ member_id: 'm1', kind: 'mobile', label: 'Phone', last_used_at: null });
    expect((await list('/members/m1/credentials')).data[0]).toEqual(created);
    await request(mock.app).delete(`/members/m1/credentials/${created.id}`).set(AUTH).expect(204);
    await request(mock.app).delete(`/members/m1/credentials/${created.id}`).set(AUTH).expect(404);
    expect((await list('/members/m1/credentials')).data).not.toContainEqual(created);
  });

  test('a credential created without a label has a null label', async () => {
    const created = (
      await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'pin' }).expect(201)
    ).body;
    expect(created.label).toBeNull();
  });
});

describe('placeholders', () => {
  test('a member seen for the first time has three placeholders of each collection, newest first', async () => {
    const { data } = await list('/members/new_member/passes');
    expect(data).toHaveLength(3);
    expect(data.every((p: { member_id: string }) => p.member_id === 'new_member')).toBe(true);
    const created = data.map((p: { created_at: string }) => Date.parse(p.created_at));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect((await list('/members/new_member/credentials')).data).toHaveLength(3);
  });

  test('placeholders are byte-for-byte the same in a new instance with the same seed', async () => {
    const other = await newMock({ seed: 9 });
    const a = await request(mock.app).get('/members/m1/passes').set(AUTH);
    const b = await request(other.app).get('/members/m1/passes').set(AUTH);
    expect(b.text).toBe(a.text);
  });

  test('placeholders differ by member and by seed', async () => {
    const otherSeed = await newMock({ seed: 10 });
    const m1 = await list('/members/m1/passes');
    expect((await list('/members/m2/passes')).data[0].id).not.toBe(m1.data[0].id);
    expect((await request(otherSeed.app).get('/members/m1/passes').set(AUTH)).body.data[0].id).not.toBe(m1.data[0].id);
  });

  test('placeholder times fall in the two years before the seed’s anchor, and a pass ends after it starts', async () => {
    const anchor = createBodyGenerator(9).anchor.getTime();
    for (const p of (await list('/members/m1/passes')).data) {
      expect(Date.parse(p.created_at)).toBeGreaterThan(anchor - 2 * 365 * 86_400_000);
      expect(Date.parse(p.created_at)).toBeLessThan(anchor);
      expect(p.valid_from).toBe(p.created_at);
      if (p.valid_until !== null) expect(Date.parse(p.valid_until)).toBeGreaterThan(Date.parse(p.valid_from));
    }
  });

  test('every member has its own data', async () => {
    const created = (await request(mock.app).post('/members/m1/passes').set(AUTH).send({}).expect(201)).body;
    await request(mock.app).get(`/members/m2/passes/${created.id}`).set(AUTH).expect(404);
    expect((await list('/members/m2/passes')).data.map((p: { id: string }) => p.id)).not.toContain(created.id);
  });

  test('deleting every placeholder leaves an empty list, not new placeholders', async () => {
    for (const p of (await list('/members/m1/credentials')).data)
      await request(mock.app).delete(`/members/m1/credentials/${p.id}`).set(AUTH).expect(204);
    expect(await list('/members/m1/credentials')).toEqual({ data: [], next_cursor: null });
  });
});

describe('paging', () => {
  test('limit and next_cursor walk the whole list once, newest first', async () => {
    for (let i = 0; i < 4; i++)
      await request(mock.app)
        .post('/members/m1/passes')
        .set(AUTH)
        .send({ name: `P${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { name: string }[]; next_cursor: string | null } = await list(
        `/members/m1/passes?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.data.map((p) => p.name));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(seen.slice(0, 4)).toEqual(['P3', 'P2', 'P1', 'P0']);
  });

  test('the contract’s own cursor example answers 400 saying the mock did not issue it, not that it breaks the contract', async () => {
    const example = 'eyJhZnRlciI6InBhc18wMUpEM1o2UTlWOFg3VzZUNVM0UjNQMk4xTSJ9';
    const res = await request(mock.app).get(`/members/m1/passes?cursor=${example}`).set(AUTH).expect(400);
    expect(res.body).toMatchObject({
      type: 'https://example.com/problems/unknown-cursor',
      title: 'The cursor is not one this mock issued',
      status: 400,
    });
    expect(res.body.detail).toContain('fits the contract');
    expect(res.body.detail).toContain('leave cursor out');
    expect(res.body.detail).not.toMatch(/does not match the contract/);
  });

  test('a cursor the mock did not issue answers 400 naming the parameter', async () => {
    const res = await request(mock.app).get('/members/m1/passes?cursor=garbage').set(AUTH).expect(400);
    expect(res.body.violations).toEqual([
      { location: 'query', pointer: '/cursor', message: 'must be a next_cursor value from a previous page, unchanged' },
    ]);
  });
});

describe('state and the rest of the mock', () => {
  test('Prefer code= answers the documented response and leaves state alone', async () => {
    await request(mock.app).post('/members/m1/passes').set(AUTH).set('Prefer', 'code=500').send({}).expect(500);
    expect((await list('/members/m1/passes')).data).toHaveLength(3);
  });

  test('an invalid create changes nothing', async () => {
    await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'x' }).expect(422);
    expect((await list('/members/m1/credentials')).data).toHaveLength(3);
  });

  test('GET /__mock/state shows the collections by path', async () => {
    const created = (await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'card' })).body;
    const res = await request(mock.app).get('/__mock/state').expect(200);
    expect(Object.keys(res.body.collections)).toEqual(['/members/m1/credentials']);
    expect(res.body.collections['/members/m1/credentials']).toContainEqual(created);
  });

  test('POST /__mock/reset returns to the seed contents: placeholders again, creations gone', async () => {
    const before = await list('/members/m1/passes');
    await request(mock.app).post('/members/m1/passes').set(AUTH).send({});
    await request(mock.app).post('/__mock/reset').set('Content-Type', 'application/json').expect(204);
    expect(await list('/members/m1/passes')).toEqual(before);
  });

  test('--stateless answers every operation from generated bodies, as Prism does', async () => {
    const stateless = await newMock({ stateless: true });
    await request(stateless.app).get('/members/m1/passes/pas_anything').set(AUTH).expect(200);
    await request(stateless.app).delete('/members/m1/passes/pas_anything').set(AUTH).expect(204);
    expect((await request(stateless.app).get('/__mock/state')).body).toEqual({ collections: {} });
  });
});

describe('the clock of created records', () => {
  const session = async (app: MockApp['app']) => {
    const texts: string[] = [];
    texts.push((await request(app).post('/members/m1/passes').set(AUTH).send({ name: 'A' })).text);
    texts.push((await request(app).post('/members/m1/credentials').set(AUTH).send({ kind: 'pin' })).text);
    texts.push((await request(app).get('/members/m1/passes').set(AUTH)).text);
    return texts;
  };

  test('clock "seed" makes a session with creates repeat byte for byte in a new instance', async () => {
    const first = await session((await newMock({ seed: 4, clock: 'seed' })).app);
    expect(await session((await newMock({ seed: 4, clock: 'seed' })).app)).toEqual(first);
  });

  test('clock "seed" times follow the placeholders, a minute apart', async () => {
    const seeded = await newMock({ seed: 4, clock: 'seed' });
    const { data } = (await request(seeded.app).get('/members/m1/passes').set(AUTH)).body;
    const a = (await request(seeded.app).post('/members/m1/passes').set(AUTH).send({})).body;
    const b = (await request(seeded.app).post('/members/m1/passes').set(AUTH).send({})).body;
    expect(Date.parse(a.created_at)).toBeGreaterThan(Date.parse(data[0].created_at));
    expect(Date.parse(b.created_at) - Date.parse(a.created_at)).toBe(60_000);
  });
});

describe('state limits', () => {
  const create = (app: MockApp['app'], member: string, body: object = {}) =>
    request(app).post(`/members/${member}/passes`).set(AUTH).send(body);
  const stored = async (app: MockApp['app']) => (await request(app).get('/__mock/state').expect(200)).body.collections;

  test('a create into a collection at --collection-limit answers 507 with a problem, and stores nothing', async () => {
    const limited = await newMock({ seed: 9, collectionLimit: 4 });
    await create(limited.app, 'm1').expect(201);
    const before = await stored(limited.app);
    const res = await create(limited.app, 'm1', { name: 'One too many' })
      .expect(507)
      .expect('Content-Type', /^application\/problem\+json/);
    expect(res.body).toEqual({
      type: 'https://example.com/problems/storage-full',
      title: 'The state is full',
      status: 507,
      detail:
        'createPass: the collection /members/m1/passes is full: it holds 4 of 4 records (collectionLimit). Nothing ' +
        'was stored. Make room by deleting records or with POST /__mock/reset, or raise --collection-limit.',
      instance: '/members/m1/passes',
    });
    expect(await stored(limited.app)).toEqual(before);
  });

  test('a contract reload with other placeholders counts the collection again for --collection-limit', async () => {
    // Not through the harness, which checks every answer against the contract the mock started with.
    const limited = createApp(await loadContract(DEFAULT_CONTRACT), { seed: 9, collectionLimit: 5 });
    const first = await request(limited.app).get('/members/m1/passes').set(AUTH).expect(200);
    const placeholder = first.body.data[0].id as string;
    await request(limited.app).delete(`/members/m1/passes/${placeholder}`).set(AUTH).expect(204);
    await create(limited.app, 'm1').expect(201);
    await create(limited.app, 'm1').expect(201);
    // Four of five: two placeholders left, two creates. Pass ids of another pattern give three other placeholders,
    // none of them deleted: five records, and the collection is full.
    const text = readFileSync(DEFAULT_CONTRACT, 'utf8').replace('^pas_[0-9A-HJKMNP-TV-Z]{26}$', '^pss_[0-9]{12}$');
    const dir = mkdtempSync(join(tmpdir(), 'reload-'));
    try {
      writeFileSync(join(dir, 'membership.openapi.yaml'), text);
      limited.reload(await loadContract(join(dir, 'membership.openapi.yaml')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const passes = await request(limited.app).get('/members/m1/passes').set(AUTH).expect(200);
    expect(passes.body.data).toHaveLength(5);
    await create(limited.app, 'm1').expect(507);
  });

  test('a create past --state-bytes answers 507 naming the budget, and stores nothing', async () => {
    const limited = await newMock({ seed: 9, stateBytes: 1024 });
    await create(limited.app, 'm1', { name: 'A'.repeat(40) }).expect(201);
    await create(limited.app, 'm1', { name: 'B'.repeat(40) }).expect(201);
    const before = await stored(limited.app);
    const res = await create(limited.app, 'm2', { name: 'C'.repeat(40) })
      .expect(507)
      .expect('Content-Type', /^application\/problem\+json/);
    expect(res.body.detail).toMatch(
      /^createPass: the state budget is used up: what clients wrote takes \d+B of 1KB \(stateBytes; placeholders are free\)\. Nothing was stored\. Make room by deleting records or with POST \/__mock\/reset, or raise --state-bytes\.$/,
    );
    expect(await stored(limited.app)).toEqual(before);
  });

  test('a credential create past --state-bytes answers 507 too', async () => {
    const limited = await newMock({ seed: 9, stateBytes: 1 });
    await request(limited.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'pin' }).expect(507);
  });

  test('reads of new members never fill the budget, and answer the same placeholders as a roomy mock', async () => {
    const limited = await newMock({ seed: 9, stateBytes: 1 });
    for (const member of ['m1', 'm2', 'm3']) {
      const res = await request(limited.app).get(`/members/${member}/passes`).set(AUTH).expect(200);
      expect(res.text).toBe((await request(mock.app).get(`/members/${member}/passes`).set(AUTH)).text);
    }
    expect(await stored(limited.app)).toEqual({});
  });

  test('a delete of a placeholder the budget has no room to remember answers 507, and stores nothing', async () => {
    const limited = await newMock({ seed: 9, stateBytes: 1 });
    const [placeholder] = (await request(limited.app).get('/members/m2/passes').set(AUTH)).body.data;
    await request(limited.app).delete(`/members/m2/passes/${placeholder.id}`).set(AUTH).expect(507);
    expect((await request(limited.app).get('/members/m2/passes').set(AUTH)).body.data).toContainEqual(placeholder);
    expect(await stored(limited.app)).toEqual({});
  });

  test('a member created into shows its placeholders as before, the new record first', async () => {
    const before = (await request(mock.app).get('/members/m1/passes').set(AUTH)).body.data;
    const created = (await create(mock.app, 'm1').expect(201)).body;
    expect((await request(mock.app).get('/members/m1/passes').set(AUTH)).body.data).toEqual([created, ...before]);
  });

  test('fixtures past the limits are taken at start, and count', async () => {
    const fixtures = (await request(mock.app).get('/members/m1/passes').set(AUTH)).body.data;
    const limited = await newMock({
      seed: 9,
      collectionLimit: 2,
      placeholders: 1,
      stateBytes: 1,
      state: { '/members/m1/passes': fixtures },
    });
    expect((await request(limited.app).get('/members/m1/passes').set(AUTH).expect(200)).body.data).toHaveLength(3);
    await create(limited.app, 'm1').expect(507);
    await create(limited.app, 'm2').expect(507);
  });

  test('more placeholders than collectionLimit allows are refused at start, naming both', async () => {
    await expect(newMock({ placeholders: 5, collectionLimit: 4 })).rejects.toThrow(
      /placeholders \(5\) is more than collectionLimit \(4\): every collection would start over its limit/,
    );
    await expect(newMock({ collectionLimit: 2 })).rejects.toThrow(/placeholders \(3\) is more than/);
  });

  test('stateLimit, the record count it replaces, is refused naming stateBytes', async () => {
    await expect(newMock({ stateLimit: 10 } as never)).rejects.toThrow(/stateLimit is gone: .*stateBytes/);
  });

  test('a valid_from of 65,000 characters is refused 422 by the contract, and stores nothing', async () => {
    const res = await create(mock.app, 'm1', { valid_from: `2026-01-05T09:30:00.${'0'.repeat(64_979)}Z` }).expect(422);
    expect(res.body.violations).toEqual([
      expect.objectContaining({ location: 'body', pointer: '/valid_from', message: expect.stringContaining('40') }),
    ]);
    expect(await stored(mock.app)).toEqual({});
  });
});
