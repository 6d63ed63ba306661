import request from 'supertest';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { createApp, type MockApp, type StoreSnapshot } from '../../mock/index.js';
import { AUTH, defaultContract, newMock } from '../support/harness.js';

const PASS_ID = /^pas_[0-9A-HJKMNP-TV-Z]{26}$/;
const PASS = {
  id: 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M',
  member_id: 'm1',
  name: 'Gold membership',
  status: 'active',
  valid_from: '2026-01-05T09:30:00Z',
  valid_until: '2027-01-05T09:30:00Z',
  created_at: '2026-01-05T09:30:00Z',
};
const OTHER_ID = 'pas_01JD40C2M5K8H1G4F7E0D3C6B9';
const STATE = { '/members/m1/passes': [PASS], '/members/m1/credentials': [] };

let mock: MockApp;
beforeEach(async () => {
  mock = await newMock({ seed: 11 });
});

const state = async (session?: string) => {
  const req = request(mock.app).get('/__mock/state');
  return (await (session ? req.set('X-Mock-Session', session) : req).expect(200)).body;
};
const putState = (body: unknown) =>
  request(mock.app)
    .put('/__mock/state')
    .send(body as object);

/** The message createApp throws for these fixtures: what PUT /__mock/state must say too, from its own source. */
const fixtureMessage = async (fixtures: unknown) => {
  try {
    createApp(await defaultContract(), { seed: 11, state: fixtures as StoreSnapshot });
  } catch (error) {
    return (error as Error).message.replace(/^the initial state: /, 'PUT /__mock/state: ');
  }
  throw new Error('the fixtures were accepted');
};

