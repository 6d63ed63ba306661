import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { AUTH, newMock } from '../support/harness.js';

/** An admin request body sent as JSON text, as it is (a deep value would overflow superagent's JSON.stringify). */
const postOverride = (app: Parameters<typeof request>[0], text: string) =>
  request(app).post('/__mock/overrides').set('Content-Type', 'application/json').send(text);

describe('overrides are bounded', () => {
  test('an override with a 100 KiB match is refused with 422, never stored', async () => {
    const mock = await newMock();
    const spec = { operationId: 'listPasses', status: 500, match: { headers: { 'x-pad': 'x'.repeat(100_000) } } };
    const res = await postOverride(mock.app, JSON.stringify(spec)).expect(422);
    expect(res.body.detail).toMatch(/match is \d+ bytes of JSON; at most 65536 are kept/);
    expect((await request(mock.app).get('/__mock/overrides').expect(200)).body.overrides).toEqual([]);
  });

  test('an override with a match nested 100,000 deep is refused with 400 before it is parsed, and the overrides still list', async () => {
    const mock = await newMock();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const res = await postOverride(mock.app, `{"operationId":"listPasses","status":500,"match":{"body":${deep}}}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('The body nests deeper than 64 levels');
    expect((await request(mock.app).get('/__mock/overrides').expect(200)).body.overrides).toEqual([]);
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
  });

  test('a session holds at most 100 overrides: the 101st is refused with 409 and not stored', async () => {
    const mock = await newMock();
    for (let i = 0; i < 100; i++) mock.override({ operationId: 'listPasses', status: 500, times: 1 });
    const res = await postOverride(mock.app, '{"operationId":"listPasses","status":500}').expect(409);
    expect(res.body).toMatchObject({
      type: 'https://example.com/problems/too-many-overrides',
      detail: expect.stringContaining('this session already holds 100 overrides, the most it may'),
    });
    expect((await request(mock.app).get('/__mock/overrides')).body.overrides).toHaveLength(100);
  });

  test('mock.override() throws the same message past 100 overrides', async () => {
    const mock = await newMock();
    for (let i = 0; i < 100; i++) mock.override({ operationId: 'listPasses', status: 500 });
    expect(() => mock.override({ operationId: 'listPasses', status: 500 })).toThrow(
      'The override was refused: this session already holds 100 overrides, the most it may; ',
    );
  });

  test('the bound is per session: a full session leaves the others free', async () => {
    const mock = await newMock();
    for (let i = 0; i < 100; i++) mock.override({ operationId: 'listPasses', status: 500 });
    await postOverride(mock.app, '{"operationId":"listPasses","status":500}').set('X-Mock-Session', 'b').expect(201);
  });

  test('an override used up makes room for another', async () => {
    const mock = await newMock();
    for (let i = 0; i < 100; i++) mock.override({ operationId: 'listPasses', status: 500, times: 1 });
    await request(mock.app).get('/members/m1/passes').set(AUTH).expect(500);
    await postOverride(mock.app, '{"operationId":"listPasses","status":500}').expect(201);
  });

  test('a match of more than 4096 values is refused with 422, however short its text', async () => {
    const mock = await newMock();
    const many = `[${Array.from({ length: 5000 }, () => '{}').join(',')}]`;
    const res = await postOverride(mock.app, `{"operationId":"listPasses","status":500,"match":{"body":${many}}}`);
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain('match has more than 4096 values');
  });

  test('the overrides of all sessions together stay within 16 MiB: past it, 409 and nothing stored', async () => {
    const mock = await newMock();
    const big = (i: number) => ({
      operationId: 'listPasses',
      status: 500,
      match: { query: { q: `${i % 10}`.repeat(60_000) } },
    });
    let stored = 0;
    for (let s = 0; s < 4; s++)
      for (let i = 0; i < 100; i++) {
        try {
          mock.override(big(i), `s${s}`);
          stored++;
        } catch {
          break;
        }
      }
    expect(stored).toBeGreaterThan(250);
    expect(stored).toBeLessThan(290);
    const res = await postOverride(mock.app, JSON.stringify(big(7)))
      .set('X-Mock-Session', 'fresh')
      .expect(409);
    expect(res.body.detail).toMatch(/the overrides of all sessions already hold \d+ of the 16777216 bytes/);
    expect((await request(mock.app).get('/__mock/overrides').set('X-Mock-Session', 'fresh')).body.overrides).toEqual(
      [],
    );
  });

  test('clearing overrides makes room in the budget again', async () => {
    const mock = await newMock();
    const big = { operationId: 'listPasses', status: 500, match: { query: { q: 'x'.repeat(60_000) } } };
    for (let s = 0; s < 3; s++)
      for (let i = 0; i < 100 && s * 100 + i < 290; i++) {
        try {
          mock.override(big, `s${s}`);
        } catch {
          break;
        }
      }
    expect(() => mock.override(big, 'more')).toThrow(/16777216 bytes/);
    mock.clearOverrides('s0');
    expect(mock.override(big, 'more').id).toMatch(/^override-/);
  });

  test('override headers of more than 64 KiB are refused with 422, like a match or a body', async () => {
    const mock = await newMock();
    const spec = { operationId: 'listPasses', headers: { 'X-Big': 'x'.repeat(100_000) } };
    const res = await postOverride(mock.app, JSON.stringify(spec)).expect(422);
    expect(res.body.detail).toMatch(/headers is \d+ bytes of JSON; at most 65536 are kept/);
  });

  test('an override header with a line break is refused with 422, naming the header', async () => {
    const mock = await newMock();
    const spec = { operationId: 'listPasses', headers: { 'X-Note': 'a\r\nSet-Cookie: session=stolen' } };
    const res = await postOverride(mock.app, JSON.stringify(spec)).expect(422);
    expect(res.body.detail).toContain('header "X-Note" has a control character (CR, LF...) in its value');
    expect((await request(mock.app).get('/__mock/overrides')).body.overrides).toEqual([]);
  });

  test('an override with a good header is stored and sends it', async () => {
    const mock = await newMock();
    const spec = { operationId: 'listPasses', headers: { 'X-Note': 'from an override' } };
    await postOverride(mock.app, JSON.stringify(spec)).expect(201);
    const res = await request(mock.app).get('/members/m1/passes').set(AUTH).expect(200);
    expect(res.headers['x-note']).toBe('from an override');
  });
});

describe('waits are bounded as overrides are', () => {
  const postWait = (app: Parameters<typeof request>[0], body: unknown) =>
    request(app).post('/__mock/calls/wait').set('Content-Type', 'application/json').send(JSON.stringify(body));

  test('a wait whose match has more than 4096 values is refused with 413 at once, and nothing waits', async () => {
    const mock = await newMock();
    const res = await postWait(mock.app, {
      match: { body: Array.from({ length: 5000 }, () => ({})) },
      timeout: 60_000,
    });
    expect(res.status).toBe(413);
    expect(res.body.detail).toBe('The wait was refused: match has more than 4096 values; at most that are kept.');
    expect((await request(mock.app).get('/__mock/sessions')).body.sessions[0].waiters).toBe(0);
  });

  test('a wait whose match is over 64 KiB of JSON is refused with 413, in process too', async () => {
    const mock = await newMock();
    const match = { headers: { 'x-pad': 'x'.repeat(70_000) } };
    expect((await postWait(mock.app, { match })).status).toBe(413);
    await expect(mock.waitForCall(match)).rejects.toThrow(/^waitForCall\(\): The wait was refused: match is \d+ bytes/);
  });

  test('the open waits share a byte budget: past it a wait is refused with 429 and Retry-After', async () => {
    const mock = await newMock();
    // Each holds about 60 KB: the 16 MiB budget takes some 270 of them.
    const match = { headers: { 'x-pad': 'x'.repeat(60_000) } };
    const waits = Array.from({ length: 300 }, () => mock.waitForCall(match, { timeout: 2000 }).catch((e: Error) => e));
    const refused = await postWait(mock.app, { match, timeout: 10 });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body.detail).toMatch(/^waits holding \d+ of 16777216 bytes are open on this mock/);
    const ended = await Promise.all(waits);
    expect(
      ended.filter((e) => e instanceof Error && /holding \d+ of 16777216 bytes/.test(e.message)).length,
    ).toBeGreaterThan(0);
    // Once they end, the budget is free again.
    expect((await postWait(mock.app, { match, timeout: 10 })).status).toBe(408);
  });
});
