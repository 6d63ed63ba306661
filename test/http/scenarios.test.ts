import request from 'supertest';
import { beforeEach, describe, expect, test } from 'vitest';
import { startMock, type Faults, type MockApp } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

let mock: MockApp;
beforeEach(async () => {
  mock = await newMock({ seed: 5 });
});

describe('per-request scenarios', () => {
  test('Prefer delay= holds the answer for that long', async () => {
    const start = Date.now();
    await request(mock.app).get('/members/m1/passes').set(AUTH).set('Prefer', 'delay=300').expect(200);
    expect(Date.now() - start).toBeGreaterThanOrEqual(290);
  });

  test('__code= in the query acts as Prefer where headers cannot be set, and is not a contract parameter', async () => {
    const res = await request(mock.app).get('/members/m1/passes?__code=503').set(AUTH);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe(
      'Prefer code=503 is not documented for listPasses; documented: 200, 400, 401, 403, 404, 406, 429, 500.',
    );
    await request(mock.app).get('/members/m1/passes?__code=500').set(AUTH).expect(500);
    await request(mock.app)
      .get('/members/m1/credentials?__example=empty&__dynamic=false')
      .set(AUTH)
      .expect(200, { data: [], next_cursor: null });
  });

  test('the Prefer header wins over the query fallback', async () => {
    await request(mock.app).get('/members/m1/passes?__code=500').set(AUTH).set('Prefer', 'code=404').expect(404);
  });
});

