// One request and its response as the pipeline sees them: Node's own objects plus what each step learned.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parse as parseQuery } from 'node:querystring';
import parseUrl from 'parseurl';
import type { Redactor } from '../journal/redact.js';
import type { RouteHit } from '../plan/operation-plan.js';
import type { Session } from '../instance/session.js';
import type { FaultKind } from '../respond/faults.js';
import type { AnsweredBy } from '../journal/journal.js';
import { sessionFor, type ContractExchange, type Query, type RequestHeaders } from '../engine/contract-exchange.js';
import { requestIdFrom } from '../http/request-id.js';
import { requestedSession } from './guards/select-session.js';
import type { MockContext } from '../instance/mock-context.js';

/** Writes the log line of an answer just written; `status` `undefined` when no answer was sent (a drop). */
export type RequestLogger = (ex: Exchange, status: number | undefined) => void;

/**
 * What the Node listener knows about a request: the engine's {@link ContractExchange} on Node's own
 * `IncomingMessage` and `ServerResponse`, so contract requests never pay for Express's per-request setup
 * (see handle.ts).
 */
export interface Exchange extends ContractExchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** A JSON body's bytes as received (UTF-8), for the journal: it keeps the text sent, not a new serialisation. */
  bodyJson?: Buffer;
  /** The body's bytes as read (decoded when it came compressed), for the proxy to forward. */
  bodyRaw?: Buffer;
  /** The answer's own headers, as name, value, name, value...: the request id, then CORS's. */
  readonly headers: string[];
  /** Writes the log line once the answer is written (see log-requests.ts); absent when logging is off. */
  log?: RequestLogger;
}

const EMPTY_QUERY: Query = Object.freeze(Object.create(null) as Query);

/** Opens the exchange of a request: splits its target into path and query, names it, picks its session. */
export function openExchange(context: MockContext, req: IncomingMessage, res: ServerResponse): Exchange {
  return new OpenExchange(context, req, res);
}

/** An exchange as a class: one is made per request, its session read through the prototype (no closures). */
class OpenExchange implements Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  readonly path: string;
  readonly rawQuery: string;
  readonly query: Query;
  readonly requestId: string;
  readonly sessionName: string;
  readonly headers: string[];
  readonly start: number;
  match?: RouteHit;
  api?: string;
  body?: unknown;
  bodyBytes?: number;
  bodyJson?: Buffer;
  bodyRaw?: Buffer;
  unrecordableBody?: string;
  bodyBase64?: string;
  bodyPartOf?: number;
  fault?: FaultKind;
  answeredBy?: AnsweredBy;
  fallback?: string;
  log?: RequestLogger;
  redact?: Redactor;
  readonly #context: MockContext;
  #session: Session | undefined = undefined;
  #authenticated = false;

  constructor(context: MockContext, req: IncomingMessage, res: ServerResponse) {
    const [path, rawQuery] = splitTarget(req);
    const query = rawQuery === '' ? EMPTY_QUERY : (parseQuery(rawQuery) as Query);
    this.#context = context;
    this.req = req;
    this.res = res;
    this.method = req.method ?? 'GET';
    this.path = path;
    this.rawQuery = rawQuery;
    this.query = query;
    this.requestId = requestIdFrom(req.headers['x-request-id']);
    this.sessionName = requestedSession({ headers: req.headers, path, query });
    this.headers = ['X-Request-Id', this.requestId];
    this.start = performance.now();
  }

  get requestHeaders(): RequestHeaders {
    return this.req.headers;
  }

  get bodyDepthChecked(): boolean {
    return this.bodyJson !== undefined;
  }

  /** The text of a JSON body as it was sent, without a byte order mark (not part of the JSON); none when empty. */
  sentJson(): string | undefined {
    const bytes = this.bodyJson;
    if (!bytes?.length) return undefined;
    const text = bytes.toString('utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  get session(): Session {
    return (this.#session ??= sessionFor(this.#context, this.sessionName, this.#authenticated));
  }

  authenticate(): void {
    this.#authenticated = true;
    this.#session = undefined;
  }
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

export { elapsedMs, type Query } from '../engine/contract-exchange.js';
