// How the journal keeps one call: bodies as text up to a size, violations capped, and what it is charged.
import { capViolations, MAX_VIOLATIONS, type Violation } from '../http/problems.js';
import type { CallRecord, NewCall } from './call-record.js';
import { base64Size } from '../lib/bytes.js';
import { keepBody, keepRequestBody, partBody, readBody, readRequestBody, type KeptBody } from './kept-body.js';

/** A call as the journal keeps it: flat, its bodies as text, its id and time as numbers. */
export interface Kept extends Pick<
  CallRecord,
  | 'operationId'
  | 'method'
  | 'path'
  | 'pathParams'
  | 'query'
  | 'headers'
  | 'refusal'
  | 'responseViolations'
  | 'fault'
  | 'answeredBy'
  | 'fallback'
  | 'contract'
  | 'bodyEncoding'
> {
  number: number;
  at: number;
  ms: number | undefined;
  /** What it is charged against the journal's byte budget. */
  cost: number;
  requestId: string | undefined;
  body: KeptBody | undefined;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: KeptBody | undefined;
  /** Set when the response body is bytes that are not text, kept as base64. */
  responseEncoding?: 'base64';
  violations: Violation[];
  violationCount: number;
}

/**
 * What a call costs beyond its texts: the objects that hold it, and each entry of its headers, query and
 * violations. Measured on Node 20 (heap growth a call, journal on against journal off): a 404 with five
 * headers and 1.2 KB of problem text costs 3.3 KB; a call with a 16 KB body kept, 18.1 KB.
 */
const CALL_COST = 1536;
const ENTRY_COST = 40;

/** Keeps a call: its bodies as text cut at `bodyLimit` characters, at most 100 violations, and its cost. */
export function keepCall(number: number, call: NewCall, bodyLimit: number): Kept {
  const { response, violations } = call;
  const body =
    call.bodyPartOf === undefined
      ? keepRequestBody(call.body, bodyLimit, call.sentJson, call.bodyBytes)
      : partBody(String(call.body ?? ''), bodyLimit, call.bodyPartOf);
  const responseBody =
    response.partOf === undefined
      ? keepBody(response.body, bodyLimit, response.text, base64Bytes(response))
      : partBody(String(response.body ?? ''), bodyLimit, response.partOf);
  const kept: Kept = {
    number,
    at: Date.now(),
    ms: call.ms,
    cost: 0,
    requestId: call.requestId,
    operationId: call.operationId,
    contract: call.contract,
    method: call.method,
    path: call.path,
    pathParams: call.pathParams,
    query: call.query,
    headers: call.headers,
    body,
    status: response.status,
    responseHeaders: response.headers,
    responseBody,
    responseEncoding: response.bodyEncoding,
    // A valid call's empty list is shared; a hostile request's thousands are cut to what an answer shows.
    violations: violations.length === 0 ? violations : capViolations(violations),
    violationCount: Math.max(call.violationCount ?? 0, violations.length),
    refusal: call.refusal,
    responseViolations: call.responseViolations,
    fault: call.fault,
    answeredBy: call.answeredBy ?? 'mock',
    fallback: call.fallback,
    bodyEncoding: call.bodyEncoding,
  };
  kept.cost = costOf(kept);
  return kept;
}

/** A copy of a kept call: nothing in it is shared with the journal. */
export function copyOf(kept: Kept): CallRecord {
  return recordOf(kept, {
    pathParams: { ...kept.pathParams },
    query: structuredClone(kept.query),
    headers: structuredClone(kept.headers),
    body: requestBodyOf(kept),
    responseHeaders: { ...kept.responseHeaders },
    responseBody: readBody(kept.responseBody),
    violations: kept.violations.map((v) => ({ ...v })),
    refusal: kept.refusal && { ...kept.refusal },
    responseViolations: kept.responseViolations?.map((v) => ({ ...v })),
  });
}

/**
 * A kept call as a record to read, not to keep or change: it shares the journal's objects, and its bodies are
 * parsed only if they are read (a matcher that looks at the path never pays for the body). Made for every call
 * a listener hears, so it is an instance of a class (bodies and time read through its prototype, no closures);
 * as JSON it is the record {@link copyOf} gives. `given`: the call as it was recorded here, for
 * {@link wholeCopyOfCall}.
 */
export function viewOf(kept: Kept, parsed: unknown = NOT_PARSED, given?: NewCall): CallRecord {
  const view = new CallView(kept, given);
  // The body as the request's JSON or form text was parsed already: what reading the kept text gives, unless cut.
  const read = kept.body !== undefined && (kept.body.json || kept.body.sent === 'form');
  if (parsed !== NOT_PARSED && read && kept.body!.cutFrom === undefined) view.useBody(parsed);
  return view as unknown as CallRecord;
}

/**
 * A copy of a call a listener heard (see CallListener), to keep: made once a call, however many listeners ask
 * (the view holds it); a record that is no view is copied whole.
 * @example journal.subscribe((call) => kept.push(copyOfCall(call)))
 */
