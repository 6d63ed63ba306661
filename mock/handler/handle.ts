// The request listener of a mock: every request starts here, on Node's own request and response objects.
// It runs the guards, routes, reads the body, then hands the request to the engine's stages (engine/), which
// decide, count, change state, check and record; it writes the reply on Node.
import type { RequestListener } from 'node:http';
import type { MockContext } from '../instance/mock-context.js';
import { problem } from '../http/problems.js';
import { problemReply, type Reply } from '../http/reply.js';
import { writeReply } from './write-reply.js';
import { applyCors } from './guards/cors.js';
import { createRedactor } from '../journal/redact.js';
import { createCheckAndRecord } from '../engine/check-and-record.js';
import { admit, answerRequest, type Transport } from '../engine/answer-request.js';
import { openExchange, type Exchange } from './exchange.js';
import { describe, handleError } from './handle-error.js';
import { hostGuard } from './guards/host-guard.js';
import { createRequestLogger } from './log-requests.js';
import { isMatch, matchRoute } from '../plan/match-route.js';
import type { BodyReader } from './parse-body.js';
import { carriesBody, sendsUndeclaredBody } from '../http/request-body.js';
import { apiOfPath } from '../contract/combine-contracts.js';
import { isAdminPath, refuseSessionName } from './guards/select-session.js';
import { recordCall, writeAnswer } from './send-reply.js';
import { storeUnavailable } from './store-unavailable.js';
import type { ProxyStage } from './proxy.js';
import type { Unavailable } from '../instance/replication.js';

/** The proxy stage that stands for an API (`undefined`: a mock of one contract), if its requests go upstream. */
export type ProxyLookup = (api: string | undefined) => ProxyStage | undefined;

/** Where admin requests (`/__mock/*`) go once they have an id, a log line, a known host, a session and CORS. */
export type AdminHandler = (ex: Exchange) => void;

/**
 * Builds the listener: request id, log line, host, session, CORS, then the admin API or the contract pipeline
 * (route, read the body, decide, carry the decision out). Contract requests never go through Express:
 * its per-request setup (prototype swaps, router layers) cost more than all of the mock's own work.
 * @example http.createServer(createHandler(context, admin, createBodyReader(limit))).listen(3000)
 */
