// The request listener of a mock: every request starts here, on Node's own request and response objects.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { problem } from '../problems/problems.js';
import { applyCors } from './cors.js';
import { openExchange, type Exchange } from './exchange.js';
import { handleError } from './handle-error.js';
import { handleRequest } from './handle-request.js';
import { logRequest } from './log-requests.js';
import { isMatch, matchRoute } from './match-route.js';
import type { MockContext } from './mock-context.js';
import type { BodyReader } from './parse-body.js';
import { refuseSessionName } from './select-session.js';
import { problemReply, sendReply, writeReply } from './send-reply.js';

/** Where admin requests (`/__mock/*`) go once they have an id, a log line, a session and CORS. */
export type AdminHandler = (req: IncomingMessage, res: ServerResponse, ex: Exchange) => void;

/**
 * Builds the listener: request id, log line, session, CORS, then the admin API or the contract pipeline
 * (route, body, validate, respond, record, send). Contract requests never go through Express: its
 * per-request setup (prototype swaps, router layers) cost more than all of the mock's own work.
 * @example http.createServer(createHandler(context, admin, createBodyReader(limit))).listen(3000)
 */
export function createHandler(
  context: MockContext,
  admin: AdminHandler | undefined,
  readBody: BodyReader,
): RequestListener {
  return (req, res) => {
    let ex: Exchange;
    try {
      ex = openExchange(context, req, res);
    } catch (error) {
      // Nothing to record the call with: answer, log, and keep the process.
      console.error(
        `membership-mock: cannot read the request ${req.method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return writeReply(
        res,
        problemReply(problem('internal', 'The mock failed to answer this request; the server log has the details.')),
      );
    }
    try {
      res.setHeader('X-Request-Id', ex.requestId);
      logRequest(context.options, ex);
      const isAdmin = admin !== undefined && (ex.path === '/__mock' || ex.path.startsWith('/__mock/'));
      const refusal = refuseSessionName(ex) ?? applyCors(context, ex, isAdmin);
      // Admin answers are not journaled: the journal holds the calls to the contract.
      if (refusal) return isAdmin ? writeReply(res, refusal) : sendReply(ex, refusal);
      if (isAdmin) return admin(req, res, ex);

      const routed = matchRoute(context, ex);
      if (!isMatch(routed)) return sendReply(ex, routed);
      ex.match = routed;
      if (!routed.operation.spec.request?.body) return handleRequest(context, ex);
      readBody(ex, (error) => {
        try {
          if (error) return handleError(context, ex, error);
          handleRequest(context, ex);
        } catch (thrown) {
          handleError(context, ex, thrown);
        }
      });
    } catch (error) {
      handleError(context, ex, error);
    }
  };
}
