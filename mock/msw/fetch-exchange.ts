// A Fetch API request (what an MSW handler receives) described as the engine's ContractExchange: the path and
// query split off its URL, its headers as a plain record, its session, its body once read (read-fetch-body.ts).
import { sessionFor, type ContractExchange, type Query, type RequestHeaders } from '../engine/contract-exchange.js';
import type { MockContext } from '../instance/mock-context.js';
import type { Session } from '../instance/session.js';
import type { RouteHit } from '../plan/operation-plan.js';
import type { Redactor } from '../journal/redact.js';
import type { FaultKind } from '../respond/faults.js';
import type { AnsweredBy } from '../journal/journal.js';
import { requestedSession } from '../handler/guards/select-session.js';
import { requestIdFrom } from '../http/request-id.js';

/** One request an MSW handler answers, and the answer once written (see create-handlers.ts). */
export class FetchExchange implements ContractExchange {
  readonly method: string;
  readonly path: string;
  readonly rawQuery: string;
  readonly query: Query;
  readonly requestHeaders: RequestHeaders;
  readonly requestId: string;
  readonly sessionName: string;
  readonly start = performance.now();
  match?: RouteHit;
  api?: string;
  body?: unknown;
  bodyBytes?: number;
  bodyDepthChecked = false;
  /** A JSON body's text as sent, once read. */
  jsonText?: string;
  unrecordableBody?: string;
  bodyBase64?: string;
  fault?: FaultKind;
  answeredBy?: AnsweredBy;
  fallback?: string;
  redact?: Redactor;
  readonly #context: MockContext;
  #session: Session | undefined = undefined;
  #authenticated = false;

  /** `path` is the URL's path as sent, the base URL's included (routing takes that off: see create-handlers.ts). */
  constructor(context: MockContext, request: Request, path: string, search: string) {
    this.#context = context;
    // As sent: Fetch upper-cases DELETE, GET, HEAD, OPTIONS, POST and PUT only, and a server would not take `patch`.
    this.method = request.method;
    this.path = path;
    this.rawQuery = search.startsWith('?') ? search.slice(1) : search;
    this.query = parseQuery(this.rawQuery);
    this.requestHeaders = headersOf(request.headers);
    this.requestId = requestIdFrom(this.requestHeaders['x-request-id']);
    this.sessionName = requestedSession({ headers: this.requestHeaders, path, query: this.query });
  }

  get session(): Session {
    return (this.#session ??= sessionFor(this.#context, this.sessionName, this.#authenticated));
  }

  authenticate(): void {
    this.#authenticated = true;
    this.#session = undefined;
  }

  sentJson(): string | undefined {
    return this.jsonText === '' ? undefined : this.jsonText;
  }
}

/** The query as Node's `querystring.parse` reads it: a repeated name gives an array, `+` is a space. */
function parseQuery(rawQuery: string): Query {
  const query = Object.create(null) as Query;
  if (rawQuery === '') return query;
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    const known = query[name];
    query[name] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
  }
  return query;
}

/** Headers as Node gives them: lower-case names, each once (Fetch joins repeated ones with `, ` already). */
function headersOf(headers: Headers): RequestHeaders {
  const record: RequestHeaders = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}
