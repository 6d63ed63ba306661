// The path prefixes a contract's servers put before its paths (`https://x.com/v1` → `/v1`), so a request
// to `/v1/pets` finds the operation declared at `/pets`, as a client configured with the real server URL sends it.
import type { IHttpOperation, INodeVariable, IServer } from '@stoplight/types';

/** Server URLs read per server: a server's variables can have a few enum values each, never a flood. */
const MAX_URLS = 16;
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The path prefixes of an operation's servers, without a trailing slash and never empty (a server at the
 * root adds none). A variable takes its default and its enum values; a URL with a variable that has
 * neither, or that cannot be parsed, adds none. Relative URLs (`/v1`, `v1`) are paths already.
 * @example serverPaths([{ id: 's', url: 'https://x.com/v1/' }]) // ['/v1']
 */
export function serverPaths(servers: readonly IServer[] | undefined): string[] {
  const paths = new Set<string>();
  for (const server of servers ?? []) {
    for (const url of expand(server.url, server.variables)) {
      const path = pathOf(url);
      if (path) paths.add(path);
    }
  }
  return [...paths];
}

/**
 * Swagger 2 puts its `basePath` on the operations' servers only when the document names a host and
 * schemes: a `basePath` alone becomes the operations' server here, so it is served under it all the same.
 */
export function withBasePath(specs: IHttpOperation[], document: Record<string, unknown>): IHttpOperation[] {
  const { swagger, basePath } = document;
  if (typeof swagger !== 'string' || typeof basePath !== 'string' || !pathOf(basePath)) return specs;
  for (const spec of specs) {
    if (!spec.servers?.length) spec.servers = [{ id: 'basePath', url: basePath }];
  }
  return specs;
}

/** Every URL the template names with its variables' defaults and enum values (at most {@link MAX_URLS}). */
function expand(template: string, variables: Record<string, INodeVariable> | undefined): string[] {
  let urls = [template];
  for (const [, name] of template.matchAll(/{([^}]+)}/g)) {
    const variable = variables?.[name!];
    const values = [...new Set([variable?.default, ...(variable?.enum ?? [])].filter((v) => v !== undefined))];
    if (values.length === 0) return [];
    urls = urls.flatMap((url) => values.map((value) => url.replace(`{${name}}`, String(value)))).slice(0, MAX_URLS);
  }
  return urls;
}

/** The path part of a server URL, without trailing slashes; `undefined` for the root or an unreadable URL. */
function pathOf(url: string): string | undefined {
  let path: string;
  if (ABSOLUTE.test(url) || url.startsWith('//')) {
    try {
      path = new URL(url, 'http://localhost').pathname;
    } catch {
      return undefined;
    }
  } else {
    path = `/${url.split(/[?#]/)[0]!.replace(/^\.?\/+/, '')}`;
  }
  path = path.replace(/\/+$/, '');
  return path && !path.includes('{') ? path : undefined;
}

/** A server path prefix and the plans served under it. */
export interface ServerBase<T> {
  path: string;
  plans: ReadonlySet<T>;
}

/**
 * The server path prefixes of a contract's plans, longest first (so `/api/v2` is tried before `/api`),
 * each with the plans whose servers have it.
 */
export function serverBases<T extends { operation: { spec: IHttpOperation } }>(plans: readonly T[]): ServerBase<T>[] {
  const bases = new Map<string, Set<T>>();
  for (const plan of plans) {
    for (const path of serverPaths(plan.operation.spec.servers)) {
      const set = bases.get(path) ?? new Set<T>();
      set.add(plan);
      bases.set(path, set);
    }
  }
  return [...bases].map(([path, set]) => ({ path, plans: set })).sort((a, b) => b.path.length - a.path.length);
}
