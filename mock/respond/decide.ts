// The request core: what to answer a request routed to an operation, from the request, the session and the
// contract alone. It changes nothing; the listener (handle.ts) carries the decision out.
import type { CollectionPlan } from '../plan/collection-plan.js';
import type { OperationPlan } from '../plan/operation-plan.js';
import { describeViolations, problem, type ProblemKind, type Violation } from '../http/problems.js';
import { problemReply, type Reply } from '../http/reply.js';
import { NO_FAULT, rollFaults, type FaultKind, type Faults } from './faults.js';
import type { AnsweredBy } from '../journal/journal.js';
import { findOverride, type Override } from './overrides.js';
import { hasPreferQuery, parsePrefer, PREFER_QUERY } from '../http/parse-prefer.js';
import { generationKey, type Rendering } from './render-response.js';
import { countOf, REQUESTS } from './counters.js';
import { checkContentType } from '../http/check-content-type.js';
import { nestsTooDeep, TOO_DEEP, TOO_DEEP_BODY } from '../http/body-depth.js';
import { bundleOf } from '../schema/operation-bundle.js';
import { bodyNotForwarded, type ProxyRules } from './proxy-rules.js';

/** A request as the core sees it: routed, its body read. */
export interface DecideRequest {
  /** Upper-case, as received. */
  method: string;
  /** The path as received: problems name it, overrides match it. */
  path: string;
  /** The path as routed (a trailing slash dropped): validated, and part of generation keys. */
  routedPath: string;
  rawQuery: string;
  /** The query, the mock's own controls (`__code`) included. */
  query: Record<string, string | string[]>;
  /** Lower-case names, as Node gives them; `content-type` and `accept` are single values there. */
  headers: Record<string, string | string[] | undefined> & { 'content-type'?: string; accept?: string };
  /** The parsed body; `undefined` when none was sent. */
  body: unknown;
  /** The body's depth was checked on its text before it was parsed (see body-depth.ts): no need to walk it. */
  bodyDepthChecked?: boolean;
  pathParams: Record<string, string>;
}

/** What the core reads of a session. */
export interface SessionView {
  name: string;
  overrides: Override[];
  counters: ReadonlyMap<string, number>;
}

/** The instance's settings the core reads. */
export interface DecideSettings {
  seed: number | string;
  faults: Faults;
  checkSecurity: boolean;
  /** Generate success bodies (a request's `Prefer: dynamic=` wins). */
  dynamic: boolean;
  stateless: boolean;
  /** The upstream's rules, when the mock stands in front of a real backend (see proxy-rules.ts). */
  proxy?: ProxyRules;
}

/** The request breaks the contract (or asks for what it does not have): answer this problem at once. */
export interface Refuse {
  kind: 'refuse';
  reply: Reply;
  /** Recorded in the journal instead of the body, when the body cannot be recorded. */
  unrecordableBody?: string;
}

/** What the listener counts and uses up when it carries out a drop or an answer. */
export interface Effects {
  /** The session's request count after this one (fault rolls are drawn by it). */
  request: number;
  /** The operation's create count after this one (generated bodies of non-idempotent calls are drawn by it). */
  occurrence?: { operationId: string; count: number };
  /** The override applied, to use up one of its `times`. */
  override?: Override;
}

/** Close the connection without an answer, after `delay` ms (a fault, or an override's `fault: "drop"`). */
export interface Drop {
  kind: 'drop';
  delay: number;
  effects: Effects;
}

/** Where an answer's body comes from. */
export type BodySource =
  /** The mock's own problem (an injected failure where the contract documents no 5xx). */
  | { from: 'problem'; reply: Reply }
  /** The contract: `body` when given (an override's), else its example or a generated body. */
  | { from: 'contract'; rendering: Rendering; body?: unknown }
  /** The state store, through the operation's part in its collection. */
  | {
      from: 'state';
      rendering: Rendering;
      collection: CollectionPlan;
      /** How a PUT renders the record it created (its 201), when it creates one (see UpdatePlan.creates). */
      created?: Rendering;
    };

