import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { AUTH, newMock } from '../support/harness.js';

const PASS = 'pas_01JD3Z6Q9V8X7W6T5S4R3P2N1M';
const url = (path: string) => `http://api.example.com${path}`;

/** A HAR entry as a browser records it. */
function entry(method: string, path: string, status: number, body?: unknown, mimeType = 'application/json') {
  return {
    request: { method, url: url(path), headers: [], queryString: [] },
    response: {
      status,
      headers: [],
      content: body === undefined ? { size: 0, mimeType } : { size: 1, mimeType, text: JSON.stringify(body) },
    },
  };
}

const pass = (name: string) => ({
  id: PASS,
  member_id: 'm1',
  name,
  status: 'active',
  valid_from: '2026-01-05T09:30:00Z',
  valid_until: null,
  created_at: '2026-01-05T09:30:00Z',
});

describe('a HAR file replayed as overrides', () => {
  test('answers each request with what was recorded, in the order recorded, then as before', async () => {
    const mock = await newMock();
    const har = {
      log: {
        entries: [
          entry('GET', `/members/m1/passes/${PASS}`, 200, pass('First')),
          entry('GET', `/members/m1/passes/${PASS}`, 200, pass('Second')),
        ],
      },
    };
    const result = mock.importHar(har);
    expect(result).toMatchObject({ entries: 2, refused: [], refusedCount: 0 });
    expect(result.overrides.map((o) => [o.operationId, o.match, o.times])).toEqual([
      ['getPass', { pathParams: { member_id: 'm1', pass_id: PASS } }, 1],
      ['getPass', { pathParams: { member_id: 'm1', pass_id: PASS } }, 1],
    ]);
    const read = () => request(mock.app).get(`/members/m1/passes/${PASS}`).set(AUTH);
    expect((await read()).body.name).toBe('First');
    expect((await read()).body.name).toBe('Second');
    expect((await read()).status).toBe(404); // the recordings are used up: the mock's own answer
  });

  test('the query of a recorded request is part of its match', async () => {
    const mock = await newMock();
    const page = { data: [pass('Paged')], next_cursor: null };
    mock.importHar({ log: { entries: [entry('GET', '/members/m1/passes?limit=1', 200, page)] } }, { replay: 'last' });
    expect((await request(mock.app).get('/members/m1/passes').set(AUTH)).body.data[0]?.name).not.toBe('Paged');
    expect((await request(mock.app).get('/members/m1/passes?limit=1').set(AUTH)).body).toEqual(page);
    expect((await request(mock.app).get('/members/m1/passes?limit=1').set(AUTH)).body).toEqual(page);
  });

  test('with replay "last", a request recorded with a query is tried before one recorded without', async () => {
    const mock = await newMock();
    const first = { data: [pass('Page 1')], next_cursor: 'c2' };
    const second = { data: [pass('Page 2')], next_cursor: null };
    mock.importHar(
      {
        log: {
          entries: [
            entry('GET', '/members/m1/passes', 200, first),
            entry('GET', '/members/m1/passes?cursor=c2', 200, second),
          ],
        },
      },
      { replay: 'last' },
    );
    expect((await request(mock.app).get('/members/m1/passes').set(AUTH)).body).toEqual(first);
    expect((await request(mock.app).get('/members/m1/passes?cursor=c2').set(AUTH)).body).toEqual(second);
  });

  test('a query name recorded twice matches the request that sends both values', async () => {
    const mock = await newMock();
    const page = { data: [pass('Both')], next_cursor: null };
    const result = mock.importHar({
      log: { entries: [entry('GET', '/members/m1/passes?cursor=a&cursor=b', 200, page)] },
    });
    expect(result.overrides[0]!.match!.query).toEqual({ cursor: ['a', 'b'] });
  });

  test('with replay "last", the last answer of each request answers every time', async () => {
    const mock = await newMock();
    const path = `/members/m1/passes/${PASS}`;
    const result = mock.importHar(
      { log: { entries: [entry('GET', path, 200, pass('Old')), entry('GET', path, 200, pass('New'))] } },
      { replay: 'last' },
    );
    expect(result.overrides).toHaveLength(1);
    expect(result.overrides[0]!.remaining).toBeNull();
    for (let i = 0; i < 3; i++) expect((await request(mock.app).get(path).set(AUTH)).body.name).toBe('New');
  });

  test('refuses, with why, entries of no operation, without an answer, with a body not JSON, or breaking the contract', async () => {
    const mock = await newMock();
    const result = mock.importHar({
      log: {
        entries: [
          entry('GET', '/app.js', 200, 'x', 'text/javascript'),
          entry('GET', '/members/m1/passes', 0),
          entry('GET', '/members/m1/passes', 200, 'hello', 'text/plain'),
          entry('GET', `/members/m1/passes/${PASS}`, 200, { ...pass('Bad'), status: 'lost' }),
          entry('DELETE', `/members/m1/passes/${PASS}`, 204),
        ],
      },
    });
    expect(result.overrides.map((o) => [o.operationId, o.status])).toEqual([['deletePass', 204]]);
    expect(result.refusedCount).toBe(4);
    expect(result.refused.map((r) => [r.entry, r.request, r.reasons[0]])).toEqual([
      [0, 'GET /app.js', 'no operation of the contract has this method and path'],
      [1, 'GET /members/m1/passes', 'no answer was recorded (response.status is not 200-599)'],
      [2, 'GET /members/m1/passes', 'its body is text/plain: only JSON bodies are replayed'],
      [3, `GET /members/m1/passes/${PASS}`, expect.stringMatching(/^body: .*\/status/)],
    ]);
  });

  test('a base64 body is read as its bytes; one that is not base64, or not JSON once read, is refused saying which', async () => {
    const mock = await newMock();
    const encoded = (text: string) => {
      const recorded = entry('GET', `/members/m1/passes/${PASS}`, 200);
      recorded.response.content = { size: 1, mimeType: 'application/json', text, encoding: 'base64' } as never;
      return recorded;
    };
    const result = mock.importHar({
      log: {
        entries: [
          encoded(Buffer.from(JSON.stringify(pass('Gold'))).toString('base64')),
          encoded('not base64!'),
          encoded(Buffer.from('{"id": ').toString('base64')),
        ],
      },
    });
    expect(result.overrides).toHaveLength(1);
    expect(result.refused.map((r) => [r.entry, r.reasons[0]])).toEqual([
      [1, 'its body is not base64, though its encoding says so'],
      [2, 'its body is not JSON, though its type says so'],
    ]);
    const res = await request(mock.app).get(`/members/m1/passes/${PASS}`).set(AUTH);
    expect(res.body).toMatchObject({ id: PASS, name: 'Gold' });
  });

  test('an answer the HAR holds only the start of (_truncated) is refused saying so, not as broken JSON', async () => {
    const mock = await newMock();
    const cut = entry('GET', `/members/m1/passes/${PASS}`, 200);
    const start = JSON.stringify(pass('Gold')).slice(0, 20);
    cut.response.content = {
      size: 900,
      mimeType: 'application/json',
      text: start,
      _truncated: { bytes: 900 },
    } as never;
    const result = mock.importHar({ log: { entries: [cut] } });
    expect(result.overrides).toEqual([]);
    expect(result.refused[0]!.reasons[0]).toBe(
      'its body was cut when it was recorded (900 bytes): --record keeps an answer whole up to 1 MiB, ' +
        'GET /__mock/calls.har up to --journal-body-limit',
    );
  });

  test("round-trips the mock's own HAR export, dropped calls included", async () => {
    const recorder = await newMock();
    recorder.override({ operationId: 'listCredentials', fault: 'drop', times: 1 });
    await request(recorder.app)
      .get('/members/m1/credentials')
      .set(AUTH)
      .catch(() => undefined);
    const listed = await request(recorder.app).get('/members/m1/passes').set(AUTH).expect(200);
    const har = (await request(recorder.app).get('/__mock/calls.har').expect(200)).body;

    const replayer = await newMock({ seed: 99 });
    const res = await request(replayer.app).post('/__mock/har').set('Content-Type', 'application/json').send(har);
    expect(res.status).toBe(200);
    expect(res.body.overrides.map((o: { operationId: string; fault?: string }) => [o.operationId, o.fault])).toEqual([
      ['listCredentials', 'drop'],
      ['listPasses', undefined],
    ]);
    await expect(request(replayer.app).get('/members/m1/credentials').set(AUTH)).rejects.toThrow(/socket hang up/);
    expect((await request(replayer.app).get('/members/m1/passes').set(AUTH)).body).toEqual(listed.body);
  });

  test('POST /__mock/har refuses a body that is no HAR, and an unknown replay, with a 400', async () => {
    const mock = await newMock();
    const notHar = await request(mock.app)
      .post('/__mock/har')
      .set('Content-Type', 'application/json')
      .send({ entries: [] });
    expect(notHar.status).toBe(400);
    expect(notHar.body.detail).toBe(
      'The body must be a HAR file: a HAR is a JSON object { log: { entries: [...] } } (HAR 1.2).',
    );
    const replay = await request(mock.app)
      .post('/__mock/har?replay=first')
      .set('Content-Type', 'application/json')
      .send({ log: { entries: [] } });
    expect(replay.status).toBe(400);
    expect(replay.body.violations[0]).toMatchObject({ location: 'query', pointer: '/replay' });
    expect(() => mock.importHar([])).toThrow(/^importHar\(\): a HAR is a JSON object/);
  });
});

