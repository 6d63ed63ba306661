// The one reply layer: an answer as data, the problem answer, its body text and the headers it may carry.
import type { Problem, Violation } from './problems.js';
import { toXml } from './to-xml.js';
import { jsonText } from '../lib/frozen-json.js';

/** What to send: status, headers, and a body when the response has one. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  contentType?: string;
  body?: unknown;
  /** The body already serialised, when it was kept from an earlier answer (a frozen record or page). */
  text?: string;
  /**
   * A kept text and, once a writer has sent it, its UTF-8 bytes: the writer sends the bytes (and their length)
   * when `wire.text` is the text it sends, instead of measuring and encoding the same text on every answer.
   */
  wire?: WireText;
  /** The contract's example the body was copied from: checked against its schema once (see respond/check-answer.ts). */
  example?: object;
  /** How the request broke the contract, for the journal (a refusal's reasons). */
  violations?: Violation[];
  /** How many violations there were, when there were more than `violations` lists. */
  violationCount?: number;
  /**
   * A body too large to hold as one text (a whole journal as HAR, a whole state): its text made piece by piece,
   * as the reader takes it. Only the admin API answers so; `body` is then left out.
   */
  chunks?: Iterable<string>;
}

/**
 * A text kept to be sent again, and its UTF-8 bytes once a writer that sends bytes (the server's) has made them:
 * MSW's handlers send the text, and never pay for bytes.
 */
export interface WireText {
  readonly text: string;
  bytes?: Uint8Array;
}

/**
 * Wraps a problem as a reply; the journal records `violations` (the problem's own by default).
 * @example problemReply(problem('notFound', 'No pass pas_1.'), {}, []).status // 404
 */
export function problemReply(
  problem: Problem,
  headers: Record<string, string> = {},
  violations: Violation[] = problem.violations ?? [],
): Reply {
  return { status: problem.status, headers, contentType: 'application/problem+json', body: problem, violations };
}

/**
 * A reply's body as the text it is sent as: JSON for JSON media types, XML for XML ones (see toXml), a
 * string as it is; any other value as JSON, never `[object Object]`. `undefined` when it has no body.
 */
export function bodyText(reply: Reply): string | undefined {
  const { body, contentType = 'application/json' } = reply;
  if (body === undefined) return undefined;
  if (JSON_TYPE.test(contentType)) return jsonText(body);
  if (XML_TYPE.test(contentType)) return toXml(body);
  return typeof body === 'string' ? body : jsonText(body);
}

/** Headers that say how the body is framed: only the length the writer sets may say it (a second is an error). */
export const FRAMING = /^(?:content-length|transfer-encoding)$/i;
const JSON_TYPE = /[/+]json\b/i;
/** `application/xml`, `text/xml` and `+xml` suffixes (`application/atom+xml`). */
export const XML_TYPE = /[/+]xml\b/i;

/** A header name as HTTP allows it (RFC 9110 token): Node refuses a whole answer with any other name. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A character HTTP forbids in a header value (RFC 9110 field-value), as Node checks it before sending. */
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** Whether Node can send a header: a token name and a value without line breaks or non-Latin-1 characters. */
export function isSendableHeader(name: string, value: unknown): boolean {
  return HEADER_NAME.test(name) && typeof value === 'string' && !INVALID_VALUE.test(value);
}

/** Headers Node can send: a value from the contract with a line break or a non-Latin-1 character is dropped. */
export function sendableHeaders(headers: Record<string, string>): Record<string, string> {
  // Most answers have no headers of their own: nothing to check, nothing to copy.
  if (isEmpty(headers)) return headers;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    // Not sendable: leaving it out keeps the answer and the journal truthful.
    if (isSendableHeader(name, value)) out[name] = value;
  }
  return out;
}

export function isEmpty(record: object): boolean {
  for (const _ in record) return false;
  return true;
}
