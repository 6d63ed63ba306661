// Picks the session of a request from `X-Mock-Session`, else the `mock-session` cookie a page joined with (contract
// requests), else `?session=` (the admin API).
import { problem, type Violation } from '../../http/problems.js';
import { problemReply, type Reply } from '../../http/reply.js';
import { cookieValue } from '../../http/cookie-header.js';
import { isUnder } from '../../lib/path-prefix.js';

/** What the session of a request is read from: its headers, its path and its query. */
interface Named {
  headers: Record<string, string | string[] | undefined>;
  path: string;
  query: Record<string, string | string[]>;
}

export const SESSION_HEADER = 'x-mock-session';
/** The cookie a page in a browser names its session with (see admin/join-session.ts): it cannot set a header. */
export const SESSION_COOKIE = 'mock-session';
const NAME = /^[A-Za-z0-9_.:-]{1,64}$/;
const RULE = 'must be 1-64 characters of [A-Za-z0-9_.:-]';

/** Whether `name` can name a session: 1-64 characters of `[A-Za-z0-9_.:-]`. */
export function isSessionName(name: string): boolean {
  return NAME.test(name);
}

/**
 * The name of the session a request names, `''` for the default one (also for a malformed name: see {@link
 * refuseSessionName}).
 */
export function requestedSession(request: Named): string {
  const name = sessionName(request);
  return name === '' || NAME.test(name) ? name : '';
}

/** A 400 problem when the request names a malformed session; such requests are recorded in the default session. */
export function refuseSessionName(request: Named): Reply | undefined {
  // Two names are no name: which one would be reset, or written to?
  if (namesTwice(request)) {
    const violations = [{ location: 'query' as const, pointer: '/session', message: 'must be given once' }];
    const detail = '?session= is given more than once: name one session.';
    return problemReply(problem('invalidRequest', detail, { instance: request.path, violations }));
  }
  const name = sessionName(request);
  if (name === '' || NAME.test(name)) return undefined;
  const fromCookie = typeof request.headers[SESSION_HEADER] !== 'string' && !isAdminPath(request.path);
  const where = fromCookie
    ? { location: 'header' as const, pointer: '/cookie', message: `the ${SESSION_COOKIE} cookie ${RULE}` }
    : { location: 'header' as const, pointer: `/${SESSION_HEADER}`, message: RULE };
  return badSessionName(name, request.path, where);
}

/**
 * The 400 problem for a malformed session name, wherever it was given (`where`: its location and pointer).
 * @example badSessionName('a b', '/__mock/sessions/a%20b/join', { location: 'path', pointer: '/name' })
 */
export function badSessionName(
  name: string,
  instance: string,
  where: Pick<Violation, 'location' | 'pointer'> & { message?: string },
): Reply {
  const violations = [{ message: RULE, ...where }];
  return problemReply(
    problem(
      'invalidRequest',
      `The session name "${name.slice(0, 80)}" is not 1-64 characters of letters, digits, "_", ".", ":" or "-".`,
      { instance, violations },
    ),
  );
}

/** Whether an admin request gives `?session=` more than once (the only place the query names a session). */
function namesTwice({ headers, path, query }: Named): boolean {
  return typeof headers[SESSION_HEADER] !== 'string' && isAdminPath(path) && Array.isArray(query.session);
}

/** Whether a request is for the admin API (`/__mock` and below). */
export const isAdminPath = (path: string): boolean => isUnder(path, '/__mock');

/** The header wins; the cookie counts for contract requests, `?session=` for the admin API's. */
function sessionName({ headers, path, query }: Named): string {
  const header = headers[SESSION_HEADER];
  if (typeof header === 'string') return header;
  if (!isAdminPath(path)) return cookieValue(headers.cookie, SESSION_COOKIE) ?? '';
  const named = path === '/__mock' ? undefined : query.session;
  return typeof named === 'string' ? named : '';
}