export function createHandler(
  context: MockContext,
  admin: AdminHandler | undefined,
  readBody: BodyReader,
  makeProxy?: (finish: Finish) => ProxyLookup,
): RequestListener {
  const logRequest = createRequestLogger(context.logger);
  const redact = context.options.journalSecrets ? undefined : createRedactor(() => context.served.secrets);
  const refuseHost = hostGuard(context.options);
  const checkAndRecord = createCheckAndRecord(context);
  /**
   * Runs shared work in a section (replication.ts), and its writes once what it changed is shared: alone, both
   * at once; a replica answers 503 when the store it shares does not answer.
   */
  const shared = (ex: Exchange, work: () => void, write: () => void): void => {
    const { replication } = context;
    const unavailable = (why?: Unavailable) => writeAnswer(ex, storeUnavailable(ex, why));
    replication.within(() => {
      work();
      replication.afterPublish(write, unavailable);
    }, unavailable);
  };
  /** The last stages of every contract request: check the answer against the contract, record, write. */
  const finish = (ex: Exchange, reply: Reply): void => {
    let checked: Reply;
    shared(
      ex,
      () => (checked = checkAndRecord(ex, reply)),
      () => writeAnswer(ex, checked),
    );
  };
  /** A dropped connection: recorded (status 0), then closed with no answer. */
  const drop = (ex: Exchange): void =>
    shared(
      ex,
      () => recordCall(ex, [], { status: 0, headers: {} }),
      () => {
        ex.req.socket.destroy();
        ex.log?.(ex, undefined);
      },
    );
  /** Decides and carries out the answer in a section: the state, counters and overrides it reads are current. */
  const answer = (ex: Exchange, proxy: ProxyStage | undefined): void =>
    context.replication.within(
      () => {
        try {
          answerRequest(context, ex, transport, proxy);
        } catch (error) {
          handleError(context, ex, error, finish);
        }
      },
      (why) => writeAnswer(ex, storeUnavailable(ex, why)),
    );
  const proxyOf = makeProxy?.(finish);
  /** How the engine's stages (engine/answer-request.ts) reach Node: made once, for every request. */
  const transport: Transport<Exchange> = {
    finish,
    drop,
    // A delay starts once what decided it is published: a section that fails answers 503, not the delayed answer.
    later: (ex, ms, action) =>
      ms <= 0
        ? action()
        : context.replication.afterPublish(
            () => later(context, ex, ms, finish, action),
            (why) => writeAnswer(ex, storeUnavailable(ex, why)),
          ),
    fail: (ex, error) => handleError(context, ex, error, finish),
  };
  return (req, res) => {
    let ex: Exchange;
    try {
      ex = openExchange(context, req, res);
    } catch (error) {
      // Nothing to record the call with: answer, log, and keep the process.
      context.logger.error(`cannot read the request ${req.method} ${req.url}: ${describe(error)}`);
      const detail = 'The mock failed to answer this request; the server log has the details.';
      return writeReply(res, problemReply(problem('internal', detail)));
    }
    try {
      ex.log = logRequest;
      ex.redact = redact;
      const isAdmin = admin !== undefined && isAdminPath(ex.path);
      // CORS first: a page's script reads why its host or its session cookie was refused, not a network error
      // (a page that reaches the mock by DNS rebinding is of the same origin as the name it used: CORS is moot).
      const refusal =
        applyCors(context, ex, isAdmin) ??
        refuseHost(ex) ??
        refuseSessionName({ headers: ex.req.headers, path: ex.path, query: ex.query });
      // Admin answers are not journaled: the journal holds the calls to the contract. Nor are allowed CORS
      // preflights (204): the browser asks them, not the app; a refused one (403) is, to explain the failure.
      if (refusal) return isAdmin || refusal.status === 204 ? writeAnswer(ex, refusal) : finish(ex, refusal);
      if (isAdmin) return admin(ex);

      const routed = matchRoute(context.served, ex.method, ex.path, context.options.cors !== false);
      ex.api = isMatch(routed) ? routed.plan.operation.api : apiOfPath(context.served.contract, ex.path);
      const proxy = proxyOf?.(ex.api);
      if (!isMatch(routed)) return proxy?.rules.passthrough ? proxy.passThrough(ex, routed) : finish(ex, routed);
      ex.match = routed;
      admit(context, ex);
      // A body sent to an operation that takes none is read too (to refuse it, 415, and journal what came).
      // A GET with a body going upstream is read too, to refuse it (see decide.ts).
      const forwardsBody = proxy?.rules.proxies(routed.plan.operation.id) === true && carriesBody(ex.req);
      if (!routed.plan.takesBody && !sendsUndeclaredBody(ex.req) && !forwardsBody) return answer(ex, proxy);
      readBody(ex, (error) => {
        if (error) return handleError(context, ex, error, finish);
        answer(ex, proxy);
      });
    } catch (error) {
      handleError(context, ex, error, finish);
    }
  };
}

/** Where an answer goes once decided: checked, recorded, written. */
type Finish = (ex: Exchange, reply: Reply) => void;

/**
 * Runs an action now or after a delay; an error in a delayed one is answered like any other. The timer does
 * not hold the process: once close() has cut off the connection waiting for it, nothing else is waiting.
 */
function later(context: MockContext, ex: Exchange, ms: number, finish: Finish, action: () => void): void {
  if (ms <= 0) return action();
  setTimeout(() => {
    try {
      action();
    } catch (error) {
      handleError(context, ex, error, finish);
    }
  }, ms).unref();
}
