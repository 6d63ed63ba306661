// What an endpoint of the admin API is: the request as it sees it, and the reply it answers with.
import type { MockControl } from '../control/control.js';
import type { Exchange } from '../handler/exchange.js';
import type { Session } from '../instance/session.js';
import type { Reply } from '../http/reply.js';

/** An admin request as an endpoint sees it. */
export interface AdminRequest {
  ex: Exchange;
  session: Session;
  /** The parsed JSON body, `undefined` when none was sent. */
  body: unknown;
  /** The path parameters of the endpoint (`{id}`). */
  params: Record<string, string>;
  /** The request target as the client sent it, for problems. */
  instance: string;
  /** The mock's control surface: what every endpoint carries over HTTP. */
  control: MockControl;
}

/**
 * One endpoint: answers a request with a reply (a problem reply for a refusal), or `undefined` when it wrote
 * the answer itself (an event stream).
 * @example const health: AdminEndpoint = () => json({ status: 'ok' });
 */
export type AdminEndpoint = (request: AdminRequest) => Reply | undefined | Promise<Reply | undefined>;

/** A JSON answer. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  return { status, headers, contentType: 'application/json', body };
}

/** A JSON answer made piece by piece as the client reads it (see Reply.chunks). */
export function streamed(chunks: Iterable<string>, headers: Record<string, string> = {}): Reply {
  return { status: 200, headers, contentType: 'application/json', chunks };
}

/** An answer without a body (204). */
export function noContent(): Reply {
  return { status: 204, headers: {} };
}
