// The one reply layer: an answer as data, the problem answer, and the only code that writes one to Node.
import { validateHeaderName, validateHeaderValue, type ServerResponse } from 'node:http';
import type { Problem, Violation } from '../problems/problems.js';
import { toXml } from './to-xml.js';

/** What to send: status, headers, and a body when the response has one. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  contentType?: string;
  body?: unknown;
  /** The body already serialised, when it was kept from an earlier answer (a frozen record or page). */
  text?: string;
  /** The contract's example the body was copied from: checked against its schema once (see settle-answer.ts). */
  example?: object;
  /** How the request broke the contract, for the journal (a refusal's reasons). */
  violations?: Violation[];
  /** How many violations there were, when there were more than `violations` lists. */
  violationCount?: number;
}

/**
 * Wraps a problem as a reply; the journal records `violations` (the problem's own by default).
 * @example writeReply(res, problemReply(problem('notFound', 'No pass pas_1.'), {}, []))
 */
export function problemReply(
  problem: Problem,
  headers: Record<string, string> = {},
  violations: Violation[] = problem.violations ?? [],
): Reply {
  return { status: problem.status, headers, contentType: 'application/problem+json', body: problem, violations };
}

/**
 * Writes a reply with Node's own calls, in one `writeHead`: `first` (name, value, name, value...) are the
 * answer's own headers (a request id, `Vary`), then the reply's, its media type and length. The body is
 * serialised for its media type (see {@link bodyText}) unless `text` already is; Node leaves the body out of
 * an answer to HEAD by itself.
 */
export function writeReply(res: ServerResponse, reply: Reply, first: readonly string[] = []): void {
  const headers = isEmpty(reply.headers) ? [...first] : withoutNames(first, reply.headers);
  for (const name in reply.headers) if (!FRAMING.test(name)) headers.push(name, reply.headers[name]!);
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const type = reply.contentType ?? 'application/json';
  const text = reply.text ?? bodyText(reply) ?? '';
  headers.push('Content-Type', CHARSET.test(type) ? type : `${type}; charset=utf-8`);
  headers.push('Content-Length', String(Buffer.byteLength(text)));
  res.writeHead(reply.status, headers);
  res.end(text);
}

/**
 * A reply's body as the text it is sent as: JSON for JSON media types, XML for XML ones (see toXml), a
 * string as it is; any other value as JSON, never `[object Object]`. `undefined` when it has no body.
 */
export function bodyText(reply: Reply): string | undefined {
  const { body, contentType = 'application/json' } = reply;
  if (body === undefined) return undefined;
  if (JSON_TYPE.test(contentType)) return JSON.stringify(body);
  if (XML_TYPE.test(contentType)) return toXml(body);
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** Headers that say how the body is framed: only the length written here may say it (a second is an error). */
const FRAMING = /^(?:content-length|transfer-encoding)$/i;
const JSON_TYPE = /[/+]json\b/i;
/** `application/xml`, `text/xml` and `+xml` suffixes (`application/atom+xml`). */
export const XML_TYPE = /[/+]xml\b/i;
const CHARSET = /;\s*charset=/i;

/** `pairs` (name, value, ...) without the names `headers` sets (in any case): the reply's own value wins. */
function withoutNames(pairs: readonly string[], headers: Record<string, string>): string[] {
  const names = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const out: string[] = [];
  for (let i = 0; i < pairs.length; i += 2) if (!names.has(pairs[i]!.toLowerCase())) out.push(pairs[i]!, pairs[i + 1]!);
  return out;
}

/** A header name as HTTP allows it (RFC 9110 token): Node refuses a whole answer with any other name. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers Node can send: a value from the contract with a line break or a non-Latin-1 character is dropped. */
export function sendableHeaders(headers: Record<string, string>): Record<string, string> {
  // Most answers have no headers of their own: nothing to check, nothing to copy.
  if (isEmpty(headers)) return headers;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
      out[name] = value;
    } catch {
      // Not sendable: leaving it out keeps the answer and the journal truthful.
    }
  }
  return out;
}

function isEmpty(record: object): boolean {
  for (const _ in record) return false;
  return true;
}
