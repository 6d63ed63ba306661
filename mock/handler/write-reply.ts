// The only code that writes a reply to Node: one writeHead with every header, then the body.
import type { ServerResponse } from 'node:http';
import { bodyText, FRAMING, isEmpty, type Reply } from '../http/reply.js';
import { BoundedMemo } from '../lib/bounded-memo.js';

const CHARSET = /;\s*charset=/i;
/**
 * Content-Type values given their charset, by media type: a value joined anew for every reply is copied whole
 * by each of Node's checks of the header (about 2,000 instructions a reply), one kept is copied once.
 */
const WITH_CHARSET = new BoundedMemo<string>(256, 1024);
/** Milliseconds a streamed reply is written for before other requests get their turn. */
const SLICE_MS = 5;

/**
 * Writes a reply with Node's own calls, in one `writeHead`: `first` (name, value, name, value...) are the
 * answer's own headers (a request id, `Vary`), then the reply's, its media type and length. The body is
 * serialised for its media type (see {@link bodyText}) unless `text` already is; Node leaves the body out of
 * an answer to HEAD by itself.
 */
export function writeReply(res: ServerResponse, reply: Reply, first: readonly string[] = []): void {
  const headers = isEmpty(reply.headers) ? [...first] : withoutNames(first, reply.headers);
  for (const name in reply.headers) if (!FRAMING.test(name)) headers.push(name, reply.headers[name]!);
  if (reply.chunks) return writeChunks(res, reply, headers);
  if (reply.body === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const type = reply.contentType ?? 'application/json';
  const text = reply.text ?? bodyText(reply) ?? '';
  headers.push('Content-Type', contentType(type));
  // A kept text goes as the bytes kept with it (made on its first answer): measuring and encoding 700 characters
  // on every answer cost more than the rest of the write.
  const body = reply.wire?.text === text ? (reply.wire.bytes ??= Buffer.from(text)) : text;
  headers.push('Content-Length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength));
  res.writeHead(reply.status, headers);
  res.end(body);
}

/**
 * Writes a streamed reply: each chunk as the socket takes it, the next one made only once the last is sent
 * (Node's `drain`), so a reader costs the mock a chunk at a time whatever the whole weighs. A client that
 * leaves ends it; a chunk that fails to be made cuts the answer off (the status was sent already).
 */
function writeChunks(res: ServerResponse, reply: Reply, headers: string[]): void {
  const type = reply.contentType ?? 'application/json';
  headers.push('Content-Type', contentType(type));
  res.writeHead(reply.status, headers);
  if (res.req.method === 'HEAD') return void res.end();
  const chunks = reply.chunks![Symbol.iterator]();
  // A reader as fast as the mock (on the same machine) takes every chunk at once, and Node then says `drain`
  // on its next tick, before any other request is read: a turn ends after SLICE_MS all the same.
  let until = 0;
  const turn = (): void => {
    until = performance.now() + SLICE_MS;
    pump();
  };
  const resume = (): void => void (performance.now() > until ? setImmediate(turn) : pump());
  const pump = (): void => {
    try {
      for (let next = chunks.next(); !next.done; next = chunks.next()) {
        if (res.destroyed) return void chunks.return?.();
        if (!res.write(next.value)) return void res.once('drain', resume);
        if (performance.now() > until) return void setImmediate(turn);
      }
      res.end();
    } catch {
      res.destroy();
    }
  };
  turn();
}

/** `pairs` (name, value, ...) without the names `headers` sets (in any case): the reply's own value wins. */
function withoutNames(pairs: readonly string[], headers: Record<string, string>): string[] {
  const names = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const out: string[] = [];
  for (let i = 0; i < pairs.length; i += 2) if (!names.has(pairs[i]!.toLowerCase())) out.push(pairs[i]!, pairs[i + 1]!);
  return out;
}

/** The Content-Type of a reply of media type `type`: with `charset=utf-8` when it names no charset. */
function contentType(type: string): string {
  if (CHARSET.test(type)) return type;
  return WITH_CHARSET.get(type) ?? WITH_CHARSET.set(type, `${type}; charset=utf-8`);
}
