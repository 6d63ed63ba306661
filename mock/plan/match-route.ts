// The first step for contract paths: find the operation before reading any body, so an unknown path is
// a 404 and a wrong method a 405 whatever was sent, and only operations that take a body get one read.
import type { OperationPlan, RouteHit } from './operation-plan.js';
import type { RouteMatch, RouteTable } from './route-table.js';
import type { Served } from './serve.js';
import type { Reply } from '../http/reply.js';
import { unmatchedMethod, unmatchedPath, type Unmatched } from '../http/unmatched.js';

/**
 * Routes a request on the contract's route table: its operation, or the answer when there is none (404
 * listing the operations; 405 with `Allow`; 204 with `Allow` for a plain OPTIONS). The path is routed as
 * sent, then under each server path prefix of the contract (`/v1/pets` finds `/pets` of an operation
 * served at `https://x.com/v1`). HEAD goes to a `head` operation, else to the path's GET (HTTP's HEAD).
 * `instance` is the path as the client sent it, when a base URL was taken off it (the MSW handlers').
 */
export function matchRoute(
  served: Served,
  method: string,
  path: string,
  cors = true,
  instance = path,
): RouteHit | Reply {
  const bare = routeMethod(served.routes, method, path);
  if (bare.found.kind === 'matched') return bare.found.route.value.match(bare.path);
  let refused = bare.found.kind === 'no-method' ? bare.found : undefined;
  for (const base of served.bases) {
    if (!path.startsWith(base.path) || (path.length > base.path.length && path[base.path.length] !== '/')) continue;
    const under = routeMethod(served.routes, method, path.slice(base.path.length) || '/');
    if (under.found.kind === 'matched' && base.plans.has(under.found.route.value)) {
      return under.found.route.value.match(under.path);
    }
    if (under.found.kind === 'no-method') refused ??= under.found;
  }
  if (refused) return methodNotAllowed(refused.allow, { method, path, instance }, cors);
  return routeNotFound(served, { method, path, instance });
}

/** Whether routing found an operation. */
export function isMatch(routed: RouteHit | Reply): routed is RouteHit {
  return 'plan' in routed;
}

interface Routed {
  found: RouteMatch<OperationPlan>;
  /** The path as routed (a trailing slash the contract does not declare dropped). */
  path: string;
}

/**
 * HEAD finds a `head` operation first, then the path's GET. A method is case-sensitive (RFC 9110): the
 * contract's are upper-case (`patch:` is PATCH), so `patch` as sent finds none (405 with `Allow`).
 */
function routeMethod(routes: RouteTable<OperationPlan>, method: string, path: string): Routed {
  if (method === 'HEAD') {
    const head = routePath(routes, 'head', path);
    return head.found.kind === 'matched' ? head : routePath(routes, 'get', path);
  }
  // The table's methods are lower-case; '' is none of them.
  return routePath(routes, method === method.toUpperCase() ? method.toLowerCase() : '', path);
}

/**
 * A path declared with a trailing slash (`/api/`) matches it as sent; otherwise a trailing slash is dropped
 * (`/members/` finds `/members`), as most servers do, and a path sent without the slash a declared one
 * needs (`/api` for `/api/`) finds it too. A trailing slash never fills a path parameter with nothing.
 */
function routePath(routes: RouteTable<OperationPlan>, method: string, path: string): Routed {
  const trimmed = path.length > 1 ? trimSlashes(path) : path;
  if (trimmed === path) {
    const found = routes.find(method, path);
    if (found.kind !== 'no-path' || path === '/') return { found, path };
    const slashed = `${path}/`;
    const withSlash = routes.find(method, slashed);
    return withSlash.kind === 'matched' && withSlash.route.path.endsWith('/')
      ? { found: withSlash, path: slashed }
      : { found, path };
  }
  const exact = routes.find(method, path);
  if (exact.kind === 'matched' && exact.route.path.endsWith('/')) return { found: exact, path };
  const found = routes.find(method, trimmed);
  if (found.kind !== 'no-path' || exact.kind === 'matched') return { found, path: trimmed };
  return { found: exact, path };
}

/** Drops trailing slashes in one pass (a regex like `/\/+$/` is quadratic on a long run of slashes). */
function trimSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end) || '/';
}

function routeNotFound(served: Served, asked: Unmatched): Reply {
  const bases = served.bases.map((b) => b.path).join(', ');
  const note = bases ? ` Its paths are served at the root and under its servers' paths: ${bases}.` : '';
  const has = served.contract.operations.map((op) => `${op.method.toUpperCase()} ${op.path}`);
  return unmatchedPath(asked, 'the contract', has, note);
}

function methodNotAllowed(allowed: string[], asked: Unmatched, cors: boolean): Reply {
  const methods = [...allowed];
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
  // With CORS on, OPTIONS is answered on every path (preflights); with it off, only where the contract has it.
  if (cors && !methods.includes('OPTIONS')) methods.push('OPTIONS');
  if (asked.method === 'OPTIONS' && cors) return { status: 204, headers: { Allow: methods.join(', ') } };
  return unmatchedMethod(asked, 'the contract', methods);
}