describe('a HAR import is bounded', () => {
  const postHar = (app: Parameters<typeof request>[0], text: string) =>
    request(app).post('/__mock/har').set('Content-Type', 'application/json').send(text);

  test('a HAR of more than 10,000 entries is refused with 413 at once, and nothing is set', async () => {
    const mock = await newMock();
    const res = await postHar(mock.app, `{"log":{"entries":[${Array(10_001).fill('0').join(',')}]}}`);
    expect(res.status).toBe(413);
    expect(res.body.detail).toBe(
      'the HAR has more than 10000 entries; at most 10000 are read (export fewer, or split it)',
    );
    expect(mock.calls()).toEqual([]);
    expect((await request(mock.app).get('/__mock/overrides')).body.overrides).toEqual([]);
  });

  test('past the session’s 100 overrides, the rest are refused unread, and only the first 100 refusals are listed', async () => {
    const mock = await newMock();
    const good = Array.from({ length: 100 }, () => entry('GET', `/members/m1/passes/${PASS}`, 200, pass('Kept')));
    // After the session is full, a body that is no JSON is not even read: its refusal is the full session's.
    const broken = {
      ...entry('GET', '/members/m1/passes', 200),
      response: { status: 200, content: { mimeType: 'application/json', text: '{' } },
    };
    const har = { log: { entries: [...good, ...Array(150).fill(broken)] } };
    const res = await postHar(mock.app, JSON.stringify(har)).expect(200);
    expect(res.body).toMatchObject({ entries: 250, refusedCount: 150 });
    expect(res.body.overrides).toHaveLength(100);
    expect(res.body.refused).toHaveLength(100);
    expect(res.body.refused[0]).toEqual({
      entry: 100,
      request: 'GET /members/m1/passes',
      reasons: [expect.stringContaining('this session already holds 100 overrides')],
    });
  });
});
