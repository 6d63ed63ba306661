// Checks responses and records against an operation's documented responses, with Prism's validator.
import type { IHttpOperation, IMediaTypeContent } from '@stoplight/types';
import { compileResponses } from '../schema/response-table.js';
import { mapSchema } from '../schema/schema-facts.js';
import {
  bodyParts,
  contentFor,
  convertAjvErrors,
  createSchemaCompiler,
  sharedSchemaCompiler,
  validators,
  type Diagnostic,
  type SchemaCheck,
  type SchemaCompiler,
} from './prism-modules.js';
import { bundleOf } from '../schema/operation-bundle.js';
import { draftOf, ERROR, hasId } from './schema-check.js';

/** A response as a client received it: headers with lower-case names, the body parsed when it is JSON. */
export interface ReceivedResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON for a JSON media type, else the text; `undefined` when the body is empty. */
  body: unknown;
}

/**
 * Checks a received response against an operation with Prism's validator: the status must be documented
 * (any status, although Prism only warns about an undocumented 4xx), then the media type, body and headers.
 * @returns one readable message per violation, empty when the response keeps the contract
 * @example checkResponse(spec, { status: 200, headers: {}, body: undefined })
 * // ['status 200 is not documented (documented: 201, 400)']
 */
export function checkResponse(spec: IHttpOperation, response: ReceivedResponse): string[] {
  if (!tableOf(spec).lookup(response.status)) {
    return [
      `status ${response.status} is not documented (documented: ${spec.responses.map((r) => r.code).join(', ')})`,
    ];
  }
  const element = { statusCode: response.status, headers: response.headers, body: response.body };
  const result = validators.validateOutput({ resource: spec, element });
  if (result._tag === 'Right') return [];
  return result.left.filter((d) => d.severity === ERROR).map((d) => describeOutputDiagnostic(d, response.status));
}

