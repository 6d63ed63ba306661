// The first step for contract paths: find the operation before reading any body, so an unknown path is
// a 404 and a wrong method a 405 whatever was sent, and only operations that take a body get one read.
import type { Request, RequestHandler, Response } from 'express';
import type { Operation } from '../contract/load-contract.js';
import { extractPathParams } from '../contract/path-params.js';
import { allowedMethods, routeRequest } from '../prism/prism-adapter.js';
import { problem } from '../problems/problems.js';
import type { MockContext } from './mock-context.js';
import { problemReply, sendReply } from './send-reply.js';

/** The operation a request was matched to, kept in `res.locals.match` for the rest of the pipeline. */
export interface Match {
  operation: Operation;
  pathParams: Record<string, string>;
  /** The request path as routed: a trailing slash is dropped, as most servers do. */
  path: string;
}

/** The match of this response's request, if the router found one. */
export function matchOf(res: Response): Match | undefined {
  return res.locals.match as Match | undefined;
}

/** Routes with Prism's router; answers 404, 405 and plain OPTIONS itself. */
export function matchRoute(context: MockContext): RequestHandler {
  return (req, res, next) => {
    const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') || '/' : req.path;
    const method = req.method === 'HEAD' ? 'get' : req.method.toLowerCase();
    const routed = routeRequest(context.served.specs, method, path);
    if (routed.kind === 'no-path') return sendReply(req, res, undefined, [], routeNotFound(context, req));
    if (routed.kind === 'no-method') return methodNotAllowed(context, req, res, path);
    res.locals.match = matchFor(context, routed.spec, path);
    next();
  };
}

const MATCH_LIMIT = 5_000;
const matches = new WeakMap<object, Map<string, Match>>();

/** The match of an operation and a path, remembered per contract (path parameters are read once). */
function matchFor(context: MockContext, spec: Operation['spec'], path: string): Match {
  let cache = matches.get(context.served);
  if (!cache) matches.set(context.served, (cache = new Map()));
  const key = `${spec.method} ${path}`;
  let match = cache.get(key);
  if (!match && key.length > 512) {
    const operation = context.served.operations.get(spec)!;
    return { operation, pathParams: extractPathParams(operation.path, path), path };
  }
  if (!match) {
    const operation = context.served.operations.get(spec)!;
    match = Object.freeze({ operation, pathParams: Object.freeze(extractPathParams(operation.path, path)), path });
    if (cache.size >= MATCH_LIMIT) cache.clear();
    cache.set(key, match);
  }
  return match;
}

function routeNotFound(context: MockContext, req: Request) {
  const operations = context.served.contract.operations.map((op) => ({ operationId: op.id, method: op.method.toUpperCase(), path: op.path }));
  const list = operations.map((op) => `${op.method} ${op.path}`).join(', ');
  return problemReply(problem('routeNotFound', `${req.method} ${req.path} matches no path of the contract. It has: ${list}.`, { instance: req.path, operations }));
}

function methodNotAllowed(context: MockContext, req: Request, res: Response, path: string): void {
  const methods = allowedMethods(context.served.specs, path);
  if (methods.includes('GET')) methods.push('HEAD');
  methods.push('OPTIONS');
  const allow = methods.join(', ');
  if (req.method === 'OPTIONS') return sendReply(req, res, undefined, [], { status: 204, headers: { Allow: allow } });
  const detail = `${req.method} is not defined for ${req.path}; the contract has: ${allow}.`;
  return sendReply(req, res, undefined, [], problemReply(problem('methodNotAllowed', detail, { instance: req.path, allow: methods }), { Allow: allow }));
}
