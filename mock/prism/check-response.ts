// Checks responses and records against an operation's documented responses, with Prism's validator.
import type { IHttpOperation, IMediaTypeContent } from '@stoplight/types';
import { compileResponses } from '../spec/response-table.js';
import { mapSchema } from '../spec/schema-facts.js';
import { bodyParts, validators, type Diagnostic } from './prism-modules.js';

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
  if (!compileResponses(spec.responses).lookup(response.status)) {
    return [
      `status ${response.status} is not documented (documented: ${spec.responses.map((r) => r.code).join(', ')})`,
    ];
  }
  const element = { statusCode: response.status, headers: response.headers, body: response.body };
  const result = validators.validateOutput({ resource: spec, element });
  if (result._tag === 'Right') return [];
  return result.left.filter((d) => d.severity === 0).map((d) => describeOutputDiagnostic(d, response.status));
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
  const table = compileResponses(spec.responses);
  const response = status === undefined ? table.success : table.lookup(status);
  if (!response) return [`status ${status} is not documented`];
  const mediaType = response.contents?.find((c) => /[/+]json\b/i.test(c.mediaType))?.mediaType;
  if (!mediaType) return body === undefined ? [] : [`the ${response.code} response has no JSON body in the contract`];
  const received = { status: status ?? table.successStatus, headers: { 'content-type': mediaType }, body };
  return checkResponse(spec, received).map((m) => m.replace(/^body /, ''));
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
 * @example findBodyViolations(spec, 200, 'application/json', 123) // [{ pointer: '', code: 'type', message: 'must be object' }]
 */
export function findBodyViolations(
  spec: IHttpOperation,
  status: number,
  mediaType: string | undefined,
  body: unknown,
): BodyViolation[] {
  if (body === undefined) return [];
  let table = TABLES.get(spec.responses);
  if (!table) TABLES.set(spec.responses, (table = compileResponses(spec.responses)));
  const contents = table.lookup(status)?.contents ?? [];
  const content =
    (mediaType && contents.find((c) => bodyParts.wildcardMediaTypeMatch(mediaType, c.mediaType))) || contents[0];
  return content ? findContentViolations(spec, content, body) : [];
}

/**
 * Checks a body against one documented content of an operation's responses (see {@link findBodyViolations}).
 * @example findContentViolations(spec, spec.responses[0].contents[0], example.value)
 */
export function findContentViolations(
  spec: IHttpOperation,
  content: IMediaTypeContent,
  body: unknown,
): BodyViolation[] {
  if (!content.schema || FORM.test(content.mediaType)) return [];
  const schema = preparedOutput(content.schema);
  if (!schema) return [];
  const bundle = (spec as { __bundled__?: unknown }).__bundled__;
  const found = bodyParts.validateAgainstSchema(body, schema, false, OUTPUT, 'body', bundle);
  return found._tag === 'Some' ? found.value.filter((d) => d.severity === 0).map(toBodyViolation) : [];
}

const OUTPUT = 1;
const TABLES = new WeakMap<object, ReturnType<typeof compileResponses>>();
const FORM = /^(?:application\/x-www-form-urlencoded|multipart\/form-data)\b/i;
const PREPARED = new WeakMap<object, object | undefined>();

/** The schema as Prism checks an answer against it, made once per schema object (the contract's own). */
function preparedOutput(schema: object): object | undefined {
  if (PREPARED.has(schema)) return PREPARED.get(schema);
  const stripped = bodyParts.stripWriteOnlyProperties(schema);
  // Without `$id`: Prism compiles into one ajv for the process, where a second copy of a contract would clash.
  const ready =
    stripped._tag === 'Some' ? (mapSchema(stripped.value, ({ $id: _id, ...node }) => node) as object) : undefined;
  PREPARED.set(schema, ready);
  return ready;
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
