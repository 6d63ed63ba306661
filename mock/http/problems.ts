// Every error the mock sends is an RFC 9457 problem built here, from one table of templates.

/** Where in the request a violation was found. */
export type ViolationLocation = 'path' | 'query' | 'header' | 'body';

/** One way a request breaks the contract. */
export interface Violation {
  location: ViolationLocation;
  /** JSON pointer inside that location: `/kind` in the body, `/limit` for a query parameter. */
  pointer: string;
  message: string;
  /**
   * What failed, as Prism names it (the JSON Schema keyword, `401` for missing credentials): for the
   * `sl-violations` header only. Problem bodies and the journal leave it out.
   */
  code?: string | number;
}

/**
 * An `application/problem+json` body: the members our contract's closed `Problem` schema declares, and no
 * other, so that every problem of the mock fits it. The admin API's contract alone adds `collections`.
 */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  violations?: Violation[];
  /** Admin API only (contracts/admin.openapi.yaml): the collections there are, on a 404 for a path of none. */
  collections?: string[];
}

const BASE = 'https://example.com/problems/';

/** The templates: one kind of problem each, with its fixed type, title and status. */
export const PROBLEMS = {
  invalidRequest: { type: `${BASE}invalid-request`, title: 'The request does not match the contract', status: 400 },
  malformedJson: { type: `${BASE}malformed-json`, title: 'The request body is not valid JSON', status: 400 },
  unknownCursor: { type: `${BASE}unknown-cursor`, title: 'The cursor is not one this mock issued', status: 400 },
  missingBody: { type: `${BASE}missing-body`, title: 'The request body is required', status: 400 },
  invalidPrefer: {
    type: `${BASE}invalid-prefer`,
    title: 'The Prefer header asks for something the contract does not have',
    status: 400,
  },
  unauthorized: { type: `${BASE}unauthorized`, title: 'Authentication is required', status: 401 },
  forbiddenOrigin: { type: `${BASE}forbidden-origin`, title: 'This origin may not call the mock', status: 403 },
  forbiddenHost: { type: `${BASE}forbidden-host`, title: 'The mock does not answer to this host name', status: 403 },
  forgeableAdminRequest: {
    type: `${BASE}forgeable-admin-request`,
    title: 'A change to the mock must be a request no web page can forge',
    status: 403,
  },
  notFound: { type: `${BASE}not-found`, title: 'Not found', status: 404 },
  notDocumented: {
    type: `${BASE}not-documented`,
    title: 'The contract does not document the response asked for',
    status: 404,
  },
  routeNotFound: {
    type: `${BASE}route-not-found`,
    title: 'No operation of the contract matches this path',
    status: 404,
  },
  methodNotAllowed: { type: `${BASE}method-not-allowed`, title: 'The path does not have this method', status: 405 },
  waitTimedOut: { type: `${BASE}wait-timed-out`, title: 'No matching call arrived in time', status: 408 },
  sessionDropped: { type: `${BASE}session-dropped`, title: 'The session was dropped', status: 410 },
  tooManyWaits: { type: `${BASE}too-many-waits`, title: 'Too many waits are open', status: 429 },
  tooManyStreams: { type: `${BASE}too-many-streams`, title: 'Too many event streams are open', status: 429 },
  notAcceptable: { type: `${BASE}not-acceptable`, title: 'No acceptable media type', status: 406 },
  recordExists: { type: `${BASE}record-exists`, title: 'A record with this id exists already', status: 409 },
  tooManyOverrides: {
    type: `${BASE}too-many-overrides`,
    title: 'The session holds as many overrides as it may',
    status: 409,
  },
  malformedHttp: { type: `${BASE}malformed-http`, title: 'The request is not valid HTTP', status: 400 },
  requestTimeout: { type: `${BASE}request-timeout`, title: 'The request did not arrive in time', status: 408 },
  headersTooLarge: {
    type: `${BASE}headers-too-large`,
    title: 'The request line or headers are too large',
    status: 431,
  },
  payloadTooLarge: { type: `${BASE}payload-too-large`, title: 'The request body is too large', status: 413 },
  unsupportedMediaType: { type: `${BASE}unsupported-media-type`, title: 'Unsupported content type', status: 415 },
  invalidOverride: { type: `${BASE}invalid-override`, title: 'The override does not fit the contract', status: 422 },
  invalidBody: { type: `${BASE}invalid-body`, title: 'The request body does not match the contract', status: 422 },
  internal: { type: `${BASE}internal`, title: 'Internal error', status: 500 },
  notReady: { type: `${BASE}not-ready`, title: 'The mock is not ready to answer', status: 503 },
  notLive: { type: `${BASE}not-live`, title: 'The mock must be restarted', status: 503 },
  storeUnavailable: {
    type: `${BASE}store-unavailable`,
    title: 'The store the replicas share does not answer',
    status: 503,
  },
  noResponse: { type: `${BASE}no-response`, title: 'The operation documents no response', status: 500 },
  invalidResponse: {
    type: `${BASE}invalid-response`,
    title: "The contract's response breaks its own schema",
    status: 500,
  },
  invalidUpstreamAnswer: {
    type: `${BASE}invalid-upstream-answer`,
    title: "The upstream's answer breaks the contract",
    status: 500,
  },
  bodyNotForwarded: {
    type: `${BASE}body-not-forwarded`,
    title: 'The proxy does not forward a GET or HEAD request with a body',
    status: 501,
  },
  upstreamUnreachable: { type: `${BASE}upstream-unreachable`, title: 'The upstream could not be reached', status: 502 },
  upstreamTimeout: { type: `${BASE}upstream-timeout`, title: 'The upstream did not answer in time', status: 504 },
  storageFull: { type: `${BASE}storage-full`, title: 'The state is full', status: 507 },
  stateNotSaved: { type: `${BASE}state-not-saved`, title: 'The change could not be saved', status: 500 },
  stateFileGone: {
    type: `${BASE}state-file-gone`,
    title: 'The state file was deleted or replaced while the mock ran',
    status: 500,
  },
} as const satisfies Record<string, { type: string; title: string; status: number }>;

