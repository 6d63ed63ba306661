// Checks responses and records against an operation's documented responses, with Prism's validator.
import type { IHttpOperation } from '@stoplight/types';
import { compileResponses } from '../spec/response-table.js';
import { validators, type Diagnostic } from './prism-modules.js';

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
