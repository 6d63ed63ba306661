// The only code that writes a reply to Node: one writeHead with every header, then the body.
import type { ServerResponse } from 'node:http';
import { bodyText, FRAMING, isEmpty, type Reply } from '../http/reply.js';

const CHARSET = /;\s*charset=/i;

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

/** `pairs` (name, value, ...) without the names `headers` sets (in any case): the reply's own value wins. */
function withoutNames(pairs: readonly string[], headers: Record<string, string>): string[] {
  const names = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const out: string[] = [];
  for (let i = 0; i < pairs.length; i += 2) if (!names.has(pairs[i]!.toLowerCase())) out.push(pairs[i]!, pairs[i + 1]!);
  return out;
}
