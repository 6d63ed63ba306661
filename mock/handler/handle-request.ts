// The request pipeline after routing: validate, choose a response (Prefer, overrides, faults), answer from
// state or generate, then record and send, after any delay.
import type { Request, RequestHandler } from 'express';
import type { Operation } from '../contract/load-contract.js';
import { checkRequest } from '../prism/prism-adapter.js';
import { describeViolations, problem, type ProblemKind, type Violation } from '../problems/problems.js';
import { chooseResponse } from '../respond/choose-response.js';
import { rollFaults } from '../respond/faults.js';
import { findOverride, useOverride } from '../respond/overrides.js';
import { parsePrefer, PREFER_QUERY } from '../respond/parse-prefer.js';
import { respondFromState } from '../state/respond-from-state.js';
import { checkContentType } from './check-content-type.js';
import { matchOf } from './match-route.js';
import type { MockContext, Session } from './mock-context.js';
import { MAX_DEPTH, nestsTooDeep } from './parse-body.js';
import { generationKey, renderResponse, type Rendered } from './render-response.js';
import { requestBody } from './request-body.js';
import { currentSession } from './select-session.js';
import { problemReply, recordDrop, sendReply } from './send-reply.js';

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const REQUESTS = '\u0000requests';

/** Builds the handler that answers a request matched to an operation of the contract. */
export function handleRequest(context: MockContext): RequestHandler {
  return (req, res) => {
    const { operation, pathParams, path } = matchOf(res)!;
    const session = currentSession(res);
    const send = (violations: Violation[], reply: Rendered, delay = 0) => later(delay, () => sendReply(req, res, operation, violations, reply, pathParams));
    const refuse = (kind: ProblemKind, violations: Violation[], { headers = {}, detail = describeViolations(violations) } = {}) =>
      send(violations, problemReply(problem(kind, detail, { instance: req.path, violations }), headers));

    if (!isDecodable(path)) return refuse('invalidRequest', [{ location: 'path', pointer: '', message: 'The path has a malformed percent-encoding (such as %E0%A4%A).' }]);
    const body = requestBody(req);
    if (body !== undefined && nestsTooDeep(body)) {
      // Kept out of the journal too: copying it for every reader of /__mock/calls would exhaust the stack.
      res.locals.unrecordableBody = `[not recorded: the body nests deeper than ${MAX_DEPTH} levels]`;
      return refuse('invalidRequest', [{ location: 'body', pointer: '', message: `The body nests deeper than ${MAX_DEPTH} levels.` }]);
    }
    const wrongType = body === undefined ? undefined : checkContentType(operation.spec, req.headers['content-type']);
    if (wrongType) return refuse('unsupportedMediaType', [wrongType]);
    // The mock's own controls (`__code=500`) are not the contract's query parameters.
    const query = withoutControls(req.query as Record<string, string | string[]>);
    const check = checkRequest(operation.spec, { method: req.method, path, query, headers: req.headers, body }, context.options.checkSecurity);
    if (!check.ok) return refuse(check.kind, check.violations, { headers: check.kind === 'unauthorized' ? { 'WWW-Authenticate': check.schemes[0] ?? 'Bearer' } : {} });

    const prefer = parsePrefer(req.headers.prefer, req.query as Record<string, unknown>);
    if (!prefer.ok) return refuse('invalidPrefer', [{ location: 'header', pointer: '/prefer', message: prefer.message }], { detail: prefer.message });
    // What to answer, strongest first: what this request asks (Prefer), an override, a fault, the contract.
    const asked = prefer.preferences.code !== undefined || prefer.preferences.example !== undefined;
    const override = asked ? undefined : findOverride(session.overrides, { operationId: operation.id, method: req.method, path: req.path, pathParams, query, headers: req.headers as Record<string, string>, body, response: { status: 0, headers: {} } });
    const rolled = rollFaults(context.faults, context.options.seed, session.name, count(session, REQUESTS));
    const fault = asked || override ? { delay: 0, fail: false, drop: false } : rolled;
    const delay = prefer.preferences.delay ?? override?.delay ?? fault.delay;
    if (override?.fault === 'drop' || fault.drop) {
      if (override) useOverride(session.overrides, override);
      return later(delay, () => recordDrop(req, res, operation, pathParams));
    }
    const failure = fault.fail ? failureStatus(operation) : undefined;
    if (failure === 'undocumented') return send([], problemReply(problem('internal', 'A fault was injected (failure rate); the contract documents no 5xx for this operation.', { instance: req.path })), delay);
    const code = prefer.preferences.code ?? override?.status ?? failure;
    const chosen = chooseResponse(operation, { ...prefer.preferences, code }, (types) => negotiate(req, types));
    if (!chosen.ok) {
      const [kind, pointer] = chosen.reason === 'not-acceptable' ? (['notAcceptable', '/accept'] as const) : (['invalidPrefer', '/prefer'] as const);
      return refuse(kind, [{ location: 'header', pointer, message: chosen.message }], { detail: chosen.message });
    }
    if (override) useOverride(session.overrides, override);

    const { choice } = chosen;
    const dynamic = prefer.preferences.dynamic ?? context.options.dynamic;
    const rawQuery = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
    const facts = { path, rawQuery, pathParams };
    const key = generationKey(operation, choice, facts, IDEMPOTENT.has(req.method) ? undefined : count(session, operation.id));
    const render = (stored?: unknown) => withHeaders(renderResponse(context, operation, choice, dynamic, facts, key, stored), override?.headers);
    // State answers the collection operations, unless a particular response was asked for.
    const role = context.served.collections.roles.get(operation);
    const particular = code !== undefined || prefer.preferences.example !== undefined || override?.body !== undefined;
    if (!role || context.options.stateless || particular) return send([], render(override?.body), delay);
    const { reply, changed } = respondFromState(context, session, role.collection, role.role, operation, { path, pathParams, query, body, key }, render);
    if (changed && session.name === '') context.options.onStateChange(() => session.store.snapshot());
    return send([], reply, delay);
  };
}

const negotiated = new Map<string, string | false>();

/** `req.accepts(types)`, remembered by Accept header and types: parsing Accept is a cost on every request. */
function negotiate(req: Request, types: string[]): string | false {
  const key = `${req.headers.accept ?? ''}\u0000${types.join(',')}`;
  let found = negotiated.get(key);
  if (found === undefined) {
    found = req.accepts(types);
    if (negotiated.size >= 1000) negotiated.clear();
    negotiated.set(key, found);
  }
  return found;
}

/** The first documented 5xx of an operation (an injected failure answers it), if it documents one. */
function failureStatus(operation: Operation): number | 'undocumented' {
  const code = operation.spec.responses.map((r) => r.code).find((c) => /^5\d\d$/.test(c));
  return code ? Number(code) : 'undocumented';
}

/** Counts per session (requests for faults, creates for generation), so each draw differs and repeats. */
function count(session: Session, name: string): number {
  const n = (session.occurrences.get(name) ?? 0) + 1;
  session.occurrences.set(name, n);
  return n;
}

function withHeaders(reply: Rendered, headers: Record<string, string> | undefined): Rendered {
  return headers ? { ...reply, headers: { ...reply.headers, ...headers } } : reply;
}

function withoutControls(query: Record<string, string | string[]>): Record<string, string | string[]> {
  const out = { ...query };
  for (const name of PREFER_QUERY) delete out[name];
  return out;
}

function later(ms: number, action: () => void): void {
  if (ms > 0) setTimeout(action, ms);
  else action();
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

