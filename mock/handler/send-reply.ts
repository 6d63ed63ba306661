// The last step of every request: record the call in the journal, then write the response.
import { validateHeaderName, validateHeaderValue } from 'node:http';
import type { Request, Response } from 'express';
import type { Operation } from '../contract/load-contract.js';
import type { CallRecord } from '../journal/journal.js';
import type { Problem, Violation } from '../problems/problems.js';
import { requestIdOf } from './request-id.js';
import { currentSession } from './select-session.js';
import type { Rendered } from './render-response.js';
import { requestBody } from './request-body.js';

/** Wraps a problem as a response to send. */
export function problemReply(problem: Problem, headers: Record<string, string> = {}): Rendered {
  return { status: problem.status, headers, contentType: 'application/problem+json', body: problem };
}

/**
 * Records the call, then sends it. Recording comes first so that a client that has its answer always finds
 * its call in the journal.
 */
export function sendReply(
  req: Request,
  res: Response,
  operation: Operation | undefined,
  violations: Violation[],
  reply: Rendered,
  pathParams: Record<string, string> = {},
): void {
  const headers = sendableHeaders(reply.headers);
  recordCall(req, res, operation, pathParams, violations, {
    status: reply.status,
    headers: reply.contentType ? { ...headers, 'content-type': reply.contentType } : headers,
    // A HEAD answer carries no body on the wire, so none is recorded.
    body: req.method === 'HEAD' ? undefined : reply.body,
  });
  // Written with Node's own calls: Express's res.send adds work (ETag, type lookup) the mock never needs.
  res.statusCode = reply.status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
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
export function recordDrop(req: Request, res: Response, operation: Operation, pathParams: Record<string, string>): void {
  recordCall(req, res, operation, pathParams, [], { status: 0, headers: {} });
  req.socket.destroy();
}

function recordCall(req: Request, res: Response, operation: Operation | undefined, pathParams: Record<string, string>, violations: Violation[], response: CallRecord['response']): void {
  res.locals.operationId = operation?.id;
  currentSession(res).journal.record({
    requestId: requestIdOf(res),
    operationId: operation?.id ?? null,
    method: req.method,
    path: req.path,
    pathParams,
    query: { ...(req.query as Record<string, string | string[]>) },
    headers: { ...req.headers } as Record<string, string | string[]>,
    body: (res.locals.unrecordableBody as string | undefined) ?? requestBody(req),
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
