// The proxy's HTTP client: sends a request to the upstream fixed at start and hands back its answer, whole when
// it is small enough to check, else its start and the rest as a stream. It never takes a host from a request.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { CHECKED_BYTES, HOP_BY_HOP, type ProxyRules } from '../respond/proxy-rules.js';
import type { Exchange } from './exchange.js';
import { SESSION_COOKIE } from './guards/select-session.js';
import { withoutCookie } from '../http/cookie-header.js';
import { withoutPrefix } from '../lib/path-prefix.js';
import { PREFER_QUERY } from '../http/parse-prefer.js';

/** The upstream's answer: its status and headers, and its body whole or as its start and a stream. */
export interface UpstreamAnswer {
  status: number;
  /** Name, value, name, value... as the upstream sent them, hop-by-hop headers left out. */
  rawHeaders: string[];
  /** Lower-case names; repeated headers joined with `, ` (`set-cookie` with `\n`, never joined by Node). */
  headers: Record<string, string>;
  /** The whole body (empty when none), when it arrived within the check limit. */
  body?: Buffer;
  /** Else: the bytes read so far, and the rest, paused, to be piped to the client. */
  stream?: { head: Buffer; rest: IncomingMessage };
  /** Milliseconds from sending the request to having this answer. */
  ms: number;
}

/** Why the upstream gave no answer. */
export interface UpstreamFailure {
  kind: 'unreachable' | 'timeout';
  /** For people: `connect ECONNREFUSED 127.0.0.1:8080`, `no answer within 10000 ms`. */
  message: string;
  /**
   * Where the request went, for people: the upstream's origin and the path forwarded, its base path written `…`
   * (a base path may hold a secret, as a webhook's does), without the query.
   */
  url: string;
}

export type ForwardResult = { ok: true; answer: UpstreamAnswer } | { ok: false; failure: UpstreamFailure };

/** What is sent: a body read already (routed requests), or the request itself, streamed (passthrough). */
export type ForwardBody = { bytes: Buffer | undefined } | { stream: Readable };

export interface Forwarder {
  forward(ex: Exchange, body: ForwardBody, done: (result: ForwardResult) => void): void;
  /**
   * Closes the idle kept-alive connections to the upstream (they never hold the process: Node unrefs them). A
   * request in flight is cut with its client's connection (see `forward`), as close() cuts any request.
   */
  close(): void;
}

/**
 * Makes the proxy's client for the upstream of `rules`: connections kept alive (a page's requests reuse them),
 * each request given `rules.timeout` ms to answer with its status, headers and a body of up to
 * {@link CHECKED_BYTES}. When the client leaves, the upstream request is cut too.
 */
export function createForwarder(rules: ProxyRules, checkedBytes = CHECKED_BYTES): Forwarder {
  const https = rules.url.protocol === 'https:';
  // https upstreams are checked against the system's CAs (Node's default), never with verification off.
  const agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = https ? httpsRequest : httpRequest;
  const base = rules.url.pathname.replace(/\/+$/, '');
  return {
    close() {
      for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
    },
    forward(ex, body, done) {
      const started = performance.now();
      let settled = false;
      const settle = (result: ForwardResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        done(result);
      };
      const below = rules.mount === '' ? ex.path : withoutPrefix(ex.path, rules.mount);
      const query = forwardedQuery(ex.rawQuery);
      const target = `${base}${below}${query === '' ? '' : `?${query}`}`;
      const url = `${rules.url.origin}${base === '' ? '' : '/…'}${below}`;
      const upstream = send({
        protocol: rules.url.protocol,
        hostname: rules.url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: rules.url.port || undefined,
        method: ex.method,
        path: target,
        agent,
        headers: forwardedHeaders(ex, rules, body),
      });
      upstream.setNoDelay(true);
      const timer = setTimeout(() => {
        upstream.destroy();
        settle({ ok: false, failure: { kind: 'timeout', message: `no answer within ${rules.timeout} ms`, url } });
      }, rules.timeout);
      timer.unref();
      // The client left (or close() cut it off): nothing is waiting for the upstream's answer any more.
      const cut = (): void => {
        if (!ex.res.writableFinished) upstream.destroy();
      };
      ex.res.once('close', cut);
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        settle({ ok: false, failure: { kind: 'unreachable', message: error.message || error.code || 'failed', url } });
      });
      upstream.on('response', (answer) => {
        answer.on('error', () =>
          settle({ ok: false, failure: { kind: 'unreachable', message: 'the answer broke off', url } }),
        );
        const head = { status: answer.statusCode ?? 502, ...headersOf(answer) };
        const chunks: Buffer[] = [];
        let size = 0;
        const onData = (chunk: Buffer): void => {
          chunks.push(chunk);
          size += chunk.length;
          if (size <= checkedBytes) return;
          answer.pause();
          answer.off('data', onData);
          answer.off('end', onEnd);
          const ms = performance.now() - started;
          settle({ ok: true, answer: { ...head, stream: { head: Buffer.concat(chunks), rest: answer }, ms } });
        };
        const onEnd = (): void =>
          settle({ ok: true, answer: { ...head, body: Buffer.concat(chunks), ms: performance.now() - started } });
        answer.on('data', onData);
        answer.on('end', onEnd);
      });
      if ('stream' in body) {
        body.stream.pipe(upstream);
        body.stream.on('error', () => upstream.destroy());
      } else upstream.end(body.bytes);
    },
  };
}

