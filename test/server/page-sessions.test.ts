// Sessions for pages, on real sockets: a page in a browser cannot set X-Mock-Session on each request, so it
// joins a session once (GET /__mock/sessions/{name}/join) and its cookie names the session from then on.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningMock } from '../../mock/index.js';
import { AUTH, newServer } from '../support/harness.js';
import { startUpstream } from '../support/upstream.js';

const TOKEN = 'page-sessions-admin-token';
const ADMIN = { Authorization: `Bearer ${TOKEN}` };

let mock: RunningMock;
beforeAll(async () => {
  mock = await newServer({ admin: { token: TOKEN } });
});
afterAll(() => mock.close());

/** A GET that does not follow redirects, so the 303 itself is read. */
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${mock.url}${path}`, { headers, redirect: 'manual' });

const sessionNames = async (): Promise<string[]> => {
  const res = await get('/__mock/sessions', ADMIN);
  const { sessions } = (await res.json()) as { sessions: { name: string }[] };
  return sessions.map((s) => s.name);
};

describe('joining a session in a browser', () => {
  test('join sets the mock-session cookie (Path=/, SameSite=Lax, HttpOnly) and sends the browser on with a 303', async () => {
    const res = await get('/__mock/sessions/worker-1/join?to=/passes%3Fmember%3Dmbr_1');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/passes?member=mbr_1');
    expect(res.headers.getSetCookie()).toEqual(['mock-session=worker-1; Path=/; SameSite=Lax; HttpOnly']);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  test('join without to sends the browser to /', async () => {
    const res = await get('/__mock/sessions/worker-1/join');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
  });

  test('a path outside ASCII is sent on percent-encoded, as a header can carry it', async () => {
    const res = await get(`/__mock/sessions/w/join?to=${encodeURIComponent('/café?q=é')}`);
    expect(res.headers.get('location')).toBe('/caf%C3%A9?q=%C3%A9');
  });

  test('leave takes the cookie away and sends the browser on', async () => {
    const res = await get('/__mock/sessions/leave?to=/members');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/members');
    expect(res.headers.getSetCookie()).toEqual(['mock-session=; Max-Age=0; Path=/; SameSite=Lax; HttpOnly']);
  });

  test.each([
    ['an absolute URL', 'https://evil.example/'],
    ['a scheme-relative URL', '//evil.example/'],
    ['a backslash browsers read as a slash', '/\\evil.example/'],
    ['a tab browsers drop', '/\t/evil.example/'],
    ['a relative path', 'passes'],
    ['a javascript: URL', 'javascript:alert(1)'],
  ])('refuses %s as to with a 400 problem and sets no cookie', async (_, to) => {
    const res = await get(`/__mock/sessions/w/join?to=${encodeURIComponent(to)}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.headers.getSetCookie()).toEqual([]);
    const body = (await res.json()) as { detail: string; violations: unknown[] };
    expect(body.detail).toContain('to must be a path of this origin');
    expect(body.violations).toEqual([expect.objectContaining({ location: 'query', pointer: '/to' })]);
  });

  test('refuses a parameter it does not take, naming it', async () => {
    const res = await get('/__mock/sessions/w/join?to=/&next=/x');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { violations: unknown[] };
    expect(body.violations).toEqual([expect.objectContaining({ location: 'query', pointer: '/next' })]);
  });

  test('refuses a malformed session name with the 400 problem headers get, pointing at the path', async () => {
    const res = await get('/__mock/sessions/not%20a%20name/join');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { type: string; detail: string; violations: unknown[] };
    expect(body.type).toBe('https://example.com/problems/invalid-request');
    expect(body.detail).toContain('The session name "not a name" is not 1-64 characters');
    expect(body.violations).toEqual([expect.objectContaining({ location: 'path', pointer: '/name' })]);
  });

  test('needs no admin token, where the rest of the admin API does', async () => {
    expect((await get('/__mock/sessions/w/join')).status).toBe(303);
    expect((await get('/__mock/sessions')).status).toBe(401);
  });

  test('is refused to a page of another site, so no site can put a visitor in a session of its choice', async () => {
    const res = await get('/__mock/sessions/w/join', { 'Sec-Fetch-Site': 'cross-site' });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  test('only GET joins: a POST is told which method the endpoint takes', async () => {
    const res = await fetch(`${mock.url}/__mock/sessions/w/join`, { method: 'POST', headers: ADMIN });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
  });
});

