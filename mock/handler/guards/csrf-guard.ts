// Refuses the admin changes a web page of another site could make (cross-site request forgery).
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { problem } from '../../http/problems.js';
import { problemReply, type Reply } from '../../http/reply.js';
import { mediaTypeOf } from '../../http/body-kind.js';

/** The 403 for an admin request that changes the mock and could have been forged, or `undefined`. */
export type CsrfGuard = (req: IncomingMessage, instance: string) => Reply | undefined;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const JSON_TYPE = /^application\/(?:[^\s/;]+\+)?json$/;

/**
 * Lets a request that changes the mock (POST, PUT, DELETE...) through only when no web page could have sent it
 * without a CORS preflight, which the admin API answers for listed origins only: it must carry
 * `Content-Type: application/json` (or `application/*+json`), `Authorization` or an `X-Mock-*` header. It must
 * come from the mock's own origin or one listed in `cors` when it names one (`Origin`), and not from a page
 * of another site (`Sec-Fetch-Site`) otherwise. Reading requests need no such header, but come from the
 * same places: an `<img>` of another site would otherwise make sessions and hold long-polls open.
 * @example csrfGuard(['http://localhost:5173'])(req, '/__mock/reset') // 403 for a text/plain POST
 */
export function csrfGuard(cors: boolean | readonly string[]): CsrfGuard {
  // `Origin: null` (a sandboxed frame, a file) is never taken as listed: any page can make itself one.
  const listed = new Set(typeof cors === 'boolean' ? [] : cors.filter((origin) => origin !== 'null'));
  return (req, instance) => {
    const method = req.method ?? 'GET';
    const { origin } = req.headers;
    const site = req.headers['sec-fetch-site'];
    const otherSite = site === 'cross-site' || site === 'same-site';
    if (origin !== undefined ? !(listed.has(origin) || isOwnOrigin(origin, req)) : otherSite) {
      const from = origin === undefined ? `A page of another site (Sec-Fetch-Site: ${site})` : `The origin ${origin}`;
      const detail =
        `${from} may not use the admin API: it takes requests only from its own origin ` +
        'and the origins listed with --cors-origin.';
      return problemReply(problem('forbiddenOrigin', detail, { instance }));
    }
    if (SAFE_METHODS.has(method) || cannotBeForged(req.headers)) return undefined;
    const detail =
      `${method} ${instance} changes the mock, so it must be a request no web page can send on its own: ` +
      'send Content-Type: application/json (an empty body is fine), an Authorization header or an X-Mock-* header ' +
      '(X-Mock-Session).';
    return problemReply(problem('forgeableAdminRequest', detail, { instance }));
  };
}

/** Headers a page of another site can send only after a CORS preflight. */
function cannotBeForged(headers: IncomingHttpHeaders): boolean {
  const type = mediaTypeOf(headers['content-type']);
  if ((type !== undefined && JSON_TYPE.test(type)) || headers.authorization !== undefined) return true;
  for (const name in headers) if (name.startsWith('x-mock-')) return true;
  return false;
}

/** Whether `origin` is the request's own: the same scheme and Host (the port included). */
function isOwnOrigin(origin: string, req: IncomingMessage): boolean {
  const { host } = req.headers;
  if (host === undefined) return false;
  const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  try {
    return new URL(origin).origin === new URL(`${scheme}://${host}`).origin;
  } catch {
    return false;
  }
}