describe('PUT /__mock/state', () => {
  test('replaces the whole state and answers what GET /__mock/state now answers', async () => {
    await request(mock.app).get('/members/m2/passes').set(AUTH).expect(200);
    const res = await putState({ collections: STATE })
      .expect(200)
      .expect('Content-Type', /application\/json/);
    expect(res.body).toEqual({ collections: STATE });
    expect(await state()).toEqual({ collections: STATE });
    const list = await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    expect(list.body.data).toEqual([PASS]);
  });

  test('takes the bare map of collections as well', async () => {
    await putState(STATE).expect(200);
    expect(await state()).toEqual({ collections: STATE });
  });

  test('completes partial records: a suspended pass is one field', async () => {
    const res = await putState({ '/members/m1/passes': [{ status: 'suspended' }] }).expect(200);
    const [pass] = res.body.collections['/members/m1/passes'];
    expect(pass).toMatchObject({ id: expect.stringMatching(PASS_ID), member_id: 'm1', status: 'suspended' });
    await request(mock.app).get(`/members/m1/passes/${pass.id}`).set(AUTH).expect(200, pass);
  });

  test.each([
    ['a value the contract refuses', { '/members/m1/passes': [{ ...PASS, status: 'lost' }] }, '/status'],
    ['an undocumented field', { '/members/m1/passes': [{ ...PASS, colour: 'red' }] }, '/colour'],
    ['a partial record that breaks the schema', { '/members/m1/passes': [{ name: '' }] }, '/name'],
    ['a record of another member', { '/members/m1/passes': [{ ...PASS, member_id: 'm2' }] }, '/member_id'],
    ['a record that is not an object', { '/members/m1/passes': ['pas_1'] }, ''],
  ])('refuses %s with 422, pointing at the record’s field, in the fixtures’ words', async (_name, map, field) => {
    for (const [body, prefix] of [
      [{ collections: map }, '/collections'],
      [map, ''],
    ] as const) {
      const res = await putState(body)
        .expect(422)
        .expect('Content-Type', /application\/problem\+json/);
      const message = await fixtureMessage(map);
      expect(res.body).toMatchObject({ status: 422, detail: message, instance: '/__mock/state' });
      expect(res.body.violations).toEqual([
        { location: 'body', pointer: `${prefix}/~1members~1m1~1passes/0${field}`, message },
      ]);
    }
  });

  test('refuses a repeated id, pointing at the second record’s id', async () => {
    const res = await putState({ collections: { '/members/m1/passes': [PASS, PASS] } }).expect(422);
    expect(res.body.violations).toEqual([
      {
        location: 'body',
        pointer: '/collections/~1members~1m1~1passes/1/id',
        message: `PUT /__mock/state: "/members/m1/passes"[1] repeats the id "${PASS.id}".`,
      },
    ]);
  });

  test.each([
    ['an unknown collection', { '/members/m1/vouchers': [] }, '/~1members~1m1~1vouchers'],
    ['records that are not a list', { '/members/m1/passes': {} }, '/~1members~1m1~1passes'],
    ['a body that is not a map of collections', [], ''],
  ])('refuses %s with 422, pointing at it', async (_name, body, pointer) => {
    const res = await putState(body).expect(422);
    expect(res.body.detail).toBe(await fixtureMessage(body));
    expect(res.body.violations).toEqual([{ location: 'body', pointer, message: res.body.detail }]);
  });

  test('changes nothing when one record is refused, not even the good ones', async () => {
    await request(mock.app).post('/members/m1/passes').set(AUTH).send({ name: 'Kept' }).expect(201);
    const before = await state();
    const body = { '/members/m1/passes': [PASS], '/members/m2/passes': [{}, { status: 'lost' }] };
    await putState(body).expect(422);
    expect(await state()).toEqual(before);
  });

  test('answers 507 past the state budget, naming it and what other sessions hold, and changes nothing', async () => {
    mock = await newMock({ seed: 11, stateBytes: 2048 });
    await request(mock.app).post('/members/m1/passes').set(AUTH).set('X-Mock-Session', 'other').send({}).expect(201);
    const before = await state();
    const res = await putState({ '/members/m1/passes': [{}, {}, {}, {}], '/members/m2/passes': [] }).expect(507);
    expect(res.body.detail).toMatch(
      /^PUT \/__mock\/state: the state does not fit the state budget: what clients wrote may take 2KB \(stateBytes, --state-bytes\), and the other sessions hold \d+B\. Nothing was changed\.$/,
    );
    expect(await state()).toEqual(before);
  });

  test('answers 507 past the collection limit, pointing at the collection', async () => {
    mock = await newMock({ seed: 11, placeholders: 1, collectionLimit: 1 });
    const res = await putState({ collections: { '/members/m1/passes': [{}, {}] } }).expect(507);
    expect(res.body.violations).toEqual([
      { location: 'body', pointer: '/collections/~1members~1m1~1passes', message: res.body.detail },
    ]);
    expect(res.body.detail).toMatch(/"\/members\/m1\/passes" has 2 records, more than the 1 a collection may hold/);
  });

  test('answers 400 without a JSON body', async () => {
    const res = await request(mock.app).put('/__mock/state').set('X-Mock-Session', 's1').expect(400);
    expect(res.body.detail).toMatch(/takes the state, .* as JSON: send it with Content-Type: application\/json/);
  });

  test('takes a whole state past the other admin bodies’ 256 KiB, up to 4 MiB', async () => {
    const text = JSON.stringify({ collections: STATE });
    await request(mock.app)
      .put('/__mock/state')
      .set('Content-Type', 'application/json')
      .send(text + ' '.repeat(300_000))
      .expect(200);
    const res = await request(mock.app)
      .put('/__mock/state')
      .set('Content-Type', 'application/json')
      .send(text + ' '.repeat(4 * 1024 * 1024))
      .expect(413);
    expect(res.body.detail).toMatch(/the limit is 4194304 bytes/);
    await request(mock.app)
      .post('/__mock/state/members/m1/passes')
      .set('Content-Type', 'application/json')
      .send(`{}${' '.repeat(300_000)}`)
      .expect(413);
  });
});

