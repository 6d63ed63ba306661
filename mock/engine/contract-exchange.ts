// A contract request as every transport hands it to the engine: the Node listener (handler/exchange.ts) and the
// MSW handlers (msw/) each describe theirs so, and run the same stages on it (see answer-request.ts).
import type { Redactor } from '../journal/redact.js';
import type { RouteHit } from '../plan/operation-plan.js';
import type { Session } from '../instance/session.js';
import { knownSession, sessionOf, type MockContext } from '../instance/mock-context.js';
import type { FaultKind } from '../respond/faults.js';
import type { AnsweredBy } from '../journal/journal.js';

export type Query = Record<string, string | string[]>;

/** A request's headers: lower-case names; a repeated one may be a list. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

/** What the engine knows about a contract request, and what each stage learns of it. */
export interface ContractExchange {
  readonly method: string;
  /** The path as received, without the query (and without a mount path or a base URL's path). */
  readonly path: string;
  /** The query string as received, without `?`. */
  readonly rawQuery: string;
  /** The query parameters; a repeated name gives an array. */
  readonly query: Query;
  readonly requestHeaders: RequestHeaders;
  readonly requestId: string;
  /**
   * The session the request names, or the default one. A named session is made only once the request is
   * authenticated (see {@link ContractExchange.authenticate}), so a stranger's requests cannot evict real sessions.
   */
  readonly session: Session;
  /** Marks the request as authenticated (the operation's credentials): its session may now be made. */
  authenticate(): void;
  /** The name of the session the request names, `''` for the default one. */
  readonly sessionName: string;
  /** The operation, once routed. */
  match?: RouteHit;
  /** With several APIs: the API the request went to. */
  api?: string;
  /** The parsed body, once read; `undefined` when none was sent. */
  body?: unknown;
  /** The size of the body as received, in bytes, once read. */
  bodyBytes?: number;
  /** A JSON body's depth was checked on its text before it was parsed: decide need not walk it. */
  readonly bodyDepthChecked: boolean;
  /** The text of a JSON body as sent (no byte order mark), for the journal; `undefined` when none. */
  sentJson(): string | undefined;
  /** Recorded in the journal instead of the body, when the body cannot be recorded. */
  unrecordableBody?: string;
  /**
   * A body of bytes that are not UTF-8 text (an image, a file), as base64: recorded instead of its text, which
   * would hold U+FFFD where its bytes were (see CallRecord.bodyEncoding).
   */
  bodyBase64?: string;
  /** Set when the body kept is only the start of the one sent (streamed through to the upstream): its size. */
  bodyPartOf?: number;
  /** The fault the mock injected (see CallRecord.fault). */
  fault?: FaultKind;
  /** Who answered: the mock by default, else the test or the upstream (see CallRecord.answeredBy). */
  answeredBy?: AnsweredBy;
  /** Why the mock answered in the upstream's place (see CallRecord.fallback). */
  fallback?: string;
  /** When the request arrived (`performance.now()`), for the journal's `ms`. */
  readonly start: number;
  /** Takes the secrets out of what the journal records; absent with `journalSecrets`. */
  redact?: Redactor;
}

/** Milliseconds since the request arrived, to two decimals: the journal's `ms` and the log line's. */
export function elapsedMs(ex: Pick<ContractExchange, 'start'>): number {
  return Math.round((performance.now() - ex.start) * 100) / 100;
}

/**
 * The session a request is recorded in: the one it names once it is authenticated (made if new), the default one
 * for no name, else the named one only if it exists (see {@link ContractExchange.session}). A transport keeps what
 * this gives, so a delayed answer is recorded where it was decided even if the named session is made meanwhile.
 */
export function sessionFor(context: MockContext, name: string, authenticated: boolean): Session {
  return authenticated || name === '' ? sessionOf(context, name) : knownSession(context, name);
}