/** Answer with `status` (and `mediaType`) after `delay` ms, the body from `source`. */
export interface Answer {
  kind: 'answer';
  status: number;
  mediaType?: string;
  source: BodySource;
  delay: number;
  /** Extra response headers (an override's). */
  headers?: Record<string, string>;
  /** Set when the answer is an injected failure, or held back by a fault or an override (see CallRecord.fault). */
  fault?: Exclude<FaultKind, 'drop'>;
  /** Set when the test chose the answer (see CallRecord.answeredBy). */
  answeredBy?: AnsweredBy;
  effects: Effects;
}

/**
 * Send the request to the upstream after `delay` ms: its answer is checked and passed on, unless the rules say
 * the mock answers in its place (a fallback, decided again without the proxy).
 */
export interface Forward {
  kind: 'forward';
  delay: number;
  /** How the request breaks the contract: forwarded all the same (without `errors`, as Prism does), and reported. */
  violations: Violation[];
  violationCount?: number;
  /** Set when a fault or an override holds the request back before it is forwarded. */
  fault?: 'latency';
  effects: Effects;
}

export type Decision = Refuse | Drop | Answer | Forward;

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/**
 * Decides the answer to a request, strongest first: a refusal when the request breaks the contract; then
 * what the request asks (`Prefer`), an override, a fault, and last what the contract documents. Pure: the
 * same plan, request, session and settings always give the same decision, and nothing is changed.
 * @example decide(plan, request, session, settings) // { kind: 'answer', status: 201, source: { from: 'state', ... } }
 */
