// The mock's boundary with Prism for requests: loading operations and validating requests. Prism's fp-ts
// results become plain values here.
import type { IHttpOperation } from '@stoplight/types';
import { MAX_VIOLATIONS, type Violation, type ViolationLocation } from '../http/problems.js';
import { formText } from '../http/request-body.js';
import { createJsonBodyCheck, missingBody, type JsonBodyCheck } from './json-body-check.js';
import { emptyValueCheck } from './empty-values.js';
import { ERROR } from './schema-check.js';
import { credentialsPlace, describeCredentials, SECURITY_CHECK_OFF } from './describe-credentials.js';
import { convertToJsonSchema, transforms, validators, type Diagnostic, type PrismRequest } from './prism-modules.js';

/** The kinds of document Prism reads. */
export type DocumentKind = keyof typeof transforms;

/** The `$schema` Prism gives schemas converted from OpenAPI. */
export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/**
 * Prism's operations of a document, read with Prism's transformers, which follow the local references of
 * OpenAPI objects (parameters, responses…) themselves. Its schemas must be JSON Schema already (see
 * contract/resolve-schemas.ts): `dialect` tells the transformers so, and is their `$schema`.
 */
export function readOperations(
  document: Record<string, unknown>,
  kind: DocumentKind,
  dialect = DRAFT_07,
): IHttpOperation[] {
  if (kind === 'postman') return transforms.postman(document);
  // http-spec drops a response object with no member at all (`'204': {}`), leaving the operation without
  // the response the contract documents: each is given an empty description while it reads them.
  const bare = bareResponses(document);
  for (const response of bare) response.description = '';
  // A document's jsonSchemaDialect makes http-spec take its schemas as they are, only adding `$schema`.
  const own = document.jsonSchemaDialect;
  if (typeof own !== 'string') document.jsonSchemaDialect = dialect;
  try {
    return transforms[kind](document);
  } finally {
    if (own === undefined) delete document.jsonSchemaDialect;
    else document.jsonSchemaDialect = own;
    for (const response of bare) delete response.description;
  }
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The response objects of the document's operations that have no member at all (`{}`). */
function bareResponses(document: Record<string, unknown>): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const objects = (value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.values(value as Record<string, unknown>)
      : [];
  for (const item of objects(document.paths)) {
    if (typeof item !== 'object' || item === null) continue;
    for (const method of METHODS) {
      const responses = (item as Record<string, { responses?: unknown } | undefined>)[method]?.responses;
      for (const response of objects(responses)) {
        if (typeof response === 'object' && response !== null && Object.keys(response).length === 0) {
          found.push(response as Record<string, unknown>);
        }
      }
    }
  }
  return found;
}

/** The keywords http-spec's conversion recurses into: held back, so that it converts one schema object alone. */
const NESTED = ['allOf', 'anyOf', 'oneOf', 'not', 'items', 'additionalProperties', 'additionalItems', 'properties'];
const EMPTY_DOCUMENT = {};

/**
 * One schema object with its OpenAPI 3.0 and Swagger 2.0 keywords turned into JSON Schema as Prism turns them
 * (`nullable`, `example`, `x-nullable`, boolean `exclusiveMinimum`, number formats…); its subschemas are kept
 * as they are. Keys keep their order; keywords the conversion adds come last.
 * @example convertSchemaKeywords({ type: 'string', nullable: true }) // { type: ['string', 'null'] }
 */
export function convertSchemaKeywords(schema: Record<string, unknown>): Record<string, unknown> {
  const own: Record<string, unknown> = { ...schema };
  for (const key of NESTED) delete own[key];
  const converted = convertToJsonSchema(EMPTY_DOCUMENT, own) as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(schema)) {
    if (NESTED.includes(key) || key === '$schema') result[key] = schema[key];
    else if (key in converted) result[key] = converted[key];
  }
  for (const key of Object.keys(converted)) if (!(key in result) && key !== '$schema') result[key] = converted[key];
  return result;
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
  // Prism decides from Content-Length whether a body was sent: say so exactly when there is one. (A name is
  // deleted only when there: deleting even a missing one costs the copy its fast properties.)
  if ('transfer-encoding' in headers) delete headers['transfer-encoding'];
  if (facts.body !== undefined) headers['content-length'] = headers['content-length'] ?? '1';
  else if ('content-length' in headers) delete headers['content-length'];
  return {
    method: facts.method === 'HEAD' ? 'get' : facts.method.toLowerCase(),
    url: { path: facts.path, query: { ...facts.query } },
    headers,
    body: formText(facts.body) ?? asForm(facts.body, headers['content-type']) ?? facts.body,
  };
}

/**
 * Prism validates a form from its text: fields parsed by someone else (the app the mock is mounted in)
 * are encoded again for it.
 */
function asForm(body: unknown, contentType: string | undefined): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !FORM.test(contentType ?? ''))
    return undefined;
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) {
    for (const each of Array.isArray(value) ? value : [value]) form.append(name, String(each));
  }
  return form.toString();
}

const FORM = /^\s*application\/x-www-form-urlencoded\s*(;|$)/i;