export function copyOfCall(call: CallRecord): CallRecord {
  return call instanceof CallView ? CallView.copyOf(call) : structuredClone(call);
}

/**
 * A copy of a call a listener heard with its bodies as they were recorded, not cut at the journal's body limit:
 * as the proxy read them (`--record` writes them so). `undefined` for a call another replica served (only its
 * journal's copy came here) and for a record that is no view.
 * @example journal.subscribe((call) => recorder.add(wholeCopyOfCall(call) ?? call))
 */
export function wholeCopyOfCall(call: CallRecord): CallRecord | undefined {
  return call instanceof CallView ? CallView.wholeCopyOf(call) : undefined;
}

/** A body not read yet. */
const UNREAD: unknown = Symbol('unread');
/** No parsed body to hand a view: it parses the kept text if it is read. */
export const NOT_PARSED: unknown = Symbol('not parsed');

class CallView {
  readonly #kept: Kept;
  readonly #given: NewCall | undefined;
  #body = UNREAD;
  #copy: CallRecord | undefined = undefined;
  readonly id: string;
  declare readonly ms?: number;
  readonly requestId: string | undefined;
  readonly operationId: string | null;
  declare readonly contract?: string;
  readonly method: string;
  readonly path: string;
  readonly pathParams: Record<string, string>;
  readonly query: Kept['query'];
  readonly headers: Kept['headers'];
  declare readonly truncated?: { bytes: number };
  declare readonly bodyEncoding?: 'base64';
  readonly response: ResponseView;
  readonly violations: Violation[];
  declare readonly violationCount?: number;
  declare readonly refusal?: Kept['refusal'];
  declare readonly responseViolations?: Kept['responseViolations'];
  declare readonly fault?: Kept['fault'];
  readonly answeredBy: Kept['answeredBy'];
  declare readonly fallback?: string;

  constructor(kept: Kept, given: NewCall | undefined) {
    const own = this as { -readonly [K in keyof CallView]: CallView[K] };
    this.#kept = kept;
    this.#given = given;
    this.id = `call-${kept.number}`;
    if (kept.ms !== undefined) own.ms = kept.ms;
    this.requestId = kept.requestId;
    this.operationId = kept.operationId;
    if (kept.contract !== undefined) own.contract = kept.contract;
    this.method = kept.method;
    this.path = kept.path;
    this.pathParams = kept.pathParams;
    this.query = kept.query;
    this.headers = kept.headers;
    if (kept.body?.cutFrom !== undefined) own.truncated = { bytes: kept.body.cutFrom };
    if (kept.bodyEncoding !== undefined) own.bodyEncoding = kept.bodyEncoding;
    this.response = new ResponseView(kept);
    this.violations = kept.violations;
    if (kept.violationCount > MAX_VIOLATIONS) own.violationCount = kept.violationCount;
    if (kept.refusal) own.refusal = kept.refusal;
    if (kept.responseViolations) own.responseViolations = kept.responseViolations;
    if (kept.fault) own.fault = kept.fault;
    this.answeredBy = kept.answeredBy;
    if (kept.fallback !== undefined) own.fallback = kept.fallback;
  }