export function decide(
  plan: OperationPlan,
  request: DecideRequest,
  session: SessionView,
  settings: DecideSettings,
): Decision {
  const query = withoutControls(request.query);
  const proxied = settings.proxy?.proxies(plan.operation.id) === true;
  if (proxied && request.body !== undefined && (request.method === 'GET' || request.method === 'HEAD')) {
    const message = bodyNotForwarded(request.method);
    return refuse(request, 'bodyNotForwarded', [{ location: 'body', pointer: '', message }], { detail: message });
  }
  const broken = refuseBroken(plan, request, query, settings.checkSecurity);
  // In front of a real backend, a request that breaks the contract is the backend's to judge (unless `errors`).
  if (broken && !(proxied && settings.proxy!.forwardsInvalid && broken.unrecordableBody === undefined)) return broken;
  const prefer = parsePrefer(request.headers.prefer, request.query);
  if (!prefer.ok) {
    const violation: Violation = { location: 'header', pointer: '/prefer', message: prefer.message };
    return refuse(request, 'invalidPrefer', [violation], { detail: prefer.message });
  }
  const wish = prefer.preferences;
  // What the request asks for itself wins over an override and a fault.
  const asked = wish.code !== undefined || wish.example !== undefined;
  const override = asked ? undefined : overrideFor(plan, request, query, session);
  const count = countOf(session, REQUESTS) + 1;
  const fault = asked || override ? NO_FAULT : rollFaults(settings.faults, settings.seed, session.name, count);
  const delay = wish.delay ?? override?.delay ?? fault.delay;
  if (override?.fault === 'drop' || fault.drop) return { kind: 'drop', delay, effects: { request: count, override } };
  const chosenByTest = asked || override?.status !== undefined || override?.body !== undefined;
  if (proxied && !chosenByTest && !fault.fail) {
    const violations = broken?.reply.violations ?? [];
    return {
      kind: 'forward',
      delay,
      violations,
      ...(broken?.reply.violationCount === undefined ? {} : { violationCount: broken.reply.violationCount }),
      ...(delay > 0 && wish.delay === undefined ? { fault: 'latency' as const } : {}),
      effects: { request: count, override },
    };
  }
  if (fault.fail && plan.responses.failure === undefined) {
    const detail = 'A fault was injected (failure rate); the contract documents no 5xx for this operation.';
    return { ...failure(request, 'internal', detail, delay, count), fault: 'failure' };
  }

  const code = wish.code ?? override?.status ?? (fault.fail ? plan.responses.failure : undefined);
  const chosen = plan.choose({ code, example: wish.example }, request.headers.accept);
  if (!chosen.ok && chosen.reason === 'no-response')
    return failure(request, 'noResponse', chosen.message, delay, count);
  // An override's status the contract no longer documents (it was reloaded since): the test's setting, not the request.
  if (!chosen.ok && chosen.reason === 'prefer' && wish.code === undefined && override?.status !== undefined) {
    const detail =
      `The override ${override.id} answers ${override.status}, which ${plan.operation.id} does not document (the ` +
      `contract changed since it was set): remove it (DELETE /__mock/overrides/${override.id}) or reset.`;
    return failure(request, 'internal', detail, delay, count);
  }
  if (!chosen.ok) {
    // A response the contract does not have is not found (404), as Prism answers it.
    const [kind, pointer] =
      chosen.reason === 'not-acceptable'
        ? (['notAcceptable', '/accept'] as const)
        : (['notDocumented', '/prefer'] as const);
    const violation: Violation = { location: 'header', pointer, message: chosen.message };
    return refuse(request, kind, [violation], { detail: chosen.message });
  }
  const { choice } = chosen;
  const { operation, collection } = plan;
  const occurrence = IDEMPOTENT.has(request.method) ? undefined : countOf(session, operation.id) + 1;
  const rendering: Rendering = {
    operationId: operation.id,
    choice,
    dynamic: wish.dynamic ?? settings.dynamic,
    key: generationKey(operation.id, choice, { path: request.routedPath, rawQuery: request.rawQuery }, occurrence),
    bundle: bundleOf(operation.spec),
    echo: plan.echo(choice),
    idField: collection?.collection.idField,
  };
  // State answers the collection operations, unless a particular response was asked for.
  const particular = code !== undefined || wish.example !== undefined || override?.body !== undefined;
  const fromState = collection !== undefined && !settings.stateless && !particular;
  // A delay the request asks for (`Prefer: delay=`) is no fault: the request says so itself, as with `code=`.
  const held = wish.delay === undefined && delay > 0 ? ({ fault: 'latency' } as const) : {};
  return {
    kind: 'answer',
    status: choice.status,
    mediaType: choice.content?.mediaType,
    source: fromState
      ? { from: 'state', rendering, collection, created: createdRendering(plan, request, rendering) }
      : { from: 'contract', rendering, body: override?.body },
    delay,
    headers: override?.headers,
    ...answeredBy(asked, override),
    // An injected failure says more than its latency: the answer itself is not the contract's usual one.
    ...(fault.fail ? { fault: 'failure' as const } : held),
    effects: {
      request: count,
      override,
      occurrence: occurrence === undefined ? undefined : { operationId: operation.id, count: occurrence },
    },
  };
}

/** The refusal of a request that breaks the contract: its path, its body's depth and media type, its schemas. */
function refuseBroken(
  plan: OperationPlan,
  request: DecideRequest,
  query: DecideRequest['query'],
  checkSecurity: boolean,
): Refuse | undefined {
  const { body, headers } = request;
  if (!isDecodable(request.path)) {
    const message = 'The path has a malformed percent-encoding (such as %E0%A4%A).';
    return refuse(request, 'invalidRequest', [{ location: 'path', pointer: '', message }]);
  }
  if (body !== undefined && !request.bodyDepthChecked && nestsTooDeep(body)) {
    // Kept out of the journal too (a body another app parsed for the mock was not scanned as text first).
    const violation: Violation = { location: 'body', pointer: '', message: TOO_DEEP };
    return { ...refuse(request, 'invalidRequest', [violation]), unrecordableBody: TOO_DEEP_BODY };
  }
  const wrongType = body === undefined ? undefined : checkContentType(plan.bodyTypes, headers['content-type']);
  if (wrongType) return refuse(request, 'unsupportedMediaType', [wrongType]);
  const check = plan.validate(
    { method: request.method, path: request.routedPath, query, headers, body },
    checkSecurity,
  );
  if (check.ok) return undefined;
  // Every scheme the client may use, those it must send together too, as Prism lists them. An API key has
  // no HTTP authentication scheme to name: a challenge for another one would ask for what does not apply.
  const challenge: Record<string, string> =
    check.kind === 'unauthorized' && check.schemes.length > 0 ? { 'WWW-Authenticate': check.schemes.join(',') } : {};
  return refuse(request, check.kind, check.violations, {
    headers: challenge,
    violationCount: check.violationCount,
    ...(check.detail === undefined ? {} : { detail: check.detail }),
  });
}