describe('sessions are seeded apart', () => {
  test('X-Mock-Session: s1 replaces that session’s state alone', async () => {
    await request(mock.app).put('/__mock/state').set('X-Mock-Session', 's1').send(STATE).expect(200);
    expect(await state('s1')).toEqual({ collections: STATE });
    expect(await state()).toEqual({ collections: {} });
    const res = await request(mock.app)
      .get('/members/m1/passes')
      .set({ ...AUTH, 'X-Mock-Session': 's1' });
    expect(res.body.data).toEqual([PASS]);
    expect((await request(mock.app).get('/members/m1/passes').set(AUTH)).body.data).toHaveLength(3);
  });

  test('?session=s2 names the session as well', async () => {
    await request(mock.app).put('/__mock/state?session=s2').send(STATE).expect(200);
    expect(await state('s2')).toEqual({ collections: STATE });
  });

  test('a named session’s reset returns it to the fixtures, not to what was put', async () => {
    await request(mock.app).put('/__mock/state').set('X-Mock-Session', 's1').send(STATE).expect(200);
    await request(mock.app).post('/__mock/reset').set('X-Mock-Session', 's1').expect(204);
    expect(await state('s1')).toEqual({ collections: {} });
  });

  test('setState(snapshot, session) does what PUT does, answers as it does, and throws the fixtures’ message', async () => {
    expect(mock.setState({ collections: STATE }, 's1')).toEqual({ collections: STATE });
    expect(await state('s1')).toEqual({ collections: STATE });
    expect(mock.state('s1')).toEqual({ collections: STATE });
    expect(mock.state()).toEqual({ collections: {} });
    const bad = { '/members/m1/passes': [{ ...PASS, status: 'lost' }] };
    const message = (await fixtureMessage(bad)).replace('PUT /__mock/state', 'setState()');
    expect(() => mock.setState(bad, 's1')).toThrow(message);
    expect(await state('s1')).toEqual({ collections: STATE });
  });

  test('setState keeps to the limits as PUT does', async () => {
    mock = await newMock({ stateBytes: 1024 });
    expect(() => mock.setState({ '/members/m1/passes': [{}, {}, {}] })).toThrow(/does not fit the state budget/);
  });
});

describe('a change to the default session is saved', () => {
  test.each([
    ['PUT /__mock/state', (app: MockApp['app']) => request(app).put('/__mock/state').send(STATE)],
    ['POST a record', (app: MockApp['app']) => request(app).post('/__mock/state/members/m1/passes').send({})],
    ['PUT a record', (app: MockApp['app']) => request(app).put(`/__mock/state/members/m1/passes/${PASS.id}`).send({})],
  ])('%s calls onStateChange with the new state; in a named session it does not', async (_name, send) => {
    const onStateChange = vi.fn();
    mock = await newMock({ seed: 11, onStateChange });
    await send(mock.app)
      .set('X-Mock-Session', 's1')
      .expect((res) => expect(res.status).toBeLessThan(300));
    expect(onStateChange).not.toHaveBeenCalled();
    await send(mock.app).expect((res) => expect(res.status).toBeLessThan(300));
    expect(onStateChange).toHaveBeenCalled();
    expect(onStateChange.mock.lastCall![0]()).toEqual(mock.state().collections);
  });

  test('a delete calls onStateChange, a refused change does not', async () => {
    const onStateChange = vi.fn();
    mock = await newMock({ seed: 11, state: STATE, onStateChange });
    await request(mock.app).put('/__mock/state').send({ '/members/m1/passes': 'x' }).expect(422);
    expect(onStateChange).not.toHaveBeenCalled();
    await request(mock.app).delete(`/__mock/state/members/m1/passes/${PASS.id}`).set(AUTH).expect(204);
    expect(onStateChange.mock.lastCall![0]()).toEqual({ ...STATE, '/members/m1/passes': [] });
  });
});