/** Headers the mock reads itself and never passes on: its session, and its own per-request controls. */
const OWN = new Set(['host', 'x-mock-session', 'content-length']);

/**
 * The request's headers as the upstream gets them: hop-by-hop ones (and those `Connection` names) left out,
 * `Host` the upstream's, the length of the body sent, `X-Forwarded-*` saying where the request came from, and
 * the proxy's own headers (`--proxy-header`) in place of the client's of the same name.
 */
function forwardedHeaders(ex: Exchange, rules: ProxyRules, body: ForwardBody): OutgoingHttpHeaders {
  const { req } = ex;
  const connection = connectionNames(req);
  const out: OutgoingHttpHeaders = {};
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || connection.has(name) || OWN.has(name) || name in rules.headers) continue;
    // A body the mock read was decoded as it was read (body-parser inflates gzip): it goes on as decoded.
    if (name === 'content-encoding' && 'bytes' in body) continue;
    // The cookie a page joined its session with is the mock's, as X-Mock-Session is: the page's others go on.
    const value = name === 'cookie' ? withoutCookie(raw[i + 1]!, SESSION_COOKIE) : raw[i + 1]!;
    if (value === '') continue;
    const had = out[name];
    out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [String(had), value];
  }
  if ('bytes' in body) {
    if (body.bytes !== undefined) out['content-length'] = String(body.bytes.length);
  } else if (req.headers['content-length'] !== undefined) out['content-length'] = req.headers['content-length'];
  const forwardedFor = req.socket.remoteAddress;
  const before = req.headers['x-forwarded-for'];
  if (forwardedFor) out['x-forwarded-for'] = before ? `${String(before)}, ${forwardedFor}` : forwardedFor;
  if (req.headers.host && req.headers['x-forwarded-host'] === undefined) out['x-forwarded-host'] = req.headers.host;
  if (req.headers['x-forwarded-proto'] === undefined)
    out['x-forwarded-proto'] = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  out.host = rules.url.host;
  for (const [name, value] of Object.entries(rules.headers)) out[name] = value;
  return out;
}

/** The headers a message's `Connection` names: hop-by-hop too, never passed on (RFC 9110 §7.6.1). */
function connectionNames(message: IncomingMessage): Set<string> {
  return new Set(
    String(message.headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
}

/** The answer's headers, hop-by-hop ones (and those its `Connection` names) left out. */
function headersOf(answer: IncomingMessage): Pick<UpstreamAnswer, 'rawHeaders' | 'headers'> {
  const connection = connectionNames(answer);
  const rawHeaders: string[] = [];
  const headers: Record<string, string> = {};
  const raw = answer.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || connection.has(lower)) continue;
    const value = raw[i + 1]!;
    rawHeaders.push(name, value);
    headers[lower] =
      headers[lower] === undefined ? value : `${headers[lower]}${lower === 'set-cookie' ? '\n' : ', '}${value}`;
  }
  return { rawHeaders, headers };
}

/**
 * The query as the backend gets it: as sent, less the mock's own controls (`__delay`, `__code`, `__example`,
 * `__dynamic`: see PREFER_QUERY), which mean nothing to a backend and may be refused by one.
 */
function forwardedQuery(rawQuery: string): string {
  if (!rawQuery.includes('__')) return rawQuery;
  return rawQuery
    .split('&')
    .filter((pair) => {
      const name = pair.split('=', 1)[0]!;
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A name that is not valid percent-encoding is no control of the mock's.
      }
      return !PREFER_QUERY.includes(decoded);
    })
    .join('&');
}