/** Which problem a refused request gets. */
export type RefusalKind = 'unauthorized' | 'unsupportedMediaType' | 'missingBody' | 'invalidBody' | 'invalidRequest';

/** The outcome of validating a request: nothing wrong, or what is wrong and which problem says it. */
export type RequestCheck =
  | { ok: true }
  | {
      ok: false;
      kind: RefusalKind;
      violations: Violation[];
      schemes: string[];
      /** How many violations there were, when there were more than `violations` lists. */
      violationCount?: number;
      /** The problem's detail, when it says more than its violations (a 401: how to turn the check off). */
      detail?: string;
    };

/**
 * The request headers Prism reads to validate everything but the body (the declared ones, and those the
 * security schemes read): a verdict on the path, query and headers can be remembered by these.
 */
export function headersRead(spec: IHttpOperation): string[] {
  const declared = (spec.request?.headers ?? []).map((h) => h.name.toLowerCase());
  const keys = (spec.security ?? [])
    .flat()
    .flatMap((s) => ('in' in s && s.in === 'header' && 'name' in s ? [String(s.name).toLowerCase()] : []));
  return [...new Set(['authorization', 'cookie', ...declared, ...keys])];
}

/** A finding of Prism's request validation (an error, never a warning). */
export type Finding = Diagnostic;

/** A request made ready for Prism's validators (see {@link toPrismRequest}): made once, read by every part. */
export type PreparedRequest = PrismRequest;

/**
 * Prism's validation of one operation's requests, in parts that read different facts, so each part can be
 * remembered by what it reads. Each part runs Prism's own `validateInput` on the operation reduced to that
 * part (reduced once, here): together they find exactly what Prism finds, body findings first.
 */
export interface PrismValidation {
  /** The 401 refusal when the request lacks the contract's credentials (reads headers and query). */
  security(request: PreparedRequest): RequestCheck | undefined;
  /** What is wrong with the path, the query and the declared headers. */
  parameters(request: PreparedRequest): Finding[];
  /** What is wrong with the body: missing, of a media type the operation does not take, or not fitting. */
  body(request: PreparedRequest): Finding[];
  /** What {@link PrismValidation.body} finds when no body was sent, without a request made ready for Prism. */
  noBody(): Finding[];
}

/** Splits an operation's validation into its parts. */
export function splitValidation(
  spec: IHttpOperation,
  prepared: WeakMap<object, unknown> = new WeakMap(),
): PrismValidation {
  const { request } = spec;
  // Made on first use: each keeps the operation's __bundled__ only if its schemas refer to it (see withBundle).
  let withoutBody: IHttpOperation | undefined;
  let bodyOnly: IHttpOperation | undefined;
  let jsonBody: JsonBodyCheck | undefined;
  let credentials: string | undefined;
  let checked: IHttpOperation | typeof MET | undefined;
  let emptyValues: ReturnType<typeof emptyValueCheck> | null = null;
  const parametersPart = () =>
    (withoutBody ??= withBundle({ ...spec, request: request && { ...request, body: undefined } }));
  const bodyPart = () => (bodyOnly ??= withBundle({ ...spec, request: request && { body: request.body } }));
  const declaresContentType = (request?.headers ?? []).some((h) => h.name.toLowerCase() === 'content-type');
  const findings = (resource: IHttpOperation, element: PrismRequest): Finding[] => {
    const input = validators.validateInput({ resource, element });
    return input._tag === 'Right' ? [] : input.left.filter((d) => d.severity === ERROR);
  };
  return {
    security(element) {
      checked ??= checkedSecurity(spec);
      if (checked === MET) return undefined;
      const security = validators.validateSecurity({ resource: checked, element });
      if (security._tag === 'Right') return undefined;
      // Prism's tags are the challenges of the schemes that failed; "None" (no credentials) is none of them.
      const schemes = [...new Set(security.left.flatMap((d) => d.tags ?? []))].filter((tag) => tag !== 'None');
      const message = (credentials ??= describeCredentials(checked.security));
      const place = credentialsPlace(checked.security);
      return {
        ok: false,
        kind: 'unauthorized',
        schemes,
        violations: [{ ...place, message, code: 401 }],
        detail: `${message} ${SECURITY_CHECK_OFF}`,
      };
    },
    parameters(element) {
      if (!request) return [];
      // Seen as a request without a body: Prism would otherwise refuse the body the reduced operation lacks,
      // and parse (and throw on) a Content-Type that says nothing here unless the contract declares it.
      const { 'content-length': _length, 'content-type': type, ...headers } = element.headers;
      if (declaresContentType && type !== undefined) headers['content-type'] = type;
      const part = parametersPart();
      const found = findings(part, { ...element, headers, body: undefined });
      // Prism reads an empty value as none: it is checked here, as the empty string (see empty-values.ts).
      if (emptyValues === null) emptyValues = emptyValueCheck(request, bundleOf(part));
      return emptyValues ? emptyValues(element, found) : found;
    },
    // An operation without a request body refuses one (415), as Prism does (handle.ts reads none for GET).
    body(element) {
      jsonBody ??= createJsonBodyCheck(bodyPart(), prepared);
      return jsonBody(element) ?? findings(bodyPart(), element);
    },
    noBody: () => (request?.body?.required ? [missingBody()] : []),
  };
}

