// The first step for contract paths: find the operation before reading any body, so an unknown path is
// a 404 and a wrong method a 405 whatever was sent, and only operations that take a body get one read.
import type { RouteHit } from '../plan/operation-plan.js';
import type { Served } from '../plan/serve.js';
import { problem } from '../problems/problems.js';
import { problemReply, type Reply } from '../reply/reply.js';

/**
 * Routes a request on the contract's route table: its operation, or the answer when there is none (404
 * listing the operations; 405 with `Allow`; 204 with `Allow` for a plain OPTIONS).
 */
export function matchRoute(served: Served, method: string, path: string): RouteHit | Reply {
  const routed = path.length > 1 ? trimSlashes(path) : path;
  const found = served.routes.find(method === 'HEAD' ? 'get' : method.toLowerCase(), routed);
  if (found.kind === 'no-path') return routeNotFound(served, method, path);
  if (found.kind === 'no-method') return methodNotAllowed(found.allow, method, path);
  return found.route.value.match(routed);
}

/** Whether routing found an operation. */
export function isMatch(routed: RouteHit | Reply): routed is RouteHit {
  return 'plan' in routed;
}

/** Drops trailing slashes in one pass (a regex like `/\/+$/` is quadratic on a long run of slashes). */
function trimSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end) || '/';
}

function routeNotFound(served: Served, method: string, path: string): Reply {
  const operations = served.contract.operations.map((op) => ({
    operationId: op.id,
    method: op.method.toUpperCase(),
    path: op.path,
  }));
  const list = operations.map((op) => `${op.method} ${op.path}`).join(', ');
  const detail = `${method} ${path} matches no path of the contract. It has: ${list}.`;
  return problemReply(problem('routeNotFound', detail, { instance: path, operations }));
}

function methodNotAllowed(allowed: string[], method: string, path: string): Reply {
  const methods = [...allowed];
  if (methods.includes('GET')) methods.push('HEAD');
  methods.push('OPTIONS');
  const allow = methods.join(', ');
  if (method === 'OPTIONS') return { status: 204, headers: { Allow: allow } };
  const detail = `${method} is not defined for ${path}; the contract has: ${allow}.`;
  return problemReply(problem('methodNotAllowed', detail, { instance: path, allow: methods }), { Allow: allow });
}