function describeOutputDiagnostic(d: Diagnostic, status: number): string {
  const mediaType =
    /^The received media type "(.*)" does not match the ones? specified in the current response: (.*)$/.exec(d.message);
  if (mediaType) {
    const received = mediaType[1] ? `media type "${mediaType[1]}"` : 'no Content-Type';
    return `${received} is not documented for ${status} (documented: ${mediaType[2]})`;
  }
  const [where, ...segments] = d.path ?? [];
  if (where !== 'body' && where !== 'header') return d.message;
  const message = d.message.replace(/^Response (?:body|header) (?:(?:property|parameter) \S+ )?/, '');
  if (where === 'header') return `header ${segments.join('.')}: ${message}`;
  const missing = /^must have required property '(.+)'$/.exec(message)?.[1];
  const pointer =
    [...segments, ...(missing ? [missing] : [])]
      .map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`)
      .join('') || '/';
  return `body ${pointer}: ${message}`;
}

/**
 * Checks a body against an operation's JSON response for a status (by default its success response): for
 * fixtures, state files and override bodies.
 * @returns one message per error (`/status: must be ...`), empty when the body fits
 */
export function checkResponseBody(spec: IHttpOperation, body: unknown, status?: number): string[] {
  // Thousands of fixtures fit: the body check alone says so, found once for the operation and status.
  const quick = bodyCheckOf(spec, status);
  if (quick && fitsQuietly(quick, body)) return [];
  return checkWholeBody(spec, body, status);
}

/** The quick check of {@link checkResponseBody}'s bodies for an operation and status, found once. */
function bodyCheckOf(spec: IHttpOperation, status: number | undefined): SchemaCheck | null {
  let known = BODY_CHECKS.get(spec);
  if (!known) BODY_CHECKS.set(spec, (known = new Map()));
  let quick = known.get(status);
  if (quick === undefined) {
    const table = tableOf(spec);
    const response = status === undefined ? table.success : table.lookup(status);
    const mediaType = response?.contents?.find((c) => /[/+]json\b/i.test(c.mediaType))?.mediaType;
    const received = { status: status ?? table.successStatus, headers: { 'content-type': mediaType! }, body: {} };
    quick = response && mediaType ? quickCheck(spec, received, response.contents ?? []) : null;
    known.set(status, quick);
  }
  return quick;
}
const BODY_CHECKS = new WeakMap<IHttpOperation, Map<number | undefined, SchemaCheck | null>>();

/** What Prism's whole answer check finds in a body (and why there is none to check). */
function checkWholeBody(spec: IHttpOperation, body: unknown, status?: number): string[] {
  const table = tableOf(spec);
  const response = status === undefined ? table.success : table.lookup(status);
  if (!response) return [`status ${status} is not documented`];
  const mediaType = response.contents?.find((c) => /[/+]json\b/i.test(c.mediaType))?.mediaType;
  if (!mediaType) return body === undefined ? [] : [`the ${response.code} response has no JSON body in the contract`];
  const received = { status: status ?? table.successStatus, headers: { 'content-type': mediaType }, body };
  return checkResponse(spec, received).map((m) => m.replace(/^body /, ''));
}

/**
 * The check of a body alone that tells when Prism's answer check finds nothing, for a status and Content-Type:
 * when Prism finds nothing but in the body there (its media type and headers checks do not depend on the body;
 * worked out once, with a body that is not there), the content Prism picks (the media type's, else the first),
 * its schema as Prism makes it ready (allOf merged, write-only properties out), compiled as Prism compiles it.
 * `null` when it cannot be had (a schema with an `$id`, say): the whole check says then.
 */
function quickCheck(
  spec: IHttpOperation,
  received: ReceivedResponse,
  contents: IMediaTypeContent[],
): SchemaCheck | null {
  const mediaType = received.headers['content-type']!;
  const key = `${received.status} ${mediaType}`;
  let known = QUICK.get(spec);
  if (!known) QUICK.set(spec, (known = new Map()));
  let quick = known.get(key);
  if (quick === undefined) {
    try {
      const element = { statusCode: received.status, headers: received.headers, body: undefined };
      const result = validators.validateOutput({ resource: spec, element });
      const quiet = result._tag === 'Right' || result.left.every((d) => d.severity !== ERROR || d.path?.[0] === 'body');
      quick = quiet ? compileOutputCheck(spec, contents, mediaType) : null;
    } catch {
      quick = null;
    }
    known.set(key, quick);
  }
  return quick;
}
const QUICK = new WeakMap<IHttpOperation, Map<string, SchemaCheck | null>>();

function compileOutputCheck(
  spec: IHttpOperation,
  contents: IMediaTypeContent[],
  mediaType: string,
): SchemaCheck | null {
  const content = contentFor(mediaType, contents) ?? contents[0];
  if (content?.schema === undefined || hasId(content.schema, new Set())) return null;
  let merged: object = content.schema;
  try {
    merged = bodyParts.mergeAllOf(merged, { deep: true, ignoreAdditionalProperties: true });
  } catch {
    // Prism checks against the schema as it is when allOf cannot be merged.
  }
  const stripped = bodyParts.stripWriteOnlyProperties(merged);
  if (stripped._tag !== 'Some') return null;
  const schema = stripped.value;
  const draft = draftOf(schema);
  const compiler = sharedSchemaCompiler(draft);
  const source = { ...schema, __bundled__: bundleOf(spec) };
  const check = compiler.compile(source);
  // The check works on without it: the compiler keeps nothing, the operation's map holds the check.
  compiler.removeSchema(source);
  return check;
}

function fitsQuietly(check: SchemaCheck, body: unknown): boolean {
  try {
    return check(body) === true;
  } catch {
    return false;
  }
}

/** The response table of an operation, compiled once. */
function tableOf(spec: IHttpOperation): ReturnType<typeof compileResponses> {
  let table = TABLES.get(spec.responses);
  if (!table) TABLES.set(spec.responses, (table = compileResponses(spec.responses)));
  return table;
}

/** One way a response body breaks its documented schema. */
export interface BodyViolation {
  /** JSON pointer in the body; `''` for the body itself. */
  pointer: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `enum`...). */
  code: string;
  /** What is wrong, without where: `must be object`. */
  message: string;
}

/**
 * Checks a body against the schema documented for an operation's `status` and `mediaType` (its content for
 * that media type, else its first), as Prism checks its own answers: its ajv functions, write-only properties
 * left out. Headers and the status itself are not checked here. A few µs: schemas are made ready once.
 * @returns the body's violations, empty when it fits (or nothing is documented to check it against)
 * @example findBodyViolations(spec, 200, 'application/json', 123) // [{ pointer: '', code: 'type', message: 'must be
 * object' }]
 */
export function findBodyViolations(
  checks: SchemaChecks,
  spec: IHttpOperation,
  status: number,
  mediaType: string | undefined,
  body: unknown,
): BodyViolation[] {
  if (body === undefined) return [];
  const content = documentedContent(spec, status, mediaType);
  return content ? findContentViolations(checks, spec, content, body) : [];
}

/**
 * The content documented for an answer: the response for `status` (exact, class, default), its content of
 * `mediaType`, else its first.
 * @example documentedContent(spec, 200, 'application/json')?.examples
 */
export function documentedContent(
  spec: IHttpOperation,
  status: number,
  mediaType: string | undefined,
): IMediaTypeContent | undefined {
  const contents = tableOf(spec).lookup(status)?.contents ?? [];
  return (mediaType && contentFor(mediaType, contents)) || contents[0];
}

/**
 * Checks a body against one documented content of an operation's responses (see {@link findBodyViolations}).
 * @example findContentViolations(spec, spec.responses[0].contents[0], example.value)
 */
export function findContentViolations(
  checks: SchemaChecks,
  spec: IHttpOperation,
  content: IMediaTypeContent,
  body: unknown,
): BodyViolation[] {
  if (!content.schema || FORM.test(content.mediaType)) return [];
  const schema = content.schema as object;
  const bundle = bundleOf(spec);
  return checks.run(schema, bundle, body).map(toBodyViolation);
}

const DRAFT_2019 = /^https?:\/\/json-schema.org\/draft\/2019-09\/schema#?$/;
const DRAFT_2020 = /^https?:\/\/json-schema.org\/draft\/2020-12\/schema#?$/;

/**
 * Response schemas compiled as Prism compiles them, at most `limit` kept (the least recently used is
 * dropped): Prism's own ajv keeps every schema it compiles, and a big contract's response schemas would cost
 * hundreds of megabytes. One per mock instance; the start report uses one of its own and lets it go.
 */
export class SchemaChecks {
  readonly #compilers = new Map<string, SchemaCompiler>();
  readonly #compiled = new Map<
    object,
    Map<unknown, { check: SchemaCheck; source: object; compiler: SchemaCompiler }>
  >();
  #size = 0;

  /**
   * @param limit compiled schemas kept
   * @param maxNodes objects a schema may hold once expanded to be checked at all (see {@link MAX_CHECKED_NODES})
   */
  constructor(
    readonly limit = 64,
    readonly maxNodes = MAX_CHECKED_NODES,
  ) {}

  /** Prism's findings (errors only) for `value` against a contract's schema. */
  run(schema: object, bundle: unknown, value: unknown): Diagnostic[] {
    const entry = this.#entry(schema, bundle);
    if (!entry) return [];
    try {
      if (entry.check(value)) return [];
    } catch {
      // Prism reports nothing when ajv throws on a value.
      return [];
    }
    return convertAjvErrors(entry.check.errors ?? [], 0, OUTPUT, 'body');
  }

  #entry(schema: object, bundle: unknown) {
    if (!isCheckable(schema, this.maxNodes)) return undefined;
    const byBundle = this.#compiled.get(schema);
    const known = byBundle?.get(bundle);
    if (known) {
      // Most recently used last: the first key is the one to drop.
      this.#compiled.delete(schema);
      this.#compiled.set(schema, byBundle!);
      return known;
    }
    const prepared = preparedOutput(schema);
    if (!prepared) return undefined;
    const $schema = String((prepared as { $schema?: unknown }).$schema);
    const draft = DRAFT_2019.test($schema) ? 'draft2019_09' : DRAFT_2020.test($schema) ? 'draft2020_12' : 'default';
    let compiler = this.#compilers.get(draft);
    if (!compiler) this.#compilers.set(draft, (compiler = createSchemaCompiler(draft)));
    // The bundle rides along, as Prism compiles it, so `#/__bundled__/...` references resolve.
    const source = { ...prepared, __bundled__: bundle };
    let check: SchemaCheck;
    try {
      check = compiler.compile(source);
    } catch {
      // A schema ajv cannot compile checks nothing, as in Prism.
      return undefined;
    }
    if (this.#size >= this.limit) this.#dropOldest();
    const entry = { check, source, compiler };
    this.#compiled.set(schema, (byBundle ?? new Map()).set(bundle, entry));
    this.#size++;
    return entry;
  }

  #dropOldest(): void {
    const [schema, byBundle] = this.#compiled.entries().next().value!;
    this.#compiled.delete(schema);
    for (const { source, compiler } of byBundle.values()) {
      compiler.removeSchema(source);
      this.#size--;
    }
  }
}

