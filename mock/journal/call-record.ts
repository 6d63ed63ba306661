// What the journal keeps of a call: the record every report, matcher and export reads.
import type { BodyViolation } from '../prism/check-response.js';
import type { Violation } from '../http/problems.js';

/** What the journal says of a refusal: the status sent, and whether the contract documents the answer. */
export interface Refusal {
  status: number;
  /** `true`: the operation's documented response; `false`: the mock's own problem (nothing fitting is documented). */
  documented: boolean;
}

/** How the mock departed on purpose from the answer the contract gives (see CallRecord.fault). */
export type FaultKind = 'drop' | 'failure' | 'latency';

/** One request the mock received and what it answered. */
export interface CallRecord {
  /** Increasing, unique for the life of the mock: `call-1`, `call-2`, ... */
  id: string;
  /** The `X-Request-Id` the mock answered with (the caller's, or a new UUID). */
  requestId?: string;
  /** ISO 8601 time the request was recorded. */
  time: string;
  /**
   * Milliseconds from the request's arrival to its answer being decided (its delay included): the time the
   * log line says, measured as the call is recorded, just before the answer is written.
   */
  ms?: number;
  /** The contract's operationId, or `null` when no operation matched. */
  operationId: string | null;
  /**
   * Set only when the mock serves several APIs: the API the call went to (by its operation, or by the mount
   * its path is under when no operation matched).
   */
  contract?: string;
  method: string;
  path: string;
  pathParams: Record<string, string>;
  query: Record<string, string | string[]>;
  /** Request headers, lower-case names. */
  headers: Record<string, string | string[]>;
  /**
   * The parsed body (JSON value, form fields, or text), `undefined` when there was none. A body longer than
   * the journal keeps (`journalBodyLimit`) is the first characters of its text, a string: see `truncated`.
   */
  body?: unknown;
  /**
   * Set only for a form the mock parsed (`body` its fields): its urlencoded text as sent, for whatever sends it
   * again (the HAR export, the inspector's curl, the Pact), since the fields lose `%20` against `+` and the order
   * of repeated names. Not set on a cut body (`truncated`), which is its text already.
   */
  bodyText?: string;
  /**
   * Set only when `body` is a string that was sent as JSON (a JSON string: `body` `hello`, sent as `"hello"`):
   * send it again as `JSON.stringify(body)`. A string without it was sent as text; any other value is JSON.
   */
  bodyJson?: true;
  /** Set only when `body` was cut: the body is then the start of its text, and `bytes` the size received. */
  truncated?: { bytes: number };
  /**
   * Set only when the body was bytes that are not UTF-8 text (an image, a file): `body` is then those bytes as
   * base64, whole (`Buffer.from(call.body, 'base64')`), or its start when `truncated`.
   */
  bodyEncoding?: 'base64';
  /**
   * What the mock answered; a body cut like the request's says so in `truncated`, one of bytes that are not
   * text (a backend's image) is base64 as the request's is (`bodyEncoding`). When no answer was sent
   * (`fault: "drop"`), `status` is 0 and `headers` empty: read `fault` first, 0 is no status.
   */
  response: {
    status: number;
    headers: Record<string, string>;
    body?: unknown;
    /** Set only when `body` is a string sent as JSON, `"hello"` (see `bodyJson` above). */
    bodyJson?: true;
    truncated?: { bytes: number };
    bodyEncoding?: 'base64';
  };
  /** How the request broke the contract; empty for a valid request. At most 100: see `violationCount`. */
  violations: Violation[];
  /** Set only when the request broke the contract in more than the 100 ways kept: how many there were. */
  violationCount?: number;
  /**
   * Set only when the mock refused the request (or could not give what it asked): the status answered, and
   * whether that answer is the operation's documented response (`true`) or the mock's own problem+json,
   * sent because the contract documents nothing fitting (`false`).
   */
  refusal?: Refusal;
  /**
   * Set only when the body the contract gives (an example, or one generated from the schema) breaks the
   * documented schema: each way it does. With `errors` on, the answer was a 500 problem listing them instead.
   */
  responseViolations?: BodyViolation[];
  /**
   * Who answered: `mock` (the contract, state and the mock's own refusals), `proxy` (the real backend behind
   * `--proxy`, its answer passed on), `fallback` (the mock, in place of a backend that answered a fallback
   * status, was down or too slow: see `fallback`), or the test, which chose the answer rather than the request
   * earning it: `prefer` (`Prefer: code=` or `example=`), `override` (an override's status or body, a replayed
   * HAR among them). A call the test chose says what the app does with that answer, not what the provider
   * answers: the Pact export leaves it out.
   */
  answeredBy: AnsweredBy;
  /** Set only when `answeredBy` is `fallback`: why the upstream's answer was not used (`upstream answered 501`). */
  fallback?: string;
  /**
   * Set only when the mock departed on purpose from the answer the contract gives (faults, `--latency`,
   * `--failure-rate`, `--drop-rate`, or an override's `fault` and `delay`):
   * - `drop`: **no answer was sent**; the connection was closed (`response.status` is 0, not a status);
   * - `failure`: the answer is an injected 5xx (the operation's documented one, else a 500 problem), not one
   *   the request itself earned;
   * - `latency`: the answer was held back (`--latency`, the faults' latency, an override's `delay`).
   * One value a call: a drop or a failure held back too is marked `drop` or `failure`, which say more than
   * the delay. What a request asks for itself (`Prefer: code=500, delay=2000`) is no fault and is not marked.
   */
  fault?: FaultKind;
}

/**
 * A response header of a call, whatever the case of its name (the journal keeps the names as sent).
 * @example responseHeader(call, 'content-type') // 'application/json'
 */
export function responseHeader(call: Pick<CallRecord, 'response'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const key in call.response.headers) if (key.toLowerCase() === wanted) return call.response.headers[key];
  return undefined;
}

/** Who answered a call (see CallRecord.answeredBy). */
export type AnsweredBy = 'mock' | 'proxy' | 'fallback' | 'prefer' | 'override';

/** Which calls to return; every field that is set must match. */
export interface CallFilter {
  operationId?: string;
  /** With several APIs: only calls to this one. */
  contract?: string;
  /** Case-insensitive. */
  method?: string;
  /** The exact request path, or a prefix ending in `*`: `/members/m1/*`. */
  path?: string;
}

/** A call to record: what the journal does not add itself. */
export interface NewCall extends Omit<
  CallRecord,
  'id' | 'time' | 'bodyText' | 'bodyJson' | 'truncated' | 'response' | 'violationCount' | 'answeredBy'
> {
  /** @default 'mock' */
  answeredBy?: AnsweredBy;
  /** The size of the body as received, in bytes, when known (a cut body says it in `truncated`). */
  bodyBytes?: number;
  /** Set when `body` is only the start of the request's body (one streamed through to the upstream): its size. */
  bodyPartOf?: number;
  /**
   * The body's text as received, when it was JSON: kept instead of serialising `body` again. (A form's text
   * is read from its fields: http/request-body.ts `formText`; a record's `bodyText` is that form text.)
   */
  sentJson?: string;
  /** How many violations there were, when the validator listed fewer (see `violations`). */
  violationCount?: number;
  /** What the mock answered; `text` is the body as it was serialised for the wire, when it was. */
  response: {
    status: number;
    headers: Record<string, string>;
    body?: unknown;
    text?: string;
    /** Set when `body` is only the start of the answer's body (a large proxied one): the whole size in bytes. */
    partOf?: number;
    /** Set when `body` is bytes that are not text, as base64. */
    bodyEncoding?: 'base64';
  };
}