describe('the cookie names the session of contract requests', () => {
  test('a call with the cookie lands in its session, and makes it once authenticated', async () => {
    await get('/__mock/sessions/page-a/join');
    expect(await sessionNames()).not.toContain('page-a'); // joining makes no session

    const res = await get('/members/m1/passes', { ...AUTH, Cookie: 'theme=dark; mock-session=page-a' });
    expect(res.status).toBe(200);
    expect(await sessionNames()).toContain('page-a');
    expect(mock.calls({ operationId: 'listPasses' }, 'page-a')).toHaveLength(1);
    expect(mock.calls({ operationId: 'listPasses' }, '')).toHaveLength(0);
  });

  test('a call without credentials makes no session from its cookie', async () => {
    const res = await get('/members/m1/passes', { Cookie: 'mock-session=stranger' });
    expect(res.status).toBe(401);
    expect(await sessionNames()).not.toContain('stranger');
  });

  test('the header wins over the cookie', async () => {
    await get('/members/m2/passes', { ...AUTH, Cookie: 'mock-session=page-b', 'X-Mock-Session': 'header-b' });
    expect(mock.calls({ operationId: 'listPasses' }, 'header-b')).toHaveLength(1);
    expect(mock.calls({ operationId: 'listPasses' }, 'page-b')).toHaveLength(0);
  });

  test('a quoted cookie value names the same session', async () => {
    await get('/members/m3/passes', { ...AUTH, Cookie: 'mock-session="page-c"' });
    expect(mock.calls({ operationId: 'listPasses' }, 'page-c')).toHaveLength(1);
  });

  test('a malformed cookie is refused with the 400 problem, pointing at the cookie', async () => {
    const res = await get('/members/m1/passes', { ...AUTH, Cookie: 'mock-session=a/b' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { violations: { location: string; pointer: string; message: string }[] };
    expect(body.violations).toEqual([
      {
        location: 'header',
        pointer: '/cookie',
        message: 'the mock-session cookie must be 1-64 characters of [A-Za-z0-9_.:-]',
      },
    ]);
  });

  test('the admin index takes no session from the cookie, and makes none', async () => {
    const res = await get('/__mock', { ...ADMIN, Cookie: 'mock-session=index-cookie' });
    expect(res.status).toBe(200);
    expect((await get('/__mock', { ...ADMIN, Cookie: 'mock-session=a/b' })).status).toBe(200);
    expect(await sessionNames()).not.toContain('index-cookie');
  });

  test('the admin API keeps to the header and ?session=: the cookie does not pick its session', async () => {
    await get('/members/m4/passes', { ...AUTH, Cookie: 'mock-session=page-d' });
    const res = await get('/__mock/calls/count?operationId=listPasses', { ...ADMIN, Cookie: 'mock-session=page-d' });
    const inDefault = mock.calls({ operationId: 'listPasses' }, '').length;
    expect(await res.json()).toEqual({ count: inDefault });
  });
});

describe('in front of a real backend', () => {
  test('the session cookie stays with the mock, the page’s other cookies go on to the backend', async () => {
    const upstream = await startUpstream((_, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":[],"next_cursor":null}'),
    );
    const proxied = await newServer({ proxy: upstream.url });
    try {
      const res = await fetch(`${proxied.url}/members/m1/passes`, {
        headers: { ...AUTH, Cookie: 'theme=dark; mock-session=page-e; lang=en' },
      });
      expect(res.status).toBe(200);
      expect(upstream.received.map((r) => r.headers.cookie)).toEqual(['theme=dark; lang=en']);
      expect(proxied.calls({ operationId: 'listPasses' }, 'page-e')).toHaveLength(1);

      await fetch(`${proxied.url}/members/m1/passes`, { headers: { ...AUTH, Cookie: 'mock-session=page-e' } });
      expect(upstream.received[1]?.headers.cookie).toBeUndefined();
    } finally {
      await proxied.close();
      await upstream.close();
    }
  });
});
