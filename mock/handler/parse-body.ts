// Reads the body of a request whose operation takes one, within the size limit; other bodies are ignored.
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { finished, type Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import iconv from 'iconv-lite';
import getRawBody from 'raw-body';
import type { Exchange } from './exchange.js';
import { loadExpress } from './express-module.js';
import { binaryBase64, requestBody, withFormText } from '../http/request-body.js';
import { TOO_DEEP, textNestsTooDeep } from '../http/body-depth.js';
import { UTF8, bodyError, bodyKind, parseForm, refuseCharset, type BodyKind } from '../http/body-kind.js';

/** A body parser of Express's (body-parser), called on Node's own request and response. */
type Parser = (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: (error?: unknown) => void) => void;

/** Reads a body into `ex.body`, then calls `done` (with the parser's error when it fails: see handle-error.ts). */
export type BodyReader = (ex: Exchange, done: (error?: unknown) => void) => void;

/** What a body was read into: the value the pipeline sees, and what the journal and the proxy keep. */
interface ReadBody {
  body: unknown;
  bytes: number;
  json?: Buffer;
  raw: Buffer;
  /** Raw bytes that are not UTF-8 text, as base64 for the journal (see ContractExchange.bodyBase64). */
  base64?: string;
}

/**
 * The body reader: JSON (any JSON value), forms, text and raw bytes, by the media type, within `limit` bytes
 * (decoded, when the body came compressed: gzip, deflate, br) and checked for UTF-8. It also notes the body's
 * size as received (`ex.bodyBytes`), its JSON bytes for the journal (`ex.bodyJson`) and its bytes for the proxy
 * (`ex.bodyRaw`). It reads Node's stream itself: Express's four parsers in turn cost a twentieth of a create.
 * Errors carry the `type` and `status` Express's parsers gave them (see http/to-problem.ts).
 */
export function createBodyReader(limit: number): BodyReader {
  return (ex, done) => {
    const req = ex.req as IncomingMessage & { body?: unknown };
    // A body already parsed (by the app this mock is mounted in) is taken as it is; no body is no body.
    if (req.body !== undefined || !hasBody(req) || req.readableEnded) {
      ex.body = requestBody(req.body);
      if (req.body instanceof Uint8Array) ex.bodyBase64 = base64OfBinary(req.body);
      return done();
    }
    readBody(req, limit, (error, read) => {
      if (error || !read) return done(error);
      ex.body = read.body;
      ex.bodyBytes = read.bytes;
      ex.bodyJson = read.json;
      ex.bodyRaw = read.raw;
      ex.bodyBase64 = read.base64;
      done();
    });
  };
}

/** Whether a request has a body: chunks, or a length (as Express's parsers tell). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || !isNaN(req.headers['content-length'] as unknown as number);
}

function readBody(req: IncomingMessage, limit: number, done: (error: unknown, read?: ReadBody) => void): void {
  const { kind, charset } = bodyKind(req.headers['content-type']);
  const refused = refuseCharset(kind, charset, (name) => iconv.encodingExists(name));
  if (refused) return done(refused);
  const encoding = (req.headers['content-encoding'] || 'identity').toLowerCase();
  const inflate = encoding === 'identity' ? undefined : decompressor(encoding);
  if (encoding !== 'identity' && !inflate)
    return done(bodyError(`unsupported content encoding "${encoding}"`, 415, 'encoding.unsupported', { encoding }));
  const stream: Readable = inflate ? req.pipe(inflate) : req;
  // Decoded, the body is counted against the limit as it is inflated: no length is known then.
  const length = inflate ? undefined : req.headers['content-length'];
  getRawBody(stream, { length, limit }, (error, buffer) => {
    if (inflate) {
      req.unpipe(inflate);
      inflate.on('error', () => undefined);
      inflate.destroy();
    }
    if (error) {
      // A corrupt compressed body is the client's: 400, as Express's parsers said.
      const failed = Object.assign(error, { status: (error as { status?: number }).status ?? 400 });
      // The rest of the request is read off before the answer, so the connection can carry the next one.
      req.resume();
      return void finished(req, () => done(failed));
    }
    if (inflate) req.resume();
    let read: ReadBody;
    try {
      read = parsed(kind, charset, buffer);
    } catch (failure) {
      return done(failure);
    }
    done(undefined, read);
  });
}

/** A stream that decodes a Content-Encoding (zstd where Node has it), or nothing for one the mock cannot. */
function decompressor(encoding: string): Transform | undefined {
  if (encoding === 'gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  const zstd = (zlib as { createZstdDecompress?: () => Transform }).createZstdDecompress;
  if (encoding === 'zstd' && zstd) return zstd();
  return undefined;
}

/**
 * A body read whole, parsed by its kind: text (JSON, forms, text) must be valid UTF-8 when it says it is UTF-8
 * (decoding would otherwise turn bad bytes into U+FFFD silently); JSON (UTF-8: see refuseCharset) is refused
 * before it is parsed when it nests too deep; an empty JSON or form body is no body (a required body is missing,
 * not empty).
 * @throws the errors of Express's parsers: `encoding.invalid`, `entity.too.deep`,
 * `entity.parse.failed`, `parameters.too.many`
 */
function parsed(kind: BodyKind, charset: string, buffer: Buffer): ReadBody {
  if (kind === 'raw') return readOf(buffer, requestBody(buffer), undefined, base64OfBinary(buffer));
  if (UTF8.test(charset) && !isUtf8(buffer)) throw bodyError('The body is not valid UTF-8', 400, 'encoding.invalid');
  if (kind === 'json') {
    // Its charset is UTF-8: refuseCharset refused any other before the body was read.
    if (textNestsTooDeep(buffer)) throw bodyError(TOO_DEEP, 400, 'entity.too.deep');
    if (buffer.length === 0) return readOf(buffer, undefined);
    return readOf(buffer, parseJson(textOf(buffer, charset)), buffer);
  }
  if (kind === 'text') return readOf(buffer, requestBody(textOf(buffer, charset)));
  // The text the fields are read from is the form's text everywhere (the journal keeps it as sent): in its charset.
  const form = textOf(buffer, charset);
  if (form === '') return readOf(buffer, undefined);
  return readOf(buffer, withFormText(parseForm(form, charset), form));
}

/** Raw bytes that are not UTF-8 text as base64 (see binaryBase64), with Buffer's encoder. */
export function base64OfBinary(bytes: Uint8Array): string | undefined {
  return binaryBase64(bytes, (b) => Buffer.from(b.buffer, b.byteOffset, b.length).toString('base64'));
}

/** A body read, as one literal: `{ ...read, body }` would take V8's slow path on Node 20 (about 1.7 µs a create). */
function readOf(buffer: Buffer, body: unknown, json?: Buffer, base64?: string): ReadBody {
  return { bytes: buffer.length, raw: buffer, body, json, base64 };
}

/** The text of a body in its charset, a byte order mark left out (as Express's parsers read it). */
function textOf(buffer: Buffer, charset: string): string {
  return UTF8.test(charset) ? buffer.toString('utf8').replace(/^\uFEFF/, '') : iconv.decode(buffer, charset);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw Object.assign(error as Error, { status: 400, type: 'entity.parse.failed' });
  }
}

/**
 * The admin API's reader: any JSON value within `limit` bytes; a body of another media type is not read, and
 * leaves `ex.body` undefined. `null` or `5` is read as what it is, for the endpoint to refuse as of the wrong
 * type (saying the object it expects): body-parser's strict mode called it not valid JSON.
 */
export function createJsonReader(limit: number): BodyReader {
  // Made on the first admin body: Express is loaded only when something needs it (see express-module.ts).
  let parse: Parser | undefined;
  return (ex, done) => {
    const req = ex.req as IncomingMessage & { body?: unknown };
    if (req.body !== undefined) {
      ex.body = req.body;
      return done();
    }
    // No body (a GET): nothing to parse, as the parser says itself, and no reason to load Express.
    if (!hasBody(req)) {
      ex.body = undefined;
      return done();
    }
    parse ??= loadExpress().json({ limit, strict: false, verify: refuseDeep }) as unknown as Parser;
    parse(req, ex.res, (error?: unknown) => {
      ex.body = req.body;
      done(error);
    });
  };
}

/**
 * Refuses JSON that nests too deep, read from its bytes. JSON is UTF-8 (RFC 8259): another charset is
 * refused (415) rather than read, since the scan reads UTF-8 bytes.
 */
function refuseDeep(_req: unknown, _res: unknown, buffer: Buffer, encoding: string): void {
  if (!UTF8.test(encoding)) {
    const message = `unsupported charset "${encoding}"`;
    throw Object.assign(new Error(message), { status: 415, type: 'charset.unsupported', charset: encoding });
  }
  if (textNestsTooDeep(buffer)) {
    throw Object.assign(new Error(TOO_DEEP), { status: 400, type: 'entity.too.deep' });
  }
}
