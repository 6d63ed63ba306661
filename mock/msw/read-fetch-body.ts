// Reads the body of a Fetch API request by the rules the Node listener reads one by (http/body-kind.ts): JSON,
// forms, text, else the bytes as UTF-8 text, within the size limit (decoded, when it came compressed), its charset
// checked, JSON checked for UTF-8 and depth first. Its errors carry body-parser's `type`, so the engine answers
// them with the same problems (http/to-problem.ts).
import { TOO_DEEP, textNestsTooDeep } from '../http/body-depth.js';
import { UTF8, bodyError, bodyKind, parseForm, refuseCharset } from '../http/body-kind.js';
import { binaryBase64, requestBody, withFormText } from '../http/request-body.js';
import type { FetchExchange } from './fetch-exchange.js';

/** The Content-Encodings a Fetch runtime decodes (DecompressionStream): gzip and deflate. */
const DECODED = new Set(['gzip', 'deflate']);

/** Reads `request`'s body into `ex` (body, bodyBytes, JSON text); throws as body-parser does on a bad one. */
export async function readFetchBody(request: Request, ex: FetchExchange, limit: number): Promise<void> {
  const encoding = (request.headers.get('content-encoding') || 'identity').toLowerCase();
  if (encoding !== 'identity' && !DECODED.has(encoding))
    throw bodyError(`unsupported content encoding "${encoding}"`, 415, 'encoding.unsupported', { encoding });
  const { kind, charset } = bodyKind(request.headers.get('content-type') ?? undefined);
  const refused = refuseCharset(kind, charset, decodes);
  if (refused) throw refused;
  const announced = Number(request.headers.get('content-length') ?? NaN);
  if (encoding === 'identity' && announced > limit) throw tooLarge(announced);
  const bytes = await readAtMost(request, encoding, limit);
  ex.bodyBytes = bytes.length;
  // What the client sent said how long it was (fetch sets it on the wire): Prism's checks read it.
  if (ex.requestHeaders['content-length'] === undefined && bytes.length > 0)
    ex.requestHeaders['content-length'] = String(bytes.length);
  if (kind === 'raw') {
    // Any other media type, or none: the bytes as UTF-8 text, a byte order mark kept, as the server reads them.
    ex.body = requestBody(bytes);
    ex.bodyBase64 = binaryBase64(bytes);
    return;
  }
  const text = textOf(bytes, charset);
  if (kind === 'json') return readJson(bytes, text, ex);
  if (kind === 'text') {
    ex.body = text === '' ? undefined : text;
    return;
  }
  if (text === '') return;
  ex.body = withFormText(parseForm(text, charset), text);
}

/** The body's bytes, decoded when compressed, refused (413) once past `limit`: the limit holds for the decoded size. */
async function readAtMost(request: Request, encoding: string, limit: number): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array();
  const decoded =
    encoding === 'identity'
      ? request.body
      : request.body.pipeThrough(new DecompressionStream(encoding as 'gzip' | 'deflate'));
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = decoded.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) {
        void reader.cancel().catch(() => undefined);
        throw tooLarge(size);
      }
      chunks.push(value);
    }
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') throw error;
    // A corrupt compressed body is the client's: 400, with the decoder's message, as on Node (not bad UTF-8). Some
    // runtimes' decoders give none (Node 22's DecompressionStream): then ours.
    const said = error instanceof Error ? error.message : String(error);
    throw bodyError(said || `the ${encoding} data is corrupt or cut short`, 400, 'encoding.corrupt');
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** JSON: depth is checked on the bytes before parsing; an empty body is no body. */
function readJson(bytes: Uint8Array, text: string, ex: FetchExchange): void {
  if (text === '') return;
  if (textNestsTooDeep(bytes)) throw bodyError(TOO_DEEP, 400, 'entity.too.deep');
  ex.bodyDepthChecked = true;
  ex.jsonText = text;
  try {
    ex.body = JSON.parse(text);
  } catch (error) {
    throw bodyError((error as Error).message, 400, 'entity.parse.failed');
  }
}

/** The text of a body in its charset, a byte order mark left out; bad UTF-8 is refused (400), never U+FFFD. */
function textOf(bytes: Uint8Array, charset: string): string {
  if (!UTF8.test(charset)) return new TextDecoder(charset).decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw bodyError('The body is not valid UTF-8', 400, 'encoding.invalid');
  }
}

/** Whether the runtime's TextDecoder knows a charset label. */
function decodes(charset: string): boolean {
  try {
    new TextDecoder(charset);
    return true;
  } catch {
    return false;
  }
}

function tooLarge(length: number): Error {
  return bodyError('request entity too large', 413, 'entity.too.large', { length });
}
