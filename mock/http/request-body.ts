// The parsed request body as the rest of the pipeline sees it.
import { toBase64, utf8Text } from '../lib/bytes.js';

/** Where a parsed form body keeps the text it was parsed from (not enumerable: the journal and state never see it). */
const FORM_TEXT = Symbol('form text');

/**
 * The body the parsers left on the request: JSON values and form fields as parsed, raw bytes as UTF-8 text,
 * and `undefined` when nothing was sent (parsers leave an empty Buffer, a Uint8Array for `Content-Length: 0`).
 */
export function requestBody(body: unknown): unknown {
  if (body instanceof Uint8Array) return body.length === 0 ? undefined : utf8Text(body);
  if (typeof body === 'string' && body.length === 0) return undefined;
  return body;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A raw body's bytes as base64 when they are not UTF-8 text (an image, a file), for the journal (see
 * ContractExchange.bodyBase64); `undefined` for text, and for no bytes. `encode`: a faster encoder of the
 * platform's (Node's Buffer).
 */
export function binaryBase64(bytes: Uint8Array, encode = toBase64): string | undefined {
  if (bytes.length === 0) return undefined;
  try {
    STRICT_UTF8.decode(bytes);
    return undefined;
  } catch {
    return encode(bytes);
  }
}

/**
 * Keeps a form's text on its parsed fields: Prism validates a form from its text (each value as sent,
 * so `allowReserved` can be checked), the rest of the mock reads the fields.
 */
export function withFormText<T>(fields: T, text: string): T {
  if (typeof fields === 'object' && fields !== null) Object.defineProperty(fields, FORM_TEXT, { value: text });
  return fields;
}

/** The text a form body was parsed from, when the mock parsed it. */
export function formText(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null ? (body as { [FORM_TEXT]?: string })[FORM_TEXT] : undefined;
}

/**
 * Methods whose content has no defined meaning (RFC 9110): a body sent with them to an operation that
 * declares none is ignored, as servers do; with any other method it is refused (415), as Prism does.
 */
const IGNORES_BODY = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE']);

/** Whether a body sent with `method` to an operation that declares none is ignored (GET, HEAD, DELETE...). */
export function ignoresBody(method: string): boolean {
  return IGNORES_BODY.has(method);
}

/** Whether a request says it carries a body, whatever its method (a GET with a body the proxy must refuse). */
export function carriesBody(req: { headers: Record<string, string | string[] | undefined> }): boolean {
  const length = req.headers['content-length'];
  if (typeof length === 'string') return length !== '0' && /[1-9]/.test(length);
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * Whether a request comes with a body the mock must look at for an operation that declares none: a length
 * above zero, or chunks, with a method whose content means something.
 */
export function sendsUndeclaredBody(req: {
  method?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}): boolean {
  if (IGNORES_BODY.has(req.method ?? 'GET')) return false;
  return carriesBody(req);
}
