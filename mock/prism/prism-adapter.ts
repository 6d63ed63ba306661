// The mock's boundary with Prism for requests: loading operations, routing, validating requests. Prism's
// fp-ts results become plain values here.
import type { IHttpOperation } from '@stoplight/types';
import type { Violation, ViolationLocation } from '../problems/problems.js';
import { loader, matchPath, route, validators, type Diagnostic, type PrismRequest } from './prism-modules.js';

const NO_MATCH = 'no-match';

/** Reads and dereferences an OpenAPI file into Prism's operations. */
export function readOperations(location: string | object): Promise<IHttpOperation[]> {
  return loader.getHttpOperationsFromSpec(location);
}

/** What the router found for a method and path. */
export type RouteResult = { kind: 'matched'; spec: IHttpOperation } | { kind: 'no-path' } | { kind: 'no-method' };

// Memos are bounded by entries and by key length, so hostile requests cannot make them large.
const CACHE_LIMIT = 5_000;
const KEY_LIMIT = 4_096;
const routes = new WeakMap<IHttpOperation[], Map<string, RouteResult>>();

/**
 * Finds the operation for a method (lower-case) and path with Prism's router. Prism sorts every operation
 * for every request; the answer depends only on the method and path, so it is remembered per contract.
 */
export function routeRequest(specs: IHttpOperation[], method: string, path: string): RouteResult {
  const cache = cacheFor(routes, specs);
  const key = `${method} ${path}`;
  const hit = cache.get(key);
  if (hit) return hit;
  if (key.length > 512) return routeUncached(specs, method, path);
  return remember(cache, key, routeUncached(specs, method, path));
}

function routeUncached(specs: IHttpOperation[], method: string, path: string): RouteResult {
  const result = route({ resources: specs, input: { method, url: { path, query: {} }, headers: {} } });
  return result._tag === 'Right'
    ? { kind: 'matched', spec: result.right }
    : result.left.status === 405
      ? { kind: 'no-method' }
      : { kind: 'no-path' };
}

/** A bounded memo: emptied when full, so a stream of distinct paths cannot grow it without end. */
function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

function cacheFor<K extends object, T>(caches: WeakMap<K, Map<string, T>>, owner: K): Map<string, T> {
  let cache = caches.get(owner);
  if (!cache) caches.set(owner, (cache = new Map()));
  return cache;
}

/** The methods the contract has for the path of a request, upper-case, for an `Allow` header. */
export function allowedMethods(specs: IHttpOperation[], path: string): string[] {
  const methods = specs.filter((spec) => {
    const match = matchPath(path, spec.path);
    return match._tag === 'Right' && match.right !== NO_MATCH;
  });
  return [...new Set(methods.map((spec) => spec.method.toUpperCase()))];
}

/** The request facts Prism's validator reads. */
export interface RequestFacts {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed body; `undefined` when none was sent or the operation takes none. */
  body: unknown;
}

/** The request as Prism reads it. HEAD is validated as GET, as HTTP defines it. */
export function toPrismRequest(facts: RequestFacts): PrismRequest {
  const headers = { ...facts.headers } as Record<string, string>;
  // Prism decides from Content-Length whether a body was sent: say so exactly when there is one.
  delete headers['transfer-encoding'];
  if (facts.body === undefined) delete headers['content-length'];
  else headers['content-length'] = headers['content-length'] ?? '1';
  return {
    method: facts.method === 'HEAD' ? 'get' : facts.method.toLowerCase(),
    url: { path: facts.path, query: { ...facts.query } },
    headers,
    body: facts.body,
  };
}

/** Which problem a refused request gets. */
export type RefusalKind = 'unauthorized' | 'unsupportedMediaType' | 'missingBody' | 'invalidBody' | 'invalidRequest';

/** The outcome of validating a request: nothing wrong, or what is wrong and which problem says it. */
export type RequestCheck = { ok: true } | { ok: false; kind: RefusalKind; violations: Violation[]; schemes: string[] };

/**
 * Validates a request with Prism: security first (401), then the media type (415), then path, query,
 * headers and body. A missing body is 400, body-only violations are 422; anything else wrong is 400.
 */