export type ProblemKind = keyof typeof PROBLEMS;

const MAX_TEXT = 2000;
/** The most violations an answer (and the journal) keeps of one request. */
export const MAX_VIOLATIONS = 100;

/**
 * Builds a problem from its template. Texts are capped so that a hostile request cannot make the answer huge.
 * @example problem('notAcceptable', 'Accept "text/html" allows none of: application/json.')
 */
export function problem(kind: ProblemKind, detail: string, extra: Partial<Problem> = {}): Problem {
  const { violations, instance, ...rest } = extra;
  const made: Problem = {
    ...PROBLEMS[kind],
    detail: cap(detail),
    ...(instance === undefined ? {} : { instance: cap(instance) }),
    ...(violations === undefined ? {} : { violations: capViolations(violations) }),
    ...rest,
  };
  KINDS.set(made, kind);
  return made;
}

/**
 * A copy of a problem built here with another status, still of its kind.
 * @example withStatus(problem('invalidRequest', 'query /limit: must be >= 1'), 422).status // 422
 */
export function withStatus(made: Problem, status: number): Problem {
  const copy = { ...made, status };
  const kind = KINDS.get(made);
  if (kind) KINDS.set(copy, kind);
  return copy;
}

// The kind of each problem built here: the answer to a routed request tells the mock's own problems (which
// the contract's documented responses replace, see shape-refusal.ts) from a contract's body by it.
const KINDS = new WeakMap<object, ProblemKind>();

/**
 * The kind of a problem {@link problem} built, or `undefined` for any other value (a contract's body).
 * @example kindOf(problem('notFound', 'No pass pas_1.')) // 'notFound'
 */
export function kindOf(body: unknown): ProblemKind | undefined {
  return typeof body === 'object' && body !== null ? KINDS.get(body) : undefined;
}

/** One line a person can read for each violation, joined: `body /kind: must be one of ...`. */
export function describeViolations(violations: readonly Violation[]): string {
  return violations.map((v) => `${v.location} ${v.pointer || '(root)'}: ${v.message}`).join('; ');
}

/** The first {@link MAX_VIOLATIONS} violations, each with its texts capped: what a hostile request may cost. */
export function capViolations(violations: readonly Violation[]): Violation[] {
  return violations.slice(0, MAX_VIOLATIONS).map(capViolation);
}

function capViolation(v: Violation): Violation {
  return { location: v.location, pointer: cap(v.pointer, 500), message: cap(v.message, 1000) };
}

function cap(text: string, max = MAX_TEXT): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
