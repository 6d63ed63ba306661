import { afterEach, describe, expect, test } from 'vitest';
import type { RunningMock, ServerOptions } from '../../mock/index.js';
import { openEvents, type EventReader } from '../support/event-reader.js';
import { AUTH, newServer } from '../support/harness.js';

let mock: RunningMock | undefined;
const readers: EventReader[] = [];

async function serve(options: ServerOptions = {}): Promise<RunningMock> {
  return (mock = await newServer(options));
}

async function events(path = '', headers: Record<string, string> = {}): Promise<EventReader> {
  const reader = await openEvents(`${mock!.url}/__mock/events${path}`, headers);
  readers.push(reader);
  return reader;
}

/** Calls GET /members/{id}/passes, in a session when named. */
async function call(member: string, session?: string): Promise<void> {
  const headers: Record<string, string> = { ...AUTH, ...(session ? { 'X-Mock-Session': session } : {}) };
  const res = await fetch(`${mock!.url}/members/${member}/passes`, { headers });
  await res.arrayBuffer();
}

/** How many listen to the journals (long-polls and streams), over all sessions. */
async function listeners(): Promise<number> {
  const res = await fetch(`${mock!.url}/__mock/sessions`);
  const { sessions } = (await res.json()) as { sessions: { waiters: number }[] };
  return sessions.reduce((sum, s) => sum + s.waiters, 0);
}

const pathOf = (data: string | undefined) => (JSON.parse(data!) as { path: string }).path;

afterEach(async () => {
  for (const reader of readers.splice(0)) reader.close();
  await mock?.close();
  mock = undefined;
});

describe('GET /__mock/events on a real socket', () => {
  test('replays the calls kept, then sends each new call as it is recorded, and never journals itself', async () => {
    await serve();
    await call('m1');
    await call('m2');
    const stream = await events();
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.response.headers.get('cache-control')).toBe('no-cache');
    const replayed = await stream.take(2);
    expect(replayed.map((e) => [e.id, e.event, pathOf(e.data)])).toEqual([
      ['call-1', 'call', '/members/m1/passes'],
      ['call-2', 'call', '/members/m2/passes'],
    ]);
    await call('m3');
    const [live] = await stream.take(1);
    expect(live).toMatchObject({ id: 'call-3', event: 'call' });
    // The record as GET /__mock/calls gives it.
    expect(JSON.parse(live!.data!)).toEqual(mock!.calls()[2]);
    expect(mock!.calls().map((c) => c.path)).not.toContain('/__mock/events');
  });

  test('resumes after the Last-Event-ID it is given, with the calls after it only', async () => {
    await serve();
    for (const member of ['m1', 'm2', 'm3']) await call(member);
    const stream = await events('', { 'Last-Event-ID': 'call-2' });
    await call('m4');
    expect((await stream.take(2)).map((e) => e.id)).toEqual(['call-3', 'call-4']);
  });

  test('resumes after ?since as after Last-Event-ID', async () => {
    await serve();
    for (const member of ['m1', 'm2', 'm3']) await call(member);
    const stream = await events('?since=call-1');
    expect((await stream.take(2)).map((e) => e.id)).toEqual(['call-2', 'call-3']);
  });

  test('without a last id it replays the newest 200 calls only', async () => {
    await serve();
    for (let i = 1; i <= 203; i++) await call(`m${i}`);
    const stream = await events();
    await call('last');
    const received = await stream.take(201);
    expect(received[0]!.id).toBe('call-4');
    expect(received[200]!.id).toBe('call-204');
  });

  test('a last id the mock never gave (it restarted since) gets a reset, then the calls kept', async () => {
    await serve();
    await call('m1');
    const stream = await events('', { 'Last-Event-ID': 'call-99' });
    expect((await stream.take(2)).map((e) => [e.event, e.data ?? e.id])).toEqual([
      ['reset', '{}'],
      ['call', JSON.stringify(mock!.calls()[0])],
    ]);
  });

  test('a Last-Event-ID that is no call id is a 400 naming the header', async () => {
    await serve();
    const res = await fetch(`${mock!.url}/__mock/events`, { headers: { 'Last-Event-ID': 'yesterday' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ violations: [{ location: 'header', pointer: '/last-event-id' }] });
  });

  test.each([
    ['DELETE /__mock/calls', 'DELETE', '/__mock/calls'],
    ['a reset of the session', 'POST', '/__mock/reset?session=s1'],
  ])('sends event: reset on %s, then goes on with the new calls', async (_name, method, path) => {
    await serve();
    const stream = await events('?session=s1');
    await call('m1', 's1');
    await stream.take(1);
    const res = await fetch(`${mock!.url}${path}`, { method, headers: { 'X-Mock-Session': 's1' } });
    expect(res.status).toBe(204);
    expect(await stream.take(1)).toEqual([{ event: 'reset', data: '{}' }]);
    await call('m2', 's1');
    expect(pathOf((await stream.take(1))[0]!.data)).toBe('/members/m2/passes');
  });

  test('a reset of the whole mock sends event: reset on the default session, and ends a named session’s stream', async () => {
    await serve();
    const main = await events();
    const named = await events('?session=s1');
    const res = await fetch(`${mock!.url}/__mock/reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(204);
    expect(await main.take(1)).toEqual([{ event: 'reset', data: '{}' }]);
    expect(await named.next()).toEqual({ event: 'reset', data: '{}' });
    expect(await named.next()).toBeUndefined();
  });

  test('a stream sees its own session’s calls only', async () => {
    await serve();
    const a = await events('', { 'X-Mock-Session': 'a' });
    await call('in-b', 'b');
    await call('in-a', 'a');
    expect(pathOf((await a.take(1))[0]!.data)).toBe('/members/in-a/passes');
  });

  test('takes the journal filters of GET /__mock/calls', async () => {
    await serve();
    await call('m1');
    await call('m2');
    const stream = await events('?path=/members/m2/*');
    await call('m1');
    await call('m2');
    expect((await stream.take(2)).map((e) => e.id)).toEqual(['call-2', 'call-4']);
  });

  test('behind a token, a stream without it is a 401 problem, and with it a stream', async () => {
    await serve({ admin: { token: 's3cret' } });
    const refused = await fetch(`${mock!.url}/__mock/events`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    const stream = await events('', { Authorization: 'Bearer s3cret' });
    expect(stream.response.status).toBe(200);
  });

  test('a stream whose client leaves stops listening at once', async () => {
    await serve();
    const stream = await events();
    expect(await listeners()).toBe(1);
    stream.close();
    while ((await listeners()) > 0);
  });

  test('close() ends an open stream at once: its client reads the end, and nothing is cut off', async () => {
    await serve();
    const stream = await events();
    const started = performance.now();
    expect(await mock!.close()).toEqual({ cutOff: 0 });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await stream.next()).toBeUndefined();
    mock = undefined;
  });
});
