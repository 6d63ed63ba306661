// The last step of every request: record the call in the journal, then write the response.
import { validateHeaderName, validateHeaderValue, type ServerResponse } from 'node:http';
import type { CallRecord } from '../journal/journal.js';
import type { Problem, Violation } from '../problems/problems.js';
import type { Exchange } from './exchange.js';
import type { Rendered } from './render-response.js';

/** Wraps a problem as a response to send; the journal records `violations` (the problem's own by default). */
export function problemReply(
  problem: Problem,
  headers: Record<string, string> = {},
  violations: Violation[] = problem.violations ?? [],
): Rendered {
  return { status: problem.status, headers, contentType: 'application/problem+json', body: problem, violations };
}

/**
 * Records the call, then sends it. Recording comes first so that a client that has its answer always finds
 * its call in the journal.
 */
export function sendReply(ex: Exchange, reply: Rendered): void {
  const headers = sendableHeaders(reply.headers);
  recordCall(ex, reply.violations ?? [], {
    status: reply.status,
    headers: reply.contentType ? { ...headers, 'content-type': reply.contentType } : headers,
    // A HEAD answer carries no body on the wire, so none is recorded.
    body: ex.method === 'HEAD' ? undefined : reply.body,
  });
  writeReply(ex.res, { ...reply, headers });
}

/**
 * Writes a response with Node's own calls, without recording it (the admin API's answers are not calls).
 * Node leaves the body out of an answer to HEAD by itself.
 */
export function writeReply(res: ServerResponse, reply: Rendered): void {
  res.statusCode = reply.status;
  for (const name in reply.headers) res.setHeader(name, reply.headers[name]!);
  if (reply.body === undefined) {
    res.end();
    return;
  }
  const type = reply.contentType ?? 'application/json';
  const text = /[/+]json\b/i.test(type) ? JSON.stringify(reply.body) : String(reply.body);
  res.setHeader('Content-Type', /;\s*charset=/i.test(type) ? type : `${type}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * Records a call whose connection is dropped on purpose (a fault), with status 0 for "no answer", then
 * closes the connection.
 */
export function recordDrop(ex: Exchange): void {
  recordCall(ex, [], { status: 0, headers: {} });
  ex.req.socket.destroy();
}

function recordCall(ex: Exchange, violations: Violation[], response: CallRecord['response']): void {
  ex.session.journal.record({
    requestId: ex.requestId,
    operationId: ex.match?.operation.id ?? null,
    method: ex.method,
    path: ex.path,
    pathParams: ex.match?.pathParams ?? {},
    query: { ...ex.query },
    headers: { ...ex.req.headers } as Record<string, string | string[]>,
    body: ex.unrecordableBody ?? ex.body,
    response,
    violations,
  });
}

/** Headers Node can send: a value from the contract with a line break or a non-Latin-1 character is dropped. */
function sendableHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
      out[name] = value;
    } catch {
      // Not sendable: leaving it out keeps the answer and the journal truthful.
    }
  }
  return out;
}