describe('overrides', () => {
  test('force a documented status for the next call only', async () => {
    mock.override({ operationId: 'getPass', status: 500, times: 1 });
    const { data } = (await request(mock.app).get('/members/m1/passes').set(AUTH)).body;
    await request(mock.app).get(`/members/m1/passes/${data[0].id}`).set(AUTH).expect(500);
    await request(mock.app).get(`/members/m1/passes/${data[0].id}`).set(AUTH).expect(200);
  });

  test('a body that fits the contract is served as it is', async () => {
    const pass = {
      id: 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M',
      member_id: 'm1',
      name: 'Forced',
      status: 'suspended',
      valid_from: '2026-01-05T09:30:00Z',
      valid_until: null,
      created_at: '2026-01-05T09:30:00Z',
    };
    mock.override({ operationId: 'getPass', body: pass });
    expect((await request(mock.app).get('/members/m1/passes/anything').set(AUTH).expect(200)).body).toEqual(pass);
    expect((await request(mock.app).get('/members/m1/passes/other').set(AUTH).expect(200)).body).toEqual(pass);
  });

  test('a body that breaks the contract is refused with the reasons', () => {
    expect(() => mock.override({ operationId: 'getPass', body: { id: 'x' } })).toThrow(
      /body: \/member_id: must have required property 'member_id'/,
    );
  });

  test('applies only to calls that match', async () => {
    mock.override({ operationId: 'createCredential', match: { body: { kind: 'card' } }, status: 422 });
    await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'pin' }).expect(201);
    await request(mock.app).post('/members/m1/credentials').set(AUTH).send({ kind: 'card' }).expect(422);
  });

  test('adds a delay and headers', async () => {
    mock.override({ operationId: 'listPasses', delay: 200, headers: { 'Retry-After': '5' } });
    const start = Date.now();
    const res = await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    expect(Date.now() - start).toBeGreaterThanOrEqual(190);
    expect(res.headers['retry-after']).toBe('5');
  });

  test('drops the connection and records the call with status 0', async () => {
    mock.override({ operationId: 'listPasses', fault: 'drop', times: 1 });
    await expect(request(mock.app).get('/members/m1/passes').set(AUTH)).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(mock.calls({ operationId: 'listPasses' }).at(-1)!.response.status).toBe(0);
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
  });

  test('POST /__mock/overrides sets one, GET lists it, DELETE clears them', async () => {
    const created = await request(mock.app)
      .post('/__mock/overrides')
      .send({ operationId: 'deletePass', status: 403, times: 2 })
      .expect(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^override-\d+$/),
      operationId: 'deletePass',
      status: 403,
      remaining: 2,
    });
    expect((await request(mock.app).get('/__mock/overrides')).body.overrides).toHaveLength(1);
    await request(mock.app).delete('/members/m1/passes/p1').set(AUTH).expect(403);
    await request(mock.app).delete('/__mock/overrides').set('Content-Type', 'application/json').expect(204);
    await request(mock.app).delete('/members/m1/passes/p1').set(AUTH).expect(404);
  });

  test('DELETE /__mock/overrides/{id} removes one', async () => {
    const { body } = await request(mock.app)
      .post('/__mock/overrides')
      .send({ operationId: 'listPasses', status: 500 })
      .expect(201);
    await request(mock.app).delete(`/__mock/overrides/${body.id}`).set('Content-Type', 'application/json').expect(204);
    await request(mock.app).delete(`/__mock/overrides/${body.id}`).set('Content-Type', 'application/json').expect(404);
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
  });

  test.each([
    [
      { operationId: 'nope', status: 500 },
      /operationId "nope" is not an operation of the contract; it has listPasses, createPass/,
    ],
    [{ operationId: 'getPass', status: 418 }, /status 418 is not documented for getPass; documented: 200, 400/],
    [{ operationId: 'getPass' }, /say what to do: status, body, headers, delay or fault/],
    [{ operationId: 'getPass', status: 500, colour: 'red' }, /unknown field "colour"/],
    [{ operationId: 'getPass', delay: -1 }, /delay must be whole milliseconds/],
    [{ operationId: 'deletePass', status: 204, body: {} }, /the 204 response has no JSON body/],
  ])('POST /__mock/overrides refuses %j with 422 and the reason', async (spec, reason) => {
    const res = await request(mock.app)
      .post('/__mock/overrides')
      .send(spec)
      .expect(422)
      .expect('Content-Type', /problem\+json/);
    expect(res.body.detail).toMatch(reason);
  });

  test('POST /__mock/overrides refuses malformed JSON with 400', async () => {
    await request(mock.app).post('/__mock/overrides').set('Content-Type', 'application/json').send('{').expect(400);
  });

  test('Prefer wins over an override, and does not use it up', async () => {
    mock.override({ operationId: 'listPasses', status: 500, times: 1 });
    await request(mock.app).get('/members/m1/passes').set(AUTH).set('Prefer', 'code=404').expect(404);
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(500);
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
  });

  test('an override body is never sent under another status', async () => {
    const pass = {
      id: 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M',
      member_id: 'm1',
      name: 'Forced',
      status: 'active',
      valid_from: '2026-01-05T09:30:00Z',
      valid_until: null,
      created_at: '2026-01-05T09:30:00Z',
    };
    mock.override({ operationId: 'getPass', body: pass });
    const res = await request(mock.app).get('/members/m1/passes/x').set(AUTH).set('Prefer', 'code=404').expect(404);
    expect(res.body.title).toBe('Not found');
  });

  test('a request refused as not acceptable does not use an override up', async () => {
    mock.override({ operationId: 'listPasses', status: 429, times: 1 });
    await request(mock.app).get('/members/m1/passes').set(AUTH).set('Accept', 'text/html').expect(429);
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
  });

  test('override headers may not replace what the mock writes itself', () => {
    expect(() =>
      mock.override({
        operationId: 'deletePass',
        status: 204,
        headers: { 'Content-Length': '10', 'X-Request-Id': 'x' },
      }),
    ).toThrow(/headers may not set Content-Length, X-Request-Id/);
  });

  test('admin bodies that cannot be read answer 4xx, never 500', async () => {
    // Each is a valid override but for the one thing that makes it unreadable.
    const valid = '{"operationId":"listPasses","status":500}';
    await request(mock.app)
      .post('/__mock/overrides')
      .set('Content-Type', 'application/json')
      .send(`${valid}${' '.repeat(300_000)}`)
      .expect(413);
    await request(mock.app)
      .post('/__mock/overrides')
      .set('Content-Type', 'application/json; charset=latin9')
      .send(valid)
      .expect(415);
    await request(mock.app)
      .post('/__mock/overrides')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('not gzip')
      .expect(400);
  });

  test('reset removes overrides', async () => {
    mock.override({ operationId: 'listPasses', status: 500 });
    mock.reset();
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
  });
});

