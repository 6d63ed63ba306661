// The request pipeline after routing: validate, choose a response, answer from state or generate, send.
import type { RequestHandler } from 'express';
import { checkRequest } from '../prism/prism-adapter.js';
import { describeViolations, problem, type ProblemKind, type Violation } from '../problems/problems.js';
import { chooseResponse } from '../respond/choose-response.js';
import { parsePrefer } from '../respond/parse-prefer.js';
import { respondFromState } from '../state/respond-from-state.js';
import { checkContentType } from './check-content-type.js';
import { matchOf } from './match-route.js';
import type { MockContext } from './mock-context.js';
import { MAX_DEPTH, nestsTooDeep } from './parse-body.js';
import { generationKey, renderResponse, type Rendered } from './render-response.js';
import { requestBody } from './request-body.js';
import { problemReply, sendReply } from './send-reply.js';

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Builds the handler that answers a request matched to an operation of the contract. */
export function handleRequest(context: MockContext): RequestHandler {
  return (req, res) => {
    const match = matchOf(res)!;
    const { operation, pathParams, path } = match;
    const send = (violations: Violation[], reply: Rendered) => sendReply(context, req, res, operation, violations, reply, pathParams);
    const refuse = (kind: ProblemKind, violations: Violation[], { headers = {}, detail = describeViolations(violations) } = {}) =>
      send(violations, problemReply(problem(kind, detail, { instance: req.path, violations }), headers));

    if (!isDecodable(path)) return refuse('invalidRequest', [{ location: 'path', pointer: '', message: 'The path has a malformed percent-encoding (such as %E0%A4%A).' }]);
    const body = requestBody(req);
    if (body !== undefined && nestsTooDeep(body)) return refuse('invalidRequest', [{ location: 'body', pointer: '', message: `The body nests deeper than ${MAX_DEPTH} levels.` }]);
    const wrongType = body === undefined ? undefined : checkContentType(operation.spec, req.headers['content-type']);
    if (wrongType) return refuse('unsupportedMediaType', [wrongType]);
    const query = { ...(req.query as Record<string, string | string[]>) };
    const check = checkRequest(operation.spec, { method: req.method, path, query, headers: req.headers, body }, context.options.checkSecurity);
    if (!check.ok) return refuse(check.kind, check.violations, { headers: check.kind === 'unauthorized' ? { 'WWW-Authenticate': check.schemes[0] ?? 'Bearer' } : {} });

    const prefer = parsePrefer(req.headers.prefer);
    if (!prefer.ok) return refuse('invalidPrefer', [{ location: 'header', pointer: '/prefer', message: prefer.message }], { detail: prefer.message });
    const chosen = chooseResponse(operation, prefer.preferences, (types) => req.accepts(types));
    if (!chosen.ok) {
      const [kind, pointer] = chosen.reason === 'not-acceptable' ? (['notAcceptable', '/accept'] as const) : (['invalidPrefer', '/prefer'] as const);
      return refuse(kind, [{ location: 'header', pointer, message: chosen.message }], { detail: chosen.message });
    }

    const { choice } = chosen;
    const dynamic = prefer.preferences.dynamic ?? context.options.dynamic;
    const rawQuery = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
    const facts = { path, rawQuery, pathParams };
    const key = generationKey(operation, choice, facts, IDEMPOTENT.has(req.method) ? undefined : nextOccurrence(context, operation.id));
    const render = (stored?: unknown) => renderResponse(context, operation, choice, dynamic, facts, key, stored);
    // State answers the collection operations, unless Prefer asks for a particular response.
    const role = context.served.collections.roles.get(operation);
    if (!role || context.options.stateless || prefer.preferences.code !== undefined || prefer.preferences.example !== undefined) return send([], render());
    const { reply, changed } = respondFromState(context, role.collection, role.role, operation, choice, { path, pathParams, query, body, key }, render);
    if (changed) context.options.onStateChange(context.store.snapshot());
    return send([], reply);
  };
}

/** Counts the generated answers of a non-idempotent operation, so each create draws a new body. */
function nextOccurrence(context: MockContext, operationId: string): number {
  const n = (context.occurrences.get(operationId) ?? 0) + 1;
  context.occurrences.set(operationId, n);
  return n;
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