describe('one record at a time', () => {
  const passes = '/__mock/state/members/m1/passes';

  test('puts a suspended pass in place with one request, and the contract answers it', async () => {
    const res = await request(mock.app).post(passes).send({ status: 'suspended' }).expect(201);
    expect(res.body).toMatchObject({ id: expect.stringMatching(PASS_ID), member_id: 'm1', status: 'suspended' });
    expect(res.headers.location).toBe(`${passes}/${res.body.id}`);
    await request(mock.app).get(`/members/m1/passes/${res.body.id}`).set(AUTH).expect(200, res.body);
    await request(mock.app).get(res.headers.location!).expect(200, res.body);
    // Added to the member's placeholders, as a create would be.
    const list = await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    expect(list.body.data).toHaveLength(4);
    expect(list.body.data[0]).toEqual(res.body);
  });

  test('generates the same records for the same seed and requests', async () => {
    const add = async () => {
      const fresh = await newMock({ seed: 11 });
      return (await request(fresh.app).post(passes).send({ name: 'Gold' }).expect(201)).body;
    };
    expect(await add()).toEqual(await add());
  });

  test('adds records with ids of their own, one after the other', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await request(mock.app).post(passes).send({}).expect(201)).body.id);
    expect(ids.size).toBe(5);
  });

  test('keeps an id that was given, and refuses to add it twice with 409', async () => {
    await request(mock.app).post(passes).send(PASS).expect(201, PASS);
    const res = await request(mock.app).post(passes).send(PASS).expect(409);
    expect(res.body.detail).toBe(
      `/members/m1/passes has a record "${PASS.id}" already: PUT ${passes}/${PASS.id} replaces it.`,
    );
  });

  test('PUT creates a record by its id (201 with Location), then replaces it (200)', async () => {
    const url = `${passes}/${OTHER_ID}`;
    const created = await request(mock.app).put(url).send({ status: 'expired' }).expect(201);
    expect(created.headers.location).toBe(url);
    expect(created.body).toMatchObject({ id: OTHER_ID, member_id: 'm1', status: 'expired' });
    const replaced = await request(mock.app).put(url).send({ name: 'Silver' }).expect(200);
    expect(replaced.body).toMatchObject({ id: OTHER_ID, name: 'Silver', status: 'active' });
    expect(replaced.headers.location).toBeUndefined();
    await request(mock.app).get(`/members/m1/passes/${OTHER_ID}`).set(AUTH).expect(200, replaced.body);
  });

  test('PATCH changes the fields sent and keeps the others; 404 for a record that is not there', async () => {
    await request(mock.app).put('/__mock/state').send(STATE).expect(200);
    const res = await request(mock.app).patch(`${passes}/${PASS.id}`).send({ status: 'suspended' }).expect(200);
    expect(res.body).toEqual({ ...PASS, status: 'suspended' });
    await request(mock.app).patch(`${passes}/${OTHER_ID}`).send({ status: 'suspended' }).expect(404);
  });

  test('DELETE removes a record (204), then answers 404', async () => {
    const { id } = (await request(mock.app).post(passes).send({}).expect(201)).body;
    await request(mock.app).delete(`${passes}/${id}`).set('Content-Type', 'application/json').expect(204);
    const res = await request(mock.app).delete(`${passes}/${id}`).set('Content-Type', 'application/json').expect(404);
    expect(res.body.detail).toBe(`/members/m1/passes has no record "${id}" (it was never there, or was deleted).`);
    await request(mock.app).get(`/members/m1/passes/${id}`).set(AUTH).expect(404);
  });

  test('GET lists a collection’s records, oldest first, and reads one', async () => {
    await request(mock.app).put('/__mock/state').send(STATE).expect(200);
    await request(mock.app)
      .get(passes)
      .expect(200, { records: [PASS] });
    await request(mock.app).get(`${passes}/${PASS.id}`).expect(200, PASS);
    await request(mock.app).get(`${passes}/${OTHER_ID}`).expect(404);
  });

  test('GET of a member never seen lists its placeholders, as the contract would', async () => {
    const { body } = await request(mock.app).get('/__mock/state/members/m7/passes').expect(200);
    const listed = await request(mock.app).get('/members/m7/passes').set(AUTH).expect(200);
    expect(body.records).toEqual([...listed.body.data].reverse());
  });

  test('reads a member id as the contract does, percent-encoded or not', async () => {
    const { body } = await request(mock.app).post('/__mock/state/members/%6D1/passes').send({}).expect(201);
    expect(body.member_id).toBe('m1');
    await request(mock.app).get(`/members/m1/passes/${body.id}`).set(AUTH).expect(200);
  });

  test.each([
    [
      'POST',
      passes,
      { status: 'lost' },
      '/status',
      /the record \(id "pas_\w{26}"\) does not fit the contract: \/status: must be equal to one of the allowed values/,
    ],
    [
      'POST',
      passes,
      { colour: 'red' },
      '/colour',
      /does not fit the contract: \/: must NOT have additional properties; found 'colour'/,
    ],
    [
      'PUT',
      `${passes}/${OTHER_ID}`,
      { valid_from: 'soon' },
      '/valid_from',
      /\/valid_from: must match format "date-time"/,
    ],
    [
      'PUT',
      `${passes}/pas_1`,
      {},
      '/id',
      /the record \(id "pas_1"\) does not fit the contract: \/id: must match pattern/,
    ],
    ['PATCH', `${passes}/${PASS.id}`, { name: '' }, '/name', /\/name: must NOT have fewer than 1 characters/],
    ['POST', passes, ['x'], '', /: the record is not an object\.$/],
  ])(
    '%s %s with one bad field answers 422 pointing at it, and changes nothing',
    async (method, url, body, pointer, message) => {
      await request(mock.app).put('/__mock/state').send(STATE).expect(200);
      const res = await request(mock.app)[method.toLowerCase() as 'post'](url).send(body).expect(422);
      expect(res.body.detail).toMatch(message);
      expect(res.body.detail.startsWith(`${method} ${url}: the record`)).toBe(true);
      expect(res.body.violations).toEqual([{ location: 'body', pointer, message: res.body.detail }]);
      expect(await state()).toEqual({ collections: STATE });
    },
  );

  test('refuses a record of another member over HTTP, as fixtures are', async () => {
    const res = await request(mock.app).post(passes).send({ member_id: 'm2' }).expect(422);
    expect(res.body.detail).toMatch(
      /: the record \(id "pas_\w{26}"\) has member_id "m2", but its collection path says "m1"\.$/,
    );
    expect(res.body.violations[0].pointer).toBe('/member_id');
  });

  test('refuses a body naming another id than the URL', async () => {
    const res = await request(mock.app).put(`${passes}/${OTHER_ID}`).send({ id: PASS.id }).expect(422);
    expect(res.body.violations).toEqual([
      {
        location: 'body',
        pointer: '/id',
        message: `PUT ${passes}/${OTHER_ID}: the record has id "${PASS.id}", but its URL says "${OTHER_ID}".`,
      },
    ]);
  });

  test('answers 404 for a path of no collection, listing the contract’s collections', async () => {
    const res = await request(mock.app).post('/__mock/state/members/m1/vouchers').send({}).expect(404);
    expect(res.body.collections).toEqual(['/members/{member_id}/passes', '/members/{member_id}/credentials']);
    expect(res.body.detail).toContain(
      'Its collections are /__mock/state/members/{member_id}/passes, /__mock/state/members/{member_id}/credentials',
    );
    await request(mock.app).get('/__mock/state/members').expect(404);
    await request(mock.app).get('/__mock/state/members/m1/passes/p1/more').expect(404);
  });

  test.each([
    ['PUT', passes, 'GET, POST'],
    ['DELETE', passes, 'GET, POST'],
    ['POST', `${passes}/${PASS.id}`, 'GET, PUT, PATCH, DELETE'],
  ])('answers %s %s with 405 and Allow', async (method, url, allow) => {
    const res = await request(mock.app)[method.toLowerCase() as 'put'](url).send({}).expect(405);
    expect(res.headers.allow).toBe(allow);
  });

  test('answers 400 without a JSON body', async () => {
    await request(mock.app).post(passes).set('X-Mock-Session', 's1').expect(400);
  });

  test('answers 507 when the collection is full, and stores nothing', async () => {
    mock = await newMock({ seed: 11, placeholders: 0, collectionLimit: 1 });
    await request(mock.app).post(passes).send({}).expect(201);
    const res = await request(mock.app).post(passes).send({}).expect(507);
    expect(res.body.detail).toMatch(
      /^POST \/__mock\/state\/members\/m1\/passes: the collection \/members\/m1\/passes is full: it holds 1 of 1 record \(collectionLimit\)/,
    );
    await request(mock.app).put(`${passes}/${OTHER_ID}`).send({}).expect(507);
    expect((await request(mock.app).get(passes)).body.records).toHaveLength(1);
  });

  test('answers 507 when the state budget is used up, and stores nothing', async () => {
    mock = await newMock({ seed: 11, placeholders: 0, stateBytes: 1024 });
    await request(mock.app).post(passes).send({}).expect(201);
    await request(mock.app).post(passes).send({}).expect(201);
    const res = await request(mock.app).post('/__mock/state/members/m2/passes').send({}).expect(507);
    expect(res.body.detail).toMatch(/the state budget is used up: what clients wrote takes \d+B of 1KB \(stateBytes/);
    expect(Object.keys(mock.state().collections)).toEqual(['/members/m1/passes']);
  });

  test('a named session’s records stay in that session', async () => {
    await request(mock.app).post(passes).set('X-Mock-Session', 's1').send(PASS).expect(201);
    await request(mock.app).get(`${passes}/${PASS.id}`).set('X-Mock-Session', 's1').expect(200);
    await request(mock.app).get(`${passes}/${PASS.id}`).expect(404);
  });
});