const OUTPUT = 1;
const TABLES = new WeakMap<object, ReturnType<typeof compileResponses>>();
const FORM = /^(?:application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/**
 * The schema as Prism checks an answer against it: without write-only properties, and without `$id` (two
 * schemas with one `$id` cannot be compiled into one ajv). A copy: kept only as long as its compiled check.
 */
function preparedOutput(schema: object): object | undefined {
  // Dereferenced schemas share their parts: a copy would repeat each one, so most are compiled as they are.
  if (!needsPreparing(schema, new Set())) return schema;
  const stripped = bodyParts.stripWriteOnlyProperties(schema);
  return stripped._tag === 'Some' ? (mapSchema(stripped.value, ({ $id: _id, ...node }) => node) as object) : undefined;
}

/**
 * Schema objects past this many once expanded (a dereferenced schema repeats every part it shares) are not
 * checked: ajv's code for them takes megabytes each (OpenAI's and DigitalOcean's largest answers), more than
 * a mock may spend to check bodies generated from those very schemas.
 */
export const MAX_CHECKED_NODES = 4000;
const SIZES = new WeakMap<object, number>();

/** Whether a schema is small enough to check (its size, counted to the largest bound, remembered per schema). */
function isCheckable(schema: object, maxNodes: number): boolean {
  let size = SIZES.get(schema);
  if (size === undefined) {
    size = expandedSize(schema, MAX_CHECKED_NODES);
    SIZES.set(schema, size);
  }
  return size <= maxNodes;
}

/** How many objects and arrays a schema holds once its shared parts are repeated, counting to `cap` + 1 at most. */
function expandedSize(root: object, cap: number): number {
  let count = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0 && count <= cap) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    count++;
    for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) stack.push(value);
  }
  return count;
}

