// One request and its response as the pipeline sees them: Node's own objects plus what each step learned.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parse as parseQuery } from 'node:querystring';
import parseUrl from 'parseurl';
import type { RequestLogger } from './log-requests.js';
import type { RouteHit } from '../plan/operation-plan.js';
import type { MockContext } from '../instance/mock-context.js';
import type { Session } from '../instance/session.js';
import { newRequestId } from './request-id.js';
import { selectSession } from './select-session.js';

export type Query = Record<string, string | string[]>;

/**
 * What the pipeline knows about a request. It works on Node's `IncomingMessage` and `ServerResponse`
 * directly, so contract requests never pay for Express's per-request setup (see handle.ts).
 */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  /** The path as received, without the query (and, when mounted in an Express app, without the mount path). */
  readonly path: string;
  /** The query string as received, without `?`. */
  readonly rawQuery: string;
  /** The query parameters; a repeated name gives an array. */
  readonly query: Query;
  readonly requestId: string;
  /** The session named by the request (see select-session.ts), or the default one. */
  readonly session: Session;
  /** The operation, once match-route.ts has found it. */
  match?: RouteHit;
  /** The parsed body, once parse-body.ts has read it; `undefined` when none was sent. */
  body?: unknown;
  /** The size of the body as received, in bytes, once parse-body.ts has read it. */
  bodyBytes?: number;
  /** Recorded in the journal instead of the body, when the body cannot be recorded. */
  unrecordableBody?: string;
  /** The answer's own headers, as name, value, name, value...: the request id, then CORS's. */
  readonly headers: string[];
  /** When the request arrived (`performance.now()`), for the log line. */
  readonly start: number;
  /** Writes the log line once the answer is written (see log-requests.ts); absent when logging is off. */
  log?: RequestLogger;
}

const EMPTY_QUERY: Query = Object.freeze(Object.create(null) as Query);

/** Opens the exchange of a request: splits its target into path and query, names it, picks its session. */
export function openExchange(context: MockContext, req: IncomingMessage, res: ServerResponse): Exchange {
  const [path, rawQuery] = splitTarget(req);
  const query = rawQuery === '' ? EMPTY_QUERY : (parseQuery(rawQuery) as Query);
  const requestId = newRequestId(req);
  return {
    req,
    res,
    method: req.method ?? 'GET',
    path,
    rawQuery,
    query,
    requestId,
    session: selectSession(context, req, path, query),
    headers: ['X-Request-Id', requestId],
    start: performance.now(),
  };
}

/**
 * The path and query of a request target, read exactly as Express reads them (the same `parseurl`, whose
 * answer it caches on the request): nothing is normalised, `..` stays `..`, a fragment is dropped, and
 * the absolute form (`http://host/a?b`, sent to proxies) loses its scheme and host. So the listener and
 * the admin API, an Express app, always agree on where a request goes.
 */
export function splitTarget(req: Pick<IncomingMessage, 'url'>): [path: string, rawQuery: string] {
  const url = parseUrl(req as IncomingMessage);
  const query = url?.query;
  return [url?.pathname ?? '/', typeof query === 'string' ? query : ''];
}