describe('state changes are guarded like every admin change', () => {
  test.each([
    ['PUT', '/__mock/state'],
    ['POST', '/__mock/state/members/m1/passes'],
    ['PUT', `/__mock/state/members/m1/passes/${PASS.id}`],
    ['PATCH', `/__mock/state/members/m1/passes/${PASS.id}`],
    ['DELETE', `/__mock/state/members/m1/passes/${PASS.id}`],
  ])('%s %s is refused (403) as text/plain, and from a page of another site', async (method, url) => {
    const send = () => request(mock.app)[method.toLowerCase() as 'put'](url);
    const plain = await send().set('Content-Type', 'text/plain').send('{}').expect(403);
    expect(plain.body.type).toBe('https://example.com/problems/forgeable-admin-request');
    const cross = await send().set('Origin', 'https://evil.example').send({}).expect(403);
    expect(cross.body.type).toBe('https://example.com/problems/forbidden-origin');
    expect(await state()).toEqual({ collections: {} });
  });

  test('needs the admin token when there is one', async () => {
    mock = await newMock({ admin: { token: 's3cret' } });
    await request(mock.app).put('/__mock/state').send(STATE).expect(401);
    await request(mock.app).post('/__mock/state/members/m1/passes').send({}).expect(401);
    await request(mock.app).put('/__mock/state').set('Authorization', 'Bearer s3cret').send(STATE).expect(200);
  });
});

