// The mock's boundary with Prism for requests: loading operations and validating requests. Prism's fp-ts
// results become plain values here.
import type { IHttpOperation } from '@stoplight/types';
import type { Violation, ViolationLocation } from '../problems/problems.js';
import { loader, validators, type Diagnostic, type PrismRequest } from './prism-modules.js';

/** Reads and dereferences an OpenAPI file into Prism's operations. */
export function readOperations(location: string | object): Promise<IHttpOperation[]> {
  return loader.getHttpOperationsFromSpec(location);
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
 * The request headers Prism's validation reads for an operation (declared ones, security keys, and those
 * that say whether and what body came): a verdict can be remembered by these and nothing else.
 */
export function headersRead(spec: IHttpOperation): string[] {
  const declared = (spec.request?.headers ?? []).map((h) => h.name.toLowerCase());
  const keys = (spec.security ?? [])
    .flat()
    .flatMap((s) => ('in' in s && s.in === 'header' && 'name' in s ? [String(s.name).toLowerCase()] : []));
  const always = ['authorization', 'cookie', 'content-type', 'content-length', 'transfer-encoding'];
  return [...new Set([...always, ...declared, ...keys])];
}

/**
 * Validates a request with Prism: security first (401), then the media type (415), then path, query,
 * headers and body. A missing body is 400, body-only violations are 422; anything else wrong is 400.
 */
export function validateRequest(spec: IHttpOperation, facts: RequestFacts, checkSecurity: boolean): RequestCheck {
  const request = toPrismRequest(facts);
  if (checkSecurity) {
    const security = validators.validateSecurity({ resource: spec, element: request });
    if (security._tag === 'Left') {
      const schemes = [...new Set(security.left.flatMap((d) => d.tags ?? []))];
      const named = schemes.length ? ` (${schemes.join(', ')})` : '';
      const message = `Send credentials for one of the contract's security schemes${named}.`;
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