/** An operation's security requirements met whatever the request sends. */
const MET = Symbol('met');

/**
 * The operation with the security requirements a plain HTTP request can show: a client certificate
 * (`mutualTLS`) never reaches the mock, so a requirement made only of it is met (and so are all of them: one
 * will do), and in a requirement with other schemes, those others are checked.
 */
function checkedSecurity(spec: IHttpOperation): IHttpOperation | typeof MET {
  const requirements = spec.security ?? [];
  const isTls = (scheme: { type: string }) => scheme.type === 'mutualTLS';
  if (!requirements.some((requirement) => requirement.some(isTls))) return spec;
  if (requirements.some((requirement) => requirement.length > 0 && requirement.every(isTls))) return MET;
  return { ...spec, security: requirements.map((requirement) => requirement.filter((s) => !isTls(s))) };
}

/**
 * A part of an operation, with the operation's `__bundled__` only if the part's schemas refer to it: Prism
 * gives ajv the bundle beside every schema it compiles, and ajv walks all of it each time (Stripe's holds
 * most of its contract: 90 ms to compile a query's two parameters).
 */
function withBundle(part: IHttpOperation): IHttpOperation {
  const { __bundled__: bundle, ...rest } = part as IHttpOperation & { __bundled__?: unknown };
  if (bundle === undefined) return part;
  const { request } = part;
  const holders = [request?.path, request?.query, request?.headers, request?.cookie, request?.body?.contents];
  const schemas = holders.flatMap((list) => (list ?? []).map((holder) => holder.schema));
  return refersToBundle(schemas) ? ({ ...rest, __bundled__: bundle } as IHttpOperation) : (rest as IHttpOperation);
}

function bundleOf(part: IHttpOperation): unknown {
  return (part as IHttpOperation & { __bundled__?: unknown }).__bundled__;
}

function refersToBundle(values: unknown[]): boolean {
  const seen = new Set<object>();
  const pending = [...values];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/__bundled__/')) return true;
    pending.push(...Object.values(value));
  }
  return false;
}

/**
 * The verdict on a request from its findings (body findings first, as Prism lists them): a media type the
 * operation does not take is 415, a missing body 400, body-only violations 422, anything else 400.
 * @param body the parsed body, to tell a falsy body Prism took for none from a missing one
 */
export function judge(findings: readonly Finding[], body: unknown): RequestCheck {
  if (findings.length === 0) return VALID;
  const unsupported = findings.find((d) => d.code === 415);
  if (unsupported) {
    const violations = [{ location: 'header' as const, pointer: '/content-type', message: unsupported.message }];
    return { ok: false, kind: 'unsupportedMediaType', schemes: [], violations };
  }
  // Prism reads a falsy body (JSON null, false, 0, "") as no body at all; it was sent, and is just wrong.
  const sentFalsy = body !== undefined;
  // A wide body can break the schema thousands of times: the answer lists the first ones, so only those are read.
  const shown = findings.length > MAX_VIOLATIONS ? findings.slice(0, MAX_VIOLATIONS) : findings;
  const violations = shown.map((d) =>
    sentFalsy && isMissingBody(d)
      ? {
          location: 'body' as const,
          pointer: '',
          message: `must be a value that fits the schema, not ${JSON.stringify(body)}`,
        }
      : toViolation(d),
  );
  const missing = !sentFalsy && findings.some(isMissingBody);
  const kind = missing
    ? 'missingBody'
    : findings.every((d) => locationOf(d) === 'body')
      ? 'invalidBody'
      : 'invalidRequest';
  const count = shown === findings ? {} : { violationCount: findings.length };
  return { ok: false, kind, schemes: [], violations, ...count };
}

/** The verdict of a request with nothing wrong. */
export const VALID: RequestCheck = Object.freeze({ ok: true });

function isMissingBody(d: Diagnostic): boolean {
  return d.code === 'required' && (d.path ?? []).length === 0;
}

const LOCATIONS: Record<string, ViolationLocation> = { body: 'body', query: 'query', path: 'path', header: 'header' };

function locationOf(d: Diagnostic): ViolationLocation {
  return LOCATIONS[d.path?.[0] ?? 'body'] ?? 'body';
}

function toViolation(d: Diagnostic): Violation {
  const [first = 'body', ...rest] = d.path ?? [];
  const location = locationOf(d);
  const segments = LOCATIONS[first] ? rest : (d.path ?? []);
  if (isMissingBody(d))
    return { location: 'body', pointer: '', message: 'A request body is required.', code: 'required' };
  // Prism prefixes "Request body property a.b " to ajv's message; the location and pointer already say that.
  const message = d.message.replace(/^Request \w+ (?:(?:property|parameter) \S+ )?/, '');
  const missing = /^must have required property '(.+)'$/.exec(message)?.[1];
  const pointer = [...segments, ...(missing ? [missing] : [])]
    .map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
  return { location, pointer, message, ...(d.code === undefined ? {} : { code: d.code }) };
}