describe('a whole state replace is bounded and never holds the mock up', () => {
  /** `count` empty records, 1000 to a member's passes. */
  const records = (count: number) => {
    const map: Record<string, Record<string, unknown>[]> = {};
    for (let i = 0; i < count; i++) (map[`/members/m${Math.floor(i / 1000)}/passes`] ??= []).push({});
    return map;
  };

  test('more than 10,000 records in one replace are refused with 413 before any is made, and nothing changes', async () => {
    mock = await newMock({ seed: 11 });
    const res = await request(mock.app).put('/__mock/state').send(records(10_001)).expect(413);
    expect(res.body.detail).toBe(
      'PUT /__mock/state: the state has more records than the 10000 one replace may hold; send it in parts ' +
        '(a collection or a record at a time, below /__mock/state), or start from --data. Nothing was changed.',
    );
    expect(mock.state()).toEqual({ collections: {} });
  });

  test('10,000 records are taken a slice at a time: another request is answered before the replace ends', async () => {
    mock = await newMock({ seed: 11 });
    const order: string[] = [];
    const replace = request(mock.app)
      .put('/__mock/state')
      .send(records(10_000))
      .then((res) => order.push(`replace ${res.status}`));
    // Let the replace start, then ask for health while it works.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await request(mock.app)
      .get('/__mock/health')
      .then((res) => order.push(`health ${res.status}`));
    await replace;
    expect(order).toEqual(['health 200', 'replace 200']);
    expect(Object.values(mock.state().collections).flat()).toHaveLength(10_000);
  });

  test('GET /__mock/state is streamed a collection at a time', async () => {
    mock = await newMock({ seed: 11 });
    mock.setState(records(2000));
    const res = await request(mock.app).get('/__mock/state').expect(200);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(Object.keys(res.body.collections)).toEqual(['/members/m0/passes', '/members/m1/passes']);
  });
});

// Records kept under a path the contract refuses could never be read by a request of the contract: the state
// API and fixtures refuse them, naming the parameter, instead of keeping them (with a made-up member_id).
describe('a collection path whose parameter breaks the contract', () => {
  const BROKEN = ['/members/not valid!/passes', `/members/${'a'.repeat(65)}/passes`, '/members/{member_id}/passes'];

  test.each(BROKEN)('PUT /__mock/state refuses %s with a 422 naming member_id', async (path) => {
    const res = await putState({ [path]: [{ ...PASS, member_id: undefined }] }).expect(422);
    expect(res.body.detail).toMatch(/path parameter member_id/);
    expect((await state()).collections).not.toHaveProperty([path]);
  });

  test.each(BROKEN)('POST /__mock/state%s refuses a record with a 422 naming member_id', async (path) => {
    const url = `/__mock/state${path.split('/').map(encodeURIComponent).join('/')}`;
    const res = await request(mock.app).post(url).send({ name: 'Gold' }).expect(422);
    expect(res.body.detail).toMatch(/path parameter member_id/);
  });

  test('fixtures under such a path are refused at start', async () => {
    expect(await fixtureMessage({ '/members/not valid!/passes': [] })).toMatch(/path parameter member_id/);
  });

  test('a path whose parameters fit is taken as before', async () => {
    await putState({ '/members/mbr_7f3a2c91/passes': [{ ...PASS, member_id: 'mbr_7f3a2c91' }] }).expect(200);
  });
});
