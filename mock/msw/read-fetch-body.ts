// Reads the body of a Fetch API request as the Node listener's parsers read one (handler/parse-body.ts): JSON,
// forms, text, else raw bytes as UTF-8 text, within the size limit, JSON checked for UTF-8 and depth first. Its
// errors carry body-parser's `type`, so the engine answers them with the same problems (http/to-problem.ts).
import { TOO_DEEP, textNestsTooDeep } from '../http/body-depth.js';
import { withFormText } from '../http/request-body.js';
import type { FetchExchange } from './fetch-exchange.js';

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json$/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded$/i;
const TEXT_TYPE = /^text\//i;
const UTF8 = /^utf-?8$/i;

/** Reads `request`'s body into `ex` (body, bodyBytes, JSON text); throws as body-parser does on a bad one. */
export async function readFetchBody(request: Request, ex: FetchExchange, limit: number): Promise<void> {
  const announced = Number(request.headers.get('content-length') ?? NaN);
  if (announced > limit) throw httpError(413, 'entity.too.large', 'request entity too large', { length: announced });
  // In-process, the body is already in memory (the app made it): it is bounded once read.
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.length > limit)
    throw httpError(413, 'entity.too.large', 'request entity too large', { length: bytes.length });
  ex.bodyBytes = bytes.length;
  // What the client sent said how long it was (fetch sets it on the wire): Prism's checks read it.
  if (ex.requestHeaders['content-length'] === undefined && bytes.length > 0)
    ex.requestHeaders['content-length'] = String(bytes.length);
  const [type = '', ...params] = (request.headers.get('content-type') ?? '').split(';');
  const mediaType = type.trim();
  const charset = params
    .map((p) => p.trim().split('='))
    .find(([name]) => name?.toLowerCase() === 'charset')?.[1]
    ?.replace(/^"|"$/g, '');
  if (JSON_TYPE.test(mediaType)) return readJson(bytes, charset, ex);
  if (FORM_TYPE.test(mediaType)) {
    const text = utf8(bytes);
    if (text === '') return;
    const fields = Object.create(null) as Record<string, string | string[]>;
    for (const [name, value] of new URLSearchParams(text)) {
      const known = fields[name];
      fields[name] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
    }
    ex.body = withFormText(fields, text);
    return;
  }
  if (TEXT_TYPE.test(mediaType)) {
    const text = utf8(bytes);
    ex.body = text === '' ? undefined : text;
    return;
  }
  // Any other media type, or none: the bytes as UTF-8 text (as requestBody makes of a raw body).
  ex.body = bytes.length === 0 ? undefined : new TextDecoder().decode(bytes);
}

/** JSON is UTF-8 (RFC 8259): another charset is refused (415); depth is checked on the bytes before parsing. */
function readJson(bytes: Uint8Array, charset: string | undefined, ex: FetchExchange): void {
  if (charset !== undefined && !UTF8.test(charset))
    throw httpError(415, 'charset.unsupported', `unsupported charset "${charset.toUpperCase()}"`, { charset });
  const text = utf8(bytes);
  if (text === '') return;
  if (textNestsTooDeep(bytes)) throw httpError(400, 'entity.too.deep', TOO_DEEP);
  ex.bodyDepthChecked = true;
  ex.jsonText = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    ex.body = JSON.parse(ex.jsonText);
  } catch (error) {
    throw httpError(400, 'entity.parse.failed', (error as Error).message);
  }
}

/** The bytes as UTF-8 text; bad bytes are refused (400), never turned into U+FFFD. */
function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw httpError(400, 'encoding.invalid', 'The body is not valid UTF-8');
  }
}

function httpError(status: number, type: string, message: string, extra: object = {}): Error {
  return Object.assign(new Error(message), { status, type, ...extra });
}