/**
 * A refusal with the mock's own problem. Its status is decided when the answer is checked (shape-refusal.ts):
 * the documented one, else 422 for a request that breaks the contract.
 */
function refuse(
  request: Pick<DecideRequest, 'path'>,
  kind: ProblemKind,
  violations: Violation[],
  extra: { headers?: Record<string, string>; detail?: string; violationCount?: number } = {},
): Refuse {
  const found = problem(kind, extra.detail ?? describeViolations(violations), { instance: request.path, violations });
  const reply = problemReply(found, extra.headers ?? {}, violations);
  if (extra.violationCount !== undefined) reply.violationCount = extra.violationCount;
  return { kind: 'refuse', reply };
}

/** The session's first override in force that matches the request. */
function overrideFor(
  plan: OperationPlan,
  request: DecideRequest,
  query: DecideRequest['query'],
  session: SessionView,
): Override | undefined {
  // Most sessions have none: no call to describe for them.
  if (session.overrides.length === 0) return undefined;
  return findOverride(session.overrides, {
    operationId: plan.operation.id,
    method: request.method,
    path: request.path,
    pathParams: request.pathParams,
    query,
    headers: request.headers as Record<string, string | string[]>,
    body: request.body,
    response: { status: 0, headers: {} },
  });
}

/**
 * The mock's own 500 problem, where the contract has nothing to answer with: an injected failure where it
 * documents no 5xx, or an operation that documents no response at all. The request was fine: no refusal.
 */
function failure(
  request: Pick<DecideRequest, 'path'>,
  kind: 'internal' | 'noResponse',
  detail: string,
  delay: number,
  count: number,
): Answer {
  const reply = problemReply(problem(kind, detail, { instance: request.path }));
  return {
    kind: 'answer',
    status: reply.status,
    mediaType: reply.contentType,
    source: { from: 'problem', reply },
    delay,
    effects: { request: count },
  };
}

/** Who chose the answer when the request did not earn it alone: the test, by `Prefer` or an override. */
function answeredBy(asked: boolean, override: Override | undefined): { answeredBy?: AnsweredBy } {
  if (asked) return { answeredBy: 'prefer' };
  return override?.status !== undefined || override?.body !== undefined ? { answeredBy: 'override' } : {};
}

function withoutControls(query: Record<string, string | string[]>): Record<string, string | string[]> {
  if (!hasPreferQuery(query)) return query;
  const out = { ...query };
  for (const name of PREFER_QUERY) delete out[name];
  return out;
}

function isDecodable(path: string): boolean {
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** The 201 a PUT that may create answers with when it does: the same rendering, the created response's choice. */
function createdRendering(plan: OperationPlan, request: DecideRequest, rendering: Rendering): Rendering | undefined {
  if (plan.collection?.update?.creates === undefined) return undefined;
  const created = plan.choose({ code: 201 }, request.headers.accept);
  if (!created.ok) return undefined;
  const { choice } = created;
  const key = generationKey(rendering.operationId, choice, { path: request.routedPath, rawQuery: request.rawQuery });
  return { ...rendering, choice, key, echo: plan.echo(choice), locatedAtPath: true };
}
