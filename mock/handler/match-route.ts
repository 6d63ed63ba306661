// The first step for contract paths: find the operation before reading any body, so an unknown path is
// a 404 and a wrong method a 405 whatever was sent, and only operations that take a body get one read.
import type { Operation } from '../contract/load-contract.js';
import { extractPathParams } from '../contract/path-params.js';
import { allowedMethods, routeRequest } from '../prism/prism-adapter.js';
import { problem } from '../problems/problems.js';
import type { Exchange } from './exchange.js';
import type { MockContext } from './mock-context.js';
import type { Rendered } from './render-response.js';
import { problemReply } from './send-reply.js';

/** The operation a request was matched to, kept in the exchange for the rest of the pipeline. */
export interface Match {
  operation: Operation;
  pathParams: Record<string, string>;
  /** The request path as routed: a trailing slash is dropped, as most servers do. */
  path: string;
}

/**
 * Routes with Prism's router: the operation of the request, or the answer when there is none (404; 405
 * with `Allow`; 204 for a plain OPTIONS).
 */
export function matchRoute(context: MockContext, ex: Exchange): Match | Rendered {
  const path = ex.path.length > 1 ? ex.path.replace(/\/+$/, '') || '/' : ex.path;
  const method = ex.method === 'HEAD' ? 'get' : ex.method.toLowerCase();
  const routed = routeRequest(context.served.specs, method, path);
  if (routed.kind === 'no-path') return routeNotFound(context, ex);
  if (routed.kind === 'no-method') return methodNotAllowed(context, ex, path);
  return matchFor(context, routed.spec, path);
}

/** Whether routing found an operation. */
export function isMatch(routed: Match | Rendered): routed is Match {
  return 'operation' in routed;
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

function routeNotFound(context: MockContext, { method, path }: Exchange): Rendered {
  const operations = context.served.contract.operations.map((op) => ({
    operationId: op.id,
    method: op.method.toUpperCase(),
    path: op.path,
  }));
  const list = operations.map((op) => `${op.method} ${op.path}`).join(', ');
  return problemReply(
    problem('routeNotFound', `${method} ${path} matches no path of the contract. It has: ${list}.`, {
      instance: path,
      operations,
    }),
  );
}

function methodNotAllowed(context: MockContext, ex: Exchange, path: string): Rendered {
  const methods = allowedMethods(context.served.specs, path);
  if (methods.includes('GET')) methods.push('HEAD');
  methods.push('OPTIONS');
  const allow = methods.join(', ');
  if (ex.method === 'OPTIONS') return { status: 204, headers: { Allow: allow } };
  const detail = `${ex.method} is not defined for ${ex.path}; the contract has: ${allow}.`;
  return problemReply(problem('methodNotAllowed', detail, { instance: ex.path, allow: methods }), { Allow: allow });
}
