// The request listener of a mock: every request starts here, on Node's own request and response objects.
// It is the one place that counts, uses up overrides, changes state, waits, checks the answer, records and writes.
import type { RequestListener } from 'node:http';
import type { MockContext } from '../instance/mock-context.js';
import type { Session } from '../instance/session.js';
import { REQUESTS } from '../instance/session.js';
import { problem } from '../http/problems.js';
import { problemReply, type Reply } from '../http/reply.js';
import { writeReply } from './write-reply.js';
import { useOverride } from '../respond/overrides.js';
import { applyCors } from './guards/cors.js';
import { createRedactor } from '../journal/redact.js';
import { createAnswerCheck } from '../respond/check-answer.js';
import { decide, type Effects } from '../respond/decide.js';
import { openExchange, type Exchange } from './exchange.js';
import { describe, handleError } from './handle-error.js';
import { hostGuard } from './guards/host-guard.js';
import { createRequestLogger } from './log-requests.js';
import { isMatch, matchRoute } from '../plan/match-route.js';
import type { BodyReader } from './parse-body.js';
import { carriesBody, sendsUndeclaredBody } from '../http/request-body.js';
import { carryOut } from './carry-out.js';
import { apiOfPath } from '../contract/combine-contracts.js';
import { isAdminPath, refuseSessionName } from './guards/select-session.js';
import { recordDrop, sendReply, writeAnswer } from './send-reply.js';
import type { ProxyStage } from './proxy.js';

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
  const checkAnswer = createAnswerCheck({
    generator: context.generator,
    errors: context.options.errors,
    warn: (msg, fields) => context.logger.warn(msg, fields),
  });
  /** The last stages of every contract request: check the answer against the contract, record, write. */
  const finish = (ex: Exchange, reply: Reply): void =>
    sendReply(ex, checkAnswer({ hit: ex.match, path: ex.path, headers: ex.req.headers, query: ex.query }, reply));
  const proxyOf = makeProxy?.(finish);
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
      const refusal =
        refuseHost(ex) ??
        refuseSessionName({ headers: ex.req.headers, path: ex.path, query: ex.query }) ??
        applyCors(context, ex, isAdmin);
      // Admin answers are not journaled: the journal holds the calls to the contract. Nor are allowed CORS
      // preflights (204): the browser asks them, not the app; a refused one (403) is, to explain the failure.
      if (refusal) return isAdmin || refusal.status === 204 ? writeAnswer(ex, refusal) : finish(ex, refusal);
      if (isAdmin) return admin(ex);

      const routed = matchRoute(context.served, ex.method, ex.path, context.options.cors !== false);
      ex.api = isMatch(routed) ? routed.plan.operation.api : apiOfPath(context.served.contract, ex.path);
      const proxy = proxyOf?.(ex.api);
      if (!isMatch(routed)) return proxy?.rules.passthrough ? proxy.passThrough(ex, routed) : finish(ex, routed);
      ex.match = routed;
      // A session is made only for a request with the operation's credentials (see Exchange.session), known
      // before the body is read, so a body the mock refuses is recorded in the session it names too.
      if (!context.sessions.has(ex.sessionName) && hasCredentials(context, ex)) ex.authenticate();
      // A body sent to an operation that takes none is read too (to refuse it, 415, and journal what came).
      // A GET with a body going upstream is read too, to refuse it (see decide.ts).
      const forwardsBody = proxy?.rules.proxies(routed.plan.operation.id) === true && carriesBody(ex.req);
      if (!routed.plan.takesBody && !sendsUndeclaredBody(ex.req) && !forwardsBody)
        return answer(context, ex, finish, proxy);
      readBody(ex, (error) => {
        try {
          if (error) return handleError(context, ex, error, finish);
          answer(context, ex, finish, proxy);
        } catch (thrown) {
          handleError(context, ex, thrown, finish);
        }
      });
    } catch (error) {
      handleError(context, ex, error, finish);
    }
  };
}

/** Where an answer goes once decided: checked, recorded, written. */
type Finish = (ex: Exchange, reply: Reply) => void;

/**
 * Decides the answer to a routed request, then carries it out; with a proxy, the request may go upstream, and
 * the mock answers in its place when the rules say so (decided again, without the proxy).
 */
function answer(context: MockContext, ex: Exchange, finish: Finish, proxy?: ProxyStage): void {
  const { plan, pathParams, path: routedPath } = ex.match!;
  const request = {
    method: ex.method,
    path: ex.path,
    routedPath,
    rawQuery: ex.rawQuery,
    query: ex.query,
    headers: ex.req.headers,
    body: ex.body,
    bodyDepthChecked: ex.bodyJson !== undefined,
    pathParams,
  };
  const { seed, checkSecurity, dynamic, stateless } = context.options;
  const { session } = ex;
  const settings = { seed, faults: context.faults, checkSecurity, dynamic, stateless, proxy: proxy?.rules };
  const decision = decide(plan, request, session, settings);
  if (decision.kind === 'refuse') {
    if (decision.unrecordableBody) ex.unrecordableBody = decision.unrecordableBody;
    return finish(ex, decision.reply);
  }
  count(session, decision.effects);
  if (decision.kind === 'drop') {
    ex.fault = 'drop';
    return later(context, ex, decision.delay, finish, () => recordDrop(ex));
  }
  ex.fault = decision.fault;
  if (decision.kind === 'forward') {
    const fallback = (why: string): void => {
      ex.answeredBy = 'fallback';
      ex.fallback = why;
      ex.fault = undefined;
      try {
        answer(context, ex, finish);
      } catch (error) {
        handleError(context, ex, error, finish);
      }
    };
    return later(context, ex, decision.delay, finish, () => proxy!.forward(ex, decision, fallback));
  }
  if (decision.answeredBy) ex.answeredBy = decision.answeredBy;
  const { reply, changed } = carryOut(
    context,
    session,
    { path: routedPath, pathParams, query: ex.query, body: ex.body },
    decision,
  );
  if (changed && session.name === '') context.options.onStateChange(() => session.store.snapshot());
  later(context, ex, decision.delay, finish, () => finish(ex, reply));
}

/** Whether a routed request passes its operation's security requirements (whatever else is wrong with it). */
function hasCredentials(context: MockContext, ex: Exchange): boolean {
  if (!context.options.checkSecurity) return true;
  const { plan, path } = ex.match!;
  try {
    const request = { method: ex.method, path, query: ex.query, headers: ex.req.headers, body: undefined };
    const check = plan.validate(request, true);
    return check.ok || check.kind !== 'unauthorized';
  } catch {
    return false;
  }
}

/** Counts the request (and the create) in the session, and uses up the override applied. */
function count(session: Session, { request, occurrence, override }: Effects): void {
  session.counters.set(REQUESTS, request);
  if (occurrence) session.counters.set(occurrence.operationId, occurrence.count);
  if (override) useOverride(session.overrides, override);
}

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
