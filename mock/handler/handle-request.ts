// The request pipeline: match an operation, validate, choose a response, render it, record and send.
import type { Request, RequestHandler, Response } from 'express';
import { extractPathParams } from '../contract/path-params.js';
import { allowedMethods, checkRequest, routeRequest, type PrismRequest } from '../prism/prism-adapter.js';
import { describeViolations, problem, type Violation } from '../problems/problems.js';
import { chooseResponse } from '../respond/choose-response.js';
import { parsePrefer } from '../respond/parse-prefer.js';
import { respondFromState } from '../state/respond-from-state.js';
import type { MockContext } from './mock-context.js';
import { generationKey, renderResponse, type Rendered } from './render-response.js';
import { requestBody } from './request-body.js';
import { problemReply, sendReply } from './send-reply.js';

/** Builds the handler that answers every request for the contract's operations. */
export function handleRequest(context: MockContext): RequestHandler {
  return (req, res) => {
    const input = toPrismRequest(req);
    const routed = routeRequest(context.served.specs, input);
    if (routed.kind === 'no-path') return sendReply(context, req, res, undefined, [], routeNotFound(context, req));
    if (routed.kind === 'no-method') return methodNotAllowed(context, req, res);

    const operation = context.served.operations.get(routed.spec)!;
    const pathParams = extractPathParams(operation.path, req.path);
    const send = (violations: Violation[], reply: Rendered) => sendReply(context, req, res, operation, violations, reply, pathParams);

    if (!isDecodable(req.path)) {
      const violation: Violation = { location: 'path', pointer: '', message: 'The path has a malformed percent-encoding (such as %E0%A4%A).' };
      return send([violation], problemReply(problem('invalidRequest', violation.message, { instance: req.path, violations: [violation] })));
    }
    const check = checkRequest(operation.spec, input, context.options.checkSecurity);
    if (!check.ok) {
      const detail = describeViolations(check.violations);
      if (check.status === 401) return send(check.violations, problemReply(problem('unauthorized', detail, { instance: req.path }), { 'WWW-Authenticate': check.schemes[0] ?? 'Bearer' }));
      if (check.status === 415) return send(check.violations, problemReply(problem('unsupportedMediaType', detail, { instance: req.path })));
      const kind = check.status === 422 ? 'invalidBody' : check.violations.some((v) => v.message === 'A request body is required.') ? 'missingBody' : 'invalidRequest';
      return send(check.violations, problemReply(problem(kind, detail, { instance: req.path, violations: check.violations })));
    }

    const prefer = parsePrefer(req.headers.prefer);
    if (!prefer.ok) return send([], problemReply(preferProblem(prefer.message, req)));
    const chosen = chooseResponse(operation, prefer.preferences, (types) => req.accepts(types));
    if (!chosen.ok && chosen.reason === 'not-acceptable') return send([], problemReply(problem('notAcceptable', chosen.message, { instance: req.path })));
    if (!chosen.ok) return send([], problemReply(preferProblem(chosen.message, req)));

    const { choice } = chosen;
    const dynamic = prefer.preferences.dynamic ?? context.options.dynamic;
    const rawQuery = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
    const facts = { method: input.method, path: req.path, rawQuery, pathParams };
    const key = generationKey(context, operation, choice, facts);
    const render = (stored?: unknown) => renderResponse(context, operation, choice, dynamic, facts, key, stored);
    // State answers the collection operations, unless Prefer asks for a particular response.
    const role = context.served.collections.roles.get(operation);
    if (!role || context.options.stateless || prefer.preferences.code !== undefined || prefer.preferences.example !== undefined) return send([], render());
    const { reply, changed } = respondFromState(context, role.collection, role.role, operation, choice, { path: req.path, pathParams, query: input.url.query, body: input.body, key }, render);
    if (changed) context.options.onStateChange(context.store.snapshot());
    return send([], reply);
  };
}

/** The request as Prism's router and validator read it. HEAD is routed as GET, as HTTP defines it. */
export function toPrismRequest(req: Request): PrismRequest {
  const headers = { ...req.headers } as Record<string, string>;
  // Prism looks at Content-Length to decide whether a body was sent; a chunked body has none.
  if (req.headers['transfer-encoding'] && !req.headers['content-length']) headers['content-length'] = '1';
  return {
    method: req.method === 'HEAD' ? 'get' : req.method.toLowerCase(),
    url: { path: req.path, query: { ...(req.query as Record<string, string | string[]>) } },
    headers,
    body: requestBody(req),
  };
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function routeNotFound(context: MockContext, req: Request) {
  const operations = context.served.contract.operations.map((op) => ({ operationId: op.id, method: op.method.toUpperCase(), path: op.path }));
  const list = operations.map((op) => `${op.method} ${op.path}`).join(', ');
  return problemReply(problem('routeNotFound', `${req.method} ${req.path} matches no path of the contract. It has: ${list}.`, { instance: req.path, operations }));
}

function methodNotAllowed(context: MockContext, req: Request, res: Response): void {
  const methods = allowedMethods(context.served.specs, req.path);
  if (methods.includes('GET')) methods.push('HEAD');
  methods.push('OPTIONS');
  const allow = methods.join(', ');
  if (req.method === 'OPTIONS') return sendReply(context, req, res, undefined, [], { status: 204, headers: { Allow: allow } });
  const detail = `${req.method} is not defined for ${req.path}; the contract has: ${allow}.`;
  return sendReply(context, req, res, undefined, [], problemReply(problem('methodNotAllowed', detail, { instance: req.path, allow: methods }), { Allow: allow }));
}

function preferProblem(message: string, req: Request) {
  return problem('invalidPrefer', message, { instance: req.path, violations: [{ location: 'header', pointer: '/prefer', message }] });
}
