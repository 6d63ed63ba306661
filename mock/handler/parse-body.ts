// Reads the body of a request whose operation takes one, within the size limit; other bodies are ignored.
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type { Exchange } from './exchange.js';
import { requestBody, withFormText } from '../http/request-body.js';
import { TOO_DEEP, textNestsTooDeep } from '../http/body-depth.js';

/** A body parser of Express's (body-parser), called on Node's own request and response. */
type Parser = (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: (error?: unknown) => void) => void;

/** Reads a body into `ex.body`, then calls `done` (with the parser's error when it fails: see handle-error.ts). */
export type BodyReader = (ex: Exchange, done: (error?: unknown) => void) => void;

/** Where a parser leaves the size of the body it read, for the journal. */
const RECEIVED = Symbol('bytes received');
/** Where the JSON parser leaves the body's bytes. */
const JSON_BYTES = Symbol('JSON bytes');
/** Where every parser leaves the body's bytes as read (decoded, when it came compressed): the proxy forwards them. */
const RAW = Symbol('raw bytes');
/** Where the form parser leaves the body's text. */
const FORM_TEXT = Symbol('form text');
const UTF8 = /^utf-?8$/i;

type ParsedRequest = IncomingMessage & {
  body?: unknown;
  [RECEIVED]?: number;
  [RAW]?: Buffer;
  [JSON_BYTES]?: Buffer;
  [FORM_TEXT]?: string;
};

/**
 * The body reader: JSON, forms, text and raw bytes, in turn, each within `limit` bytes and checked for UTF-8.
 * It also notes the body's size as received (`ex.bodyBytes`).
 */
export function createBodyReader(limit: number): BodyReader {
  const parsers = [
    express.json({ limit, strict: false, type: ['application/json', 'application/*+json'], verify: readJson }),
    express.urlencoded({ limit, extended: false, verify: readForm }),
    express.text({ limit, type: 'text/*', verify: readText }),
    express.raw({ limit, type: () => true, verify: countBytes }),
  ] as unknown as Parser[];
  return (ex, done) => {
    const req = ex.req as ParsedRequest;
    const run = (i: number): void => {
      // A body already parsed (by the app this mock is mounted in) is taken as it is.
      if (i === parsers.length || req.body !== undefined) {
        const form = req[FORM_TEXT];
        // An empty JSON body is no body (the JSON parser makes it `{}`): a required body is missing, not empty.
        const empty = req[JSON_BYTES]?.length === 0 || form === '';
        ex.body = empty ? undefined : form === undefined ? requestBody(req.body) : withFormText(req.body, form);
        ex.bodyBytes = req[RECEIVED];
        ex.bodyJson = empty ? undefined : req[JSON_BYTES];
        ex.bodyRaw = req[RAW];
        return done();
      }
      parsers[i]!(req, ex.res, (error?: unknown) => (error ? done(error) : run(i + 1)));
    };
    run(0);
  };
}

/**
 * The admin API's reader: strict JSON (an object or array) within `limit` bytes; a body of another media
 * type is not read, and leaves `ex.body` undefined.
 */
export function createJsonReader(limit: number): BodyReader {
  const parse = express.json({ limit, strict: true, verify: refuseDeep }) as unknown as Parser;
  return (ex, done) => {
    const req = ex.req as IncomingMessage & { body?: unknown };
    if (req.body !== undefined) {
      ex.body = req.body;
      return done();
    }
    parse(req, ex.res, (error?: unknown) => {
      ex.body = req.body;
      done(error);
    });
  };
}

function countBytes(req: ParsedRequest, _res: unknown, buffer: Buffer): void {
  req[RECEIVED] = buffer.length;
  req[RAW] = buffer;
}

/** JSON bodies are text, and are refused before they are parsed when they nest too deep. */
function readJson(req: ParsedRequest, res: unknown, buffer: Buffer, encoding: string): void {
  readText(req, res, buffer, encoding);
  refuseDeep(req, res, buffer, encoding);
  req[JSON_BYTES] = buffer;
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

/** Forms are text; their text is kept for Prism, which validates a form from it (see request-body.ts). */
function readForm(req: ParsedRequest, res: unknown, buffer: Buffer, encoding: string): void {
  readText(req, res, buffer, encoding);
  req[FORM_TEXT] = buffer.toString();
}

/** Text bodies must be valid UTF-8: decoding would otherwise turn bad bytes into U+FFFD silently. */
function readText(req: ParsedRequest, _res: unknown, buffer: Buffer, encoding: string): void {
  req[RECEIVED] = buffer.length;
  req[RAW] = buffer;
  if (UTF8.test(encoding) && !isUtf8(buffer)) {
    throw Object.assign(new Error('The body is not valid UTF-8'), { status: 400, type: 'encoding.invalid' });
  }
}