describe('faults', () => {
  const run = async (app: MockApp['app']) => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++)
      statuses.push(
        await request(app)
          .get(`/members/m${i}/passes`)
          .set(AUTH)
          .then(
            (r) => r.status,
            () => 0,
          ),
      );
    return statuses;
  };

  test('a failure rate answers the documented 500 about that often, the same way under the same seed', async () => {
    const a = await run((await newMock({ seed: 8, faults: { failureRate: 0.3 } })).app);
    const b = await run((await newMock({ seed: 8, faults: { failureRate: 0.3 } })).app);
    expect(a).toEqual(b);
    const failures = a.filter((s) => s === 500).length;
    expect(failures).toBeGreaterThan(4);
    expect(failures).toBeLessThan(24);
    expect(a.filter((s) => s !== 500 && s !== 200)).toEqual([]);
  });

  test('a drop rate closes some connections without an answer', async () => {
    const statuses = await run((await newMock({ seed: 8, faults: { dropRate: 0.25 } })).app);
    expect(statuses.filter((s) => s === 0).length).toBeGreaterThan(2);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(20);
  });

  test('PUT /__mock/faults sets faults on a running mock, DELETE clears them, bad ones are refused', async () => {
    await request(mock.app)
      .put('/__mock/faults')
      .send({ failureRate: 1 })
      .expect(200, { faults: { failureRate: 1 } });
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(500);
    const badRate = await request(mock.app).put('/__mock/faults').send({ failureRate: 2 }).expect(400);
    expect(badRate.body.detail).toContain('failureRate is a share from 0 to 1');
    const badLatency = await request(mock.app).put('/__mock/faults').send({ latency: '5-1' }).expect(400);
    expect(badLatency.body.detail).toContain('latency is milliseconds (0-60000) or a range "MIN-MAX"');
    await request(mock.app).delete('/__mock/faults').set('Content-Type', 'application/json').expect(204);
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
  });

  test('PUT /__mock/faults takes a latency range as "MIN-MAX" and answers it in that form', async () => {
    const slow = await newMock();
    await request(slow.app)
      .put('/__mock/faults')
      .send({ latency: '100-150' })
      .expect(200, { faults: { latency: '100-150' } });
    await request(slow.app)
      .get('/__mock/faults')
      .expect(200, { faults: { latency: '100-150' } });
    const start = Date.now();
    await request(slow.app).get('/members/m1/passes').set(AUTH).expect(200);
    expect(Date.now() - start).toBeGreaterThanOrEqual(95);
  });

  test('PUT /__mock/faults refuses a [min, max] pair with a problem naming the one format', async () => {
    const res = await request(mock.app)
      .put('/__mock/faults')
      .send({ latency: [100, 300] })
      .expect('Content-Type', /application\/problem\+json/)
      .expect(400);
    expect(res.body.detail).toContain(
      'latency is milliseconds (0-60000) or a range "MIN-MAX" such as "100-300", not [100,300] (write "100-300")',
    );
    await request(mock.app).get('/__mock/faults').expect(200, { faults: {} });
  });

  test('startMock and createApp refuse faults with a [min, max] latency, naming the one format', async () => {
    const faults = { latency: [100, 300] } as unknown as Faults;
    const refusal =
      'The faults were refused: latency is milliseconds (0-60000) or a range "MIN-MAX" such as "100-300", not ' +
      '[100,300] (write "100-300").';
    await expect(newMock({ faults })).rejects.toThrow(refusal);
    await expect(startMock({ faults })).rejects.toThrow(refusal);
  });

  test('latency in a range delays every answer within it', async () => {
    const slow = await newMock({ faults: { latency: '100-150' } });
    const start = Date.now();
    await request(slow.app).get('/members/m1/passes').set(AUTH).expect(200);
    const took = Date.now() - start;
    expect(took).toBeGreaterThanOrEqual(95);
    expect(took).toBeLessThan(1000);
  });
});