/** Whether a schema holds a write-only property or an `$id` anywhere (each shared part is looked at once). */
function needsPreparing(node: unknown, seen: Set<object>): boolean {
  if (typeof node !== 'object' || node === null || seen.has(node)) return false;
  seen.add(node);
  if (!Array.isArray(node) && ('$id' in node || (node as { writeOnly?: unknown }).writeOnly === true)) return true;
  for (const value of Object.values(node)) if (needsPreparing(value, seen)) return true;
  return false;
}

function toBodyViolation(d: Diagnostic): BodyViolation {
  const segments = (d.path ?? []).slice(1);
  const message = d.message.replace(/^Response body (?:property \S+ )?/, '');
  const missing = /^must have required property '(.+)'$/.exec(message)?.[1];
  const pointer = [...segments, ...(missing ? [missing] : [])]
    .map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`)
    .join('');
  return { pointer, code: String(d.code ?? ''), message };
}

/** One way a received answer breaks the contract, placed as Prism's `sl-violations` header places it. */
export interface AnswerViolation {
  /** `['response', 'body', 'passes']`, `['response', 'header', 'x-rate-limit']`, `['response']` for the status. */
  location: string[];
  severity: 'Error' | 'Warning';
  code: string | number;
  message: string;
}

/**
 * Checks an answer a real server gave (the proxy's upstream) against the operation, as Prism's proxy does: an
 * undocumented status is a warning (Prism passes it); a media type, a header or a body that breaks the
 * documented response is an error. `body` is `undefined` when it is empty or was not read (too large).
 * Schemas are compiled once through `checks` (bounded): Prism's `validateOutput` compiles each answer's schema
 * anew, and its ajv keeps every one, so a proxy checking every answer with it would grow without end.
 * @example findAnswerViolations(checks, spec, { status: 200, headers: { 'content-type': 'application/json' },
 * body: {} })
 * // [{ location: ['response', 'body'], severity: 'Error', code: 'required',
 * //    message: "must have required property 'title'" }]
 */
export function findAnswerViolations(
  checks: SchemaChecks,
  spec: IHttpOperation,
  response: ReceivedResponse,
): AnswerViolation[] {
  let table = TABLES.get(spec.responses);
  if (!table) TABLES.set(spec.responses, (table = compileResponses(spec.responses)));
  const documented = table.lookup(response.status);
  if (!documented) {
    const codes = spec.responses.map((r) => r.code).join(', ');
    const message = `status ${response.status} is not documented (documented: ${codes})`;
    return [{ location: ['response'], severity: 'Warning', code: 'status', message }];
  }
  const found: AnswerViolation[] = [];
  const bundle = bundleOf(spec);
  for (const header of documented.headers ?? []) {
    const value = response.headers[header.name.toLowerCase()];
    const location = ['response', 'header', header.name];
    if (value === undefined) {
      if (header.required) found.push({ location, severity: 'Error', code: 'required', message: 'is required' });
      continue;
    }
    if (!header.schema) continue;
    for (const d of checks.run(header.schema as object, bundle, headerValue(value, header.schema as object)))
      found.push({
        location,
        severity: 'Error',
        code: d.code ?? '',
        message: d.message.replace(/^Response body /, ''),
      });
  }
  const contents = documented.contents ?? [];
  const type = response.headers['content-type'];
  if (contents.length === 0 || response.body === undefined) return found;
  const content = type ? contentFor(type, contents) : undefined;
  if (!content) {
    const listed = contents.map((c) => c.mediaType).join(', ');
    const message = `${type ? `media type "${type}"` : 'no Content-Type'} is not documented for ${response.status} (documented: ${listed})`;
    found.push({ location: ['response', 'header', 'content-type'], severity: 'Error', code: 'mediaType', message });
    return found;
  }
  for (const v of findContentViolations(checks, spec, content, response.body)) found.push(bodyViolation(v));
  return found;
}

/** A body's violation placed as Prism's `sl-violations` places it: a missing property at the object lacking it. */
export function bodyViolation(v: BodyViolation): AnswerViolation {
  return {
    location: ['response', 'body', ...placed(v.pointer, v.code)],
    severity: 'Error',
    code: v.code,
    message: v.message,
  };
}

/**
 * A JSON pointer's segments as Prism's `sl-violations` header places a violation: a missing property (`required`)
 * at the object that lacks it.
 */
export function placed(pointer: string, code: string | number): string[] {
  const segments = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (code === 'required') segments.pop();
  return segments;
}

/** A header's text as its schema reads it: a number, an integer or a boolean parsed when it is one. */
function headerValue(value: string, schema: object): unknown {
  const type = (schema as { type?: unknown }).type;
  const types = Array.isArray(type) ? type : [type];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value.trim()))
    return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}
