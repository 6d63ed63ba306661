// Lets a page in a browser join a session: a cookie names it on every request the page makes, as the
// `X-Mock-Session` header does for a test's own requests (select-session.ts reads it).
import type { TLSSocket } from 'node:tls';
import { problem } from '../http/problems.js';
import { problemReply, type Reply } from '../http/reply.js';
import { badSessionName, isSessionName, SESSION_COOKIE } from '../handler/guards/select-session.js';
import type { Exchange } from '../handler/exchange.js';
import type { AdminEndpoint } from './admin-endpoint.js';

/** The paths of the two endpoints below `/__mock`, for the route table. */
export const JOIN = '/sessions/{name}/join';
export const LEAVE = '/sessions/leave';
const OPEN_PATH = /^\/__mock\/sessions\/(?:[^/]+\/join|leave)$/;

/**
 * Whether a request is for joining or leaving: they need no admin token, since the cookie lets a page do only
 * what any client of the contract may do with the header. They still come from the mock's own origin only.
 * @example opensSession('GET', '/__mock/sessions/w1/join') // true
 */
export function opensSession(method: string, path: string): boolean {
  return (method === 'GET' || method === 'HEAD') && OPEN_PATH.test(path);
}

/**
 * `GET /__mock/sessions/{name}/join?to=/path`: sets the `mock-session` cookie and sends the browser on to `to`
 * (303; `/` when left out). A session is made by the first call with the operation's credentials, not here.
 * @example GET /__mock/sessions/worker-1/join?to=/passes // 303, Set-Cookie: mock-session=worker-1; Path=/; ...
 */
export const joinSession: AdminEndpoint = ({ ex, params, instance }) => {
  const name = params.name!;
  if (!isSessionName(name)) return badSessionName(name, instance, { location: 'path', pointer: '/name' });
  return redirect(ex, instance, `${SESSION_COOKIE}=${name}`);
};

/** `GET /__mock/sessions/leave?to=/path`: takes the cookie away (the page is back on the default session). */
export const leaveSession: AdminEndpoint = ({ ex, instance }) =>
  redirect(ex, instance, `${SESSION_COOKIE}=; Max-Age=0`);

/** The 303 to `?to=` that sets `cookie`, or a 400 when `to` is not a path of this origin. */
function redirect(ex: Exchange, instance: string, cookie: string): Reply {
  const extra = Object.keys(ex.query).filter((name) => name !== 'to' && name !== 'session');
  if (extra.length) return badTo(instance, `Unknown parameter "${extra[0]}"; this endpoint takes to.`, extra[0]!);
  const { to = '/' } = ex.query;
  if (typeof to !== 'string') return badTo(instance, 'to must be given once.');
  const location = samePath(to);
  if (location === undefined)
    return badTo(
      instance,
      `to must be a path of this origin, such as /passes, not ${JSON.stringify(to.slice(0, 200))}.`,
    );
  const secure = (ex.req.socket as TLSSocket).encrypted ? '; Secure' : '';
  return {
    status: 303,
    headers: {
      Location: location,
      'Set-Cookie': `${cookie}; Path=/; SameSite=Lax; HttpOnly${secure}`,
      'Cache-Control': 'no-store',
    },
  };
}

/**
 * `to` as a Location of this origin, `undefined` for anything a browser could take elsewhere: an absolute
 * URL, `//host`, `/\host`, or a path with spaces or control characters (browsers drop tabs and newlines).
 */
function samePath(to: string): string | undefined {
  if (!to.startsWith('/') || to.startsWith('//') || /[\\\x00-\x20\x7f]/.test(to)) return undefined;
  const base = 'http://mock.invalid';
  const url = new URL(to, base);
  // Encoded as a header may carry it (no letters outside ASCII).
  return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : undefined;
}

function badTo(instance: string, detail: string, name = 'to'): Reply {
  const violations = [{ location: 'query' as const, pointer: `/${name}`, message: detail }];
  return problemReply(problem('invalidRequest', detail, { instance, violations }));
}