  /** The view's copy: made the first time a listener asks (see {@link copyOfCall}). */
  static copyOf(view: CallView): CallRecord {
    return (view.#copy ??= copyOf(view.#kept));
  }

  /** The view's call kept again with no body limit, its number and time as they are (see {@link wholeCopyOfCall}). */
  static wholeCopyOf(view: CallView): CallRecord | undefined {
    const given = view.#given;
    return given && copyOf({ ...keepCall(view.#kept.number, given, Infinity), at: view.#kept.at });
  }

  get time(): string {
    return new Date(this.#kept.at).toISOString();
  }

  get body(): unknown {
    if (this.#body === UNREAD) this.#body = requestBodyOf(this.#kept);
    return this.#body;
  }

  /** A form's text as sent (see CallRecord.bodyText): read from the kept call, never kept apart. */
  get bodyText(): string | undefined {
    return this.#kept.body?.sent === 'form' ? this.#kept.body.text : undefined;
  }

  /** Whether a string body was sent as JSON (see CallRecord.bodyJson). */
  get bodyJson(): true | undefined {
    return this.#kept.body?.sent === 'json' || undefined;
  }

  /** Reads the body as `body`, the value its kept text was made from (see {@link viewOf}). */
  useBody(body: unknown): void {
    this.#body = body;
  }

  /** The record as a view of it was always written out: every field in the order of a copy's. */
  toJSON(): CallRecord {
    const { pathParams, query, headers, violations, refusal, responseViolations } = this.#kept;
    const { response } = this;
    return recordOf(this.#kept, {
      ...{ pathParams, query, headers, responseHeaders: response.headers, violations, refusal, responseViolations },
      ...{ body: this.body, responseBody: response.body },
    });
  }
}

class ResponseView {
  readonly #kept: Kept;
  #body = UNREAD;
  readonly status: number;
  readonly headers: Record<string, string>;
  declare readonly truncated?: { bytes: number };
  declare readonly bodyEncoding?: 'base64';

  constructor(kept: Kept) {
    this.#kept = kept;
    this.status = kept.status;
    this.headers = kept.responseHeaders;
    const cutFrom = kept.responseBody?.cutFrom;
    if (cutFrom !== undefined) (this as { truncated?: { bytes: number } }).truncated = { bytes: cutFrom };
    if (kept.responseEncoding) (this as { bodyEncoding?: 'base64' }).bodyEncoding = kept.responseEncoding;
  }

  get body(): unknown {
    if (this.#body === UNREAD) this.#body = readBody(this.#kept.responseBody);
    return this.#body;
  }

  /** Whether a string body was sent as JSON (see CallRecord.bodyJson). */
  get bodyJson(): true | undefined {
    return this.#kept.responseBody?.sent === 'json' || undefined;
  }

  toJSON(): CallRecord['response'] {
    const { status, headers, body, truncated, bodyJson, bodyEncoding } = this;
    return {
      status,
      headers,
      body,
      ...(bodyJson ? { bodyJson } : {}),
      ...(truncated ? { truncated } : {}),
      ...(bodyEncoding ? { bodyEncoding } : {}),
    };
  }
}

/** What a record holds that is an object or a body, shared with the journal or copied. */
type Parts = Pick<
  Kept,
  'pathParams' | 'query' | 'headers' | 'responseHeaders' | 'violations' | 'refusal' | 'responseViolations'
> & {
  body?: unknown;
  responseBody?: unknown;
};

function recordOf(kept: Kept, parts: Parts): CallRecord {
  return {
    id: `call-${kept.number}`,
    time: new Date(kept.at).toISOString(),
    ...(kept.ms === undefined ? {} : { ms: kept.ms }),
    requestId: kept.requestId,
    operationId: kept.operationId,
    ...(kept.contract === undefined ? {} : { contract: kept.contract }),
    method: kept.method,
    path: kept.path,
    pathParams: parts.pathParams,
    query: parts.query,
    headers: parts.headers,
    body: parts.body,
    ...(kept.body?.sent === 'form' ? { bodyText: kept.body.text } : {}),
    ...(kept.body?.sent === 'json' ? { bodyJson: true as const } : {}),
    ...(kept.body?.cutFrom === undefined ? {} : { truncated: { bytes: kept.body.cutFrom } }),
    ...(kept.bodyEncoding === undefined ? {} : { bodyEncoding: kept.bodyEncoding }),
    response: {
      status: kept.status,
      headers: parts.responseHeaders,
      body: parts.responseBody,
      ...(kept.responseBody?.sent === 'json' ? { bodyJson: true as const } : {}),
      ...(kept.responseBody?.cutFrom === undefined ? {} : { truncated: { bytes: kept.responseBody.cutFrom } }),
      ...(kept.responseEncoding === undefined ? {} : { bodyEncoding: kept.responseEncoding }),
    },
    violations: parts.violations,
    ...(kept.violationCount > MAX_VIOLATIONS ? { violationCount: kept.violationCount } : {}),
    ...(parts.refusal ? { refusal: parts.refusal } : {}),
    ...(parts.responseViolations ? { responseViolations: parts.responseViolations } : {}),
    ...(kept.fault ? { fault: kept.fault } : {}),
    answeredBy: kept.answeredBy,
    ...(kept.fallback === undefined ? {} : { fallback: kept.fallback }),
  };
}

/** A kept call's request body as handed out: a form's fields read in the charset its Content-Type names. */
function requestBodyOf(kept: Kept): unknown {
  const type = kept.headers['content-type'];
  return readRequestBody(kept.body, Array.isArray(type) ? type[0] : type);
}

/** The size of a body kept as base64, in bytes: what a cut one says it had (`undefined` for text). */
function base64Bytes({ body, bodyEncoding }: NewCall['response']): number | undefined {
  return bodyEncoding === 'base64' && typeof body === 'string' ? base64Size(body) : undefined;
}

/** What a kept call costs, in bytes: its texts (a character a byte) and the objects around them. */
function costOf(kept: Kept): number {
  let cost = CALL_COST + kept.path.length + (kept.requestId?.length ?? 0);
  cost += (kept.body?.text.length ?? 0) + (kept.responseBody?.text.length ?? 0);
  cost += entriesCost(kept.pathParams) + entriesCost(kept.query) + entriesCost(kept.headers);
  cost += entriesCost(kept.responseHeaders);
  for (const v of kept.violations) cost += 3 * ENTRY_COST + v.pointer.length + v.message.length;
  for (const v of kept.responseViolations ?? []) cost += 3 * ENTRY_COST + v.pointer.length + v.message.length;
  return cost;
}

function entriesCost(record: Record<string, string | string[]>): number {
  let cost = 0;
  for (const key in record) {
    const value = record[key]!;
    cost += ENTRY_COST + key.length;
    if (typeof value === 'string') cost += value.length;
    else if (Array.isArray(value)) for (const item of value) cost += ENTRY_COST + String(item).length;
  }
  return cost;
}
