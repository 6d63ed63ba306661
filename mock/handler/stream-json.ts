// Reads a large JSON body (a whole state, a HAR) as it arrives, a piece at a time: parsing 8 MiB at once holds
// the event loop for a fifth of a second, and a HAR with too many entries is refused at the first one too many.
import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { JSONParser } from '@streamparser/json';
import type { Exchange } from './exchange.js';
import type { BodyReader } from './parse-body.js';
import { depthScanner, TOO_DEEP } from '../http/body-depth.js';

/** Values at some paths counted as they arrive, and refused (413) past `max`. */
export interface ValueCount {
  /** JSONPaths of @streamparser/json's form, e.g. `$.log.entries.*`. */
  paths: string[];
  max: number;
  /** The problem's words, when there are more. */
  tooMany: string;
  /** Which of the values found count, by their key (an array's index is a number). @default all */
  counts?: (key: string | number | undefined) => boolean;
}

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** An error of the body parsers' form (see to-problem.ts). */
const failure = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

/**
 * The admin API's reader for large bodies: any JSON value within `limit` bytes after decompression, parsed
 * piece by piece as it arrives; a body of another media type is not read (`ex.body` stays undefined), as with
 * {@link createJsonReader}. With `count`, the values at its path are counted as they
 * arrive, and the body is refused at the first one past the limit, the rest unread.
 */
export function createStreamingJsonReader(limit: number, count?: ValueCount): BodyReader {
  return (ex, done) => {
    const req = ex.req as IncomingMessage & { body?: unknown };
    if (req.body !== undefined) {
      ex.body = req.body;
      return done();
    }
    const [media = '', ...params] = (req.headers['content-type'] ?? '').split(';');
    if (media.trim().toLowerCase() !== 'application/json') return done();
    const charset = params.map((p) => /^\s*charset\s*=\s*"?([^"]*)"?\s*$/i.exec(p)?.[1]).find(Boolean);
    if (charset && !/^utf-?8$/i.test(charset))
      return done(failure(`unsupported charset "${charset}"`, { status: 415, type: 'charset.unsupported', charset }));
    const declared = Number(req.headers['content-length']);
    if (declared > limit) return refuseUnread(req, done, tooLarge(declared));
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    const decoder = DECODERS[encoding];
    if (encoding !== 'identity' && !decoder) {
      return refuseUnread(
        req,
        done,
        failure(`unsupported content encoding "${encoding}"`, {
          status: 415,
          type: 'encoding.unsupported',
          encoding,
        }),
      );
    }
    readPieces(ex, decoder ? req.pipe(decoder()) : req, limit, count, done);
  };
}

/** Feeds the body to the parser as it arrives; `done` is called once, with the first failure or none. */
function readPieces(
  ex: Exchange,
  source: Readable,
  limit: number,
  count: ValueCount | undefined,
  done: (error?: unknown) => void,
): void {
  const req = ex.req;
  const parser = new JSONParser({ paths: ['$', ...(count?.paths ?? [])] });
  const counts = count?.counts ?? (() => true);
  const tooDeep = depthScanner();
  let received = 0;
  let counted = 0;
  let root: unknown;
  let settled = false;
  const finish = (error?: unknown) => {
    if (settled) return;
    settled = true;
    source.off('data', onData).off('end', onEnd).off('error', onError);
    req.off('close', onClose);
    // What is left of a refused body is let through unread (the request timeout bounds how long).
    if (error) source.resume();
    done(error);
  };
  parser.onValue = ({ value, key, stack }) => {
    // The rest of a piece is still parsed after a refusal: nothing more is made of it.
    if (settled) return;
    if (stack.length === 0) root = value;
    else if (counts(key) && ++counted > count!.max)
      finish(failure(count!.tooMany, { status: 413, type: 'entity.too.many' }));
  };
  parser.onError = (error) => {
    if (!settled) finish(failure(error.message, { status: 400, type: 'entity.parse.failed' }));
  };
  const onData = (piece: Buffer) => {
    received += piece.length;
    if (received > limit) return finish(tooLarge(received));
    if (tooDeep(piece)) return finish(failure(TOO_DEEP, { status: 400, type: 'entity.too.deep' }));
    if (parser.isEnded && /\S/.test(piece.toString())) {
      return finish(failure('unexpected text after the JSON value', { status: 400, type: 'entity.parse.failed' }));
    }
    if (!parser.isEnded) parser.write(piece);
  };
  const onEnd = () => {
    if (settled) return;
    if (received === 0)
      root = {}; // as body-parser: an empty JSON body is `{}`
    else if (!parser.isEnded) {
      // A number ends only here (`5` may go on); a body cut short is reported (onError), and settles it.
      parser.end();
      if (settled) return;
    }
    // Any JSON value: the endpoint refuses one of the wrong type, saying what it expects.
    ex.body = root;
    finish();
  };
  const onError = (error: Error) =>
    finish(failure(`the compressed body is corrupt: ${error.message}`, { status: 400, type: 'encoding.corrupt' }));
  const onClose = () => {
    if (!req.complete) finish(failure('request aborted', { status: 400, type: 'request.aborted' }));
  };
  source.on('data', onData).on('end', onEnd).on('error', onError);
  req.on('close', onClose);
}

function tooLarge(length: number): Error {
  return failure('request entity too large', { status: 413, type: 'entity.too.large', length });
}

/** Refuses a body before reading it: the answer goes out now, and the body is let through unread. */
function refuseUnread(req: IncomingMessage, done: (error?: unknown) => void, error: Error): void {
  req.resume();
  done(error);
}
