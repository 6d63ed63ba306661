// The stages of a routed contract request, shared by every transport: decide, count and use up overrides,
// carry the answer out (state), then hand it to the transport to check, record and write, now or after a delay.
// The Node listener (handler/handle.ts) and the MSW handlers (msw/) both run these; only writing differs.
import type { MockContext } from '../instance/mock-context.js';
import type { Session } from '../instance/session.js';
import { REQUESTS } from '../instance/session.js';
import type { Reply } from '../http/reply.js';
import { sentContentType } from '../http/check-content-type.js';
import { useOverride } from '../respond/overrides.js';
import { decide, type Effects, type Forward } from '../respond/decide.js';
import type { ProxyRules } from '../respond/proxy-rules.js';
import { carryOut } from './carry-out.js';
import type { ContractExchange } from './contract-exchange.js';

/** What a transport does with an answer once the engine has made it. Built once per mock, not per request. */
export interface Transport<E extends ContractExchange> {
  /** The last stages: check the answer against the contract, record the call, write the reply. */
  finish(ex: E, reply: Reply): void;
  /** Records the call (see record-call.ts recordDrop) and ends the request without an answer. */
  drop(ex: E): void;
  /** Runs `action` after `ms` milliseconds; an error it throws is answered as any other. */
  later(ex: E, ms: number, action: () => void): void;
  /** Answers an error thrown by a stage (a problem+json 500, or the body parser's refusal). */
  fail(ex: E, error: unknown): void;
}

/** The upstream a request may be forwarded to (`--proxy`: the Node listener's proxy stage). */
export interface Upstream<E extends ContractExchange> {
  readonly rules: ProxyRules;
  /** Forwards the request; `fallback` has the mock answer it instead (decided again, without the upstream). */
  forward(ex: E, decision: Forward, fallback: (why: string) => void): void;
}

/**
 * Marks a routed request as authenticated when it passes its operation's security requirements (whatever else
 * is wrong with it): only then may it make the session it names. Done before the body is read, so a body the
 * mock refuses is recorded in the session it names too.
 */
export function admit(context: MockContext, ex: ContractExchange): void {
  if (!context.sessions.has(ex.sessionName) && hasCredentials(context, ex)) ex.authenticate();
}

/** Whether a routed request passes its operation's security requirements (whatever else is wrong with it). */
function hasCredentials(context: MockContext, ex: ContractExchange): boolean {
  if (!context.options.checkSecurity) return true;
  const { plan, path } = ex.match!;
  try {
    const request = { method: ex.method, path, query: ex.query, headers: ex.requestHeaders, body: undefined };
    const check = plan.validate(request, true);
    return check.ok || check.kind !== 'unauthorized';
  } catch {
    return false;
  }
}

/**
 * Decides the answer to a routed request whose body is read, then carries it out through `transport`; with an
 * upstream, the request may go there, and the mock answers in its place when the rules say so.
 */
export function answerRequest<E extends ContractExchange>(
  context: MockContext,
  ex: E,
  transport: Transport<E>,
  upstream?: Upstream<E>,
): void {
  const { plan, pathParams, path: routedPath } = ex.match!;
  const request = {
    method: ex.method,
    path: ex.path,
    routedPath,
    rawQuery: ex.rawQuery,
    query: ex.query,
    headers: ex.requestHeaders,
    body: ex.body,
    bodyDepthChecked: ex.bodyDepthChecked,
    pathParams,
  };
  const { seed, checkSecurity, dynamic, stateless } = context.options;
  const { session } = ex;
  const settings = { seed, faults: context.faults, checkSecurity, dynamic, stateless, proxy: upstream?.rules };
  const decision = decide(plan, request, session, settings);
  if (decision.kind === 'refuse') {
    if (decision.unrecordableBody) ex.unrecordableBody = decision.unrecordableBody;
    return transport.finish(ex, decision.reply);
  }
  count(session, decision.effects);
  if (decision.kind === 'drop') {
    ex.fault = 'drop';
    return transport.later(ex, decision.delay, () => transport.drop(ex));
  }
  ex.fault = decision.fault;
  if (decision.kind === 'forward') {
    const fallback = (why: string): void => {
      ex.answeredBy = 'fallback';
      ex.fallback = why;
      ex.fault = undefined;
      try {
        answerRequest(context, ex, transport);
      } catch (error) {
        transport.fail(ex, error);
      }
    };
    return transport.later(ex, decision.delay, () => upstream!.forward(ex, decision, fallback));
  }
  if (decision.answeredBy) ex.answeredBy = decision.answeredBy;
  const { reply, changed } = carryOut(
    context,
    session,
    {
      path: routedPath,
      sentPath: ex.path,
      pathParams,
      query: ex.query,
      body: ex.body,
      contentType: sentContentType(ex.requestHeaders),
    },
    decision,
  );
  if (changed && session.name === '') context.options.onStateChange(() => session.store.snapshot());
  transport.later(ex, decision.delay, () => transport.finish(ex, reply));
}

/** Counts the request (and the create) in the session, and uses up the override applied. */
function count(session: Session, { request, occurrence, override }: Effects): void {
  session.counters.set(REQUESTS, request);
  if (occurrence) session.counters.set(occurrence.operationId, occurrence.count);
  if (override) useOverride(session.overrides, override);
}