export function checkRequest(spec: IHttpOperation, facts: RequestFacts, checkSecurity: boolean): RequestCheck {
  // The verdict depends only on the path, the query, the headers the contract reads and the body: remember
  // it, since front-ends repeat the same requests (small bodies only, so the memo stays small).
  const text = facts.body === undefined ? '' : JSON.stringify(facts.body);
  if (text === undefined || text.length > MEMO_BODY_LIMIT) return validate(spec, facts, checkSecurity);
  const key = `${bodylessKey(spec, facts, checkSecurity)}|${typeof facts.body}|${text}`;
  if (key.length > KEY_LIMIT) return validate(spec, facts, checkSecurity);
  const cache = cacheFor(checks, spec);
  return cache.get(key) ?? remember(cache, key, validate(spec, facts, checkSecurity));
}

const checks = new WeakMap<IHttpOperation, Map<string, RequestCheck>>();
const MEMO_BODY_LIMIT = 2048;
const readHeaders = new WeakMap<IHttpOperation, string[]>();

function bodylessKey(spec: IHttpOperation, facts: RequestFacts, checkSecurity: boolean): string {
  let names = readHeaders.get(spec);
  if (!names) {
    const declared = (spec.request?.headers ?? []).map((h) => h.name.toLowerCase());
    const keys = (spec.security ?? [])
      .flat()
      .flatMap((s) => ('in' in s && s.in === 'header' && 'name' in s ? [String(s.name).toLowerCase()] : []));
    readHeaders.set(
      spec,
      (names = [
        ...new Set([
          'authorization',
          'cookie',
          'content-type',
          'content-length',
          'transfer-encoding',
          ...declared,
          ...keys,
        ]),
      ]),
    );
  }
  const headers = names.map((name) => `${name}=${JSON.stringify(facts.headers[name] ?? null)}`).join('&');
  return `${checkSecurity}|${facts.method}|${facts.path}|${JSON.stringify(facts.query)}|${headers}`;
}

function validate(spec: IHttpOperation, facts: RequestFacts, checkSecurity: boolean): RequestCheck {
  const request = toPrismRequest(facts);
  if (checkSecurity) {
    const security = validators.validateSecurity({ resource: spec, element: request });
    if (security._tag === 'Left') {
      const schemes = [...new Set(security.left.flatMap((d) => d.tags ?? []))];
      const message = `Send credentials for one of the contract's security schemes${schemes.length ? ` (${schemes.join(', ')})` : ''}.`;
      return {
        ok: false,
        kind: 'unauthorized',
        schemes,
        violations: [{ location: 'header', pointer: '/authorization', message }],
      };
    }
  }
  const input = validators.validateInput({ resource: spec, element: request });
  if (input._tag === 'Right') return { ok: true };
  const errors = input.left.filter((d) => d.severity === 0);
  if (errors.length === 0) return { ok: true };
  const unsupported = errors.find((d) => d.code === 415);
  if (unsupported) {
    return {
      ok: false,
      kind: 'unsupportedMediaType',
      schemes: [],
      violations: [{ location: 'header', pointer: '/content-type', message: unsupported.message }],
    };
  }
  // Prism reads a falsy body (JSON null, false, 0, "") as no body at all; it was sent, and is just wrong.
  const sentFalsy = facts.body !== undefined;
  const violations = errors.map((d) =>
    sentFalsy && isMissingBody(d)
      ? {
          location: 'body' as const,
          pointer: '',
          message: `must be a value that fits the schema, not ${JSON.stringify(facts.body)}`,
        }
      : toViolation(d),
  );
  const missing = !sentFalsy && errors.some(isMissingBody);
  const kind = missing
    ? 'missingBody'
    : violations.every((v) => v.location === 'body')
      ? 'invalidBody'
      : 'invalidRequest';
  return { ok: false, kind, schemes: [], violations };
}

function isMissingBody(d: Diagnostic): boolean {
  return d.code === 'required' && (d.path ?? []).length === 0;
}

const LOCATIONS: Record<string, ViolationLocation> = { body: 'body', query: 'query', path: 'path', header: 'header' };

function toViolation(d: Diagnostic): Violation {
  const [first = 'body', ...rest] = d.path ?? [];
  const location = LOCATIONS[first] ?? 'body';
  const segments = LOCATIONS[first] ? rest : (d.path ?? []);
  if (isMissingBody(d)) return { location: 'body', pointer: '', message: 'A request body is required.' };
  // Prism prefixes "Request body property a.b " to ajv's message; the location and pointer already say that.
  const message = d.message.replace(/^Request \w+ (?:(?:property|parameter) \S+ )?/, '');
  const missing = /^must have required property '(.+)'$/.exec(message)?.[1];
  const pointer = [...segments, ...(missing ? [missing] : [])]
    .map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
  return { location, pointer, message };
}
