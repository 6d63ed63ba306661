// The request pipeline after routing: validate, choose a response (Prefer, overrides, faults), answer from
// state or generate, then record and send, after any delay.
import type { IncomingMessage } from 'node:http';
import accepts from 'accepts';
import type { Operation } from '../contract/load-contract.js';
import { checkRequest } from '../prism/prism-adapter.js';
import { describeViolations, problem, type ProblemKind, type Violation } from '../problems/problems.js';
import { chooseResponse } from '../respond/choose-response.js';
import { rollFaults } from '../respond/faults.js';
import { findOverride, useOverride } from '../respond/overrides.js';
import { parsePrefer, PREFER_QUERY } from '../respond/parse-prefer.js';
import { respondFromState } from '../state/respond-from-state.js';
import { checkContentType } from './check-content-type.js';
import type { Exchange, Query } from './exchange.js';
import { handleError } from './handle-error.js';
import type { MockContext, Session } from './mock-context.js';
import { MAX_DEPTH, nestsTooDeep } from './parse-body.js';
import { generationKey, renderResponse, type Rendered } from './render-response.js';
import { problemReply, recordDrop, sendReply } from './send-reply.js';

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const REQUESTS = '\u0000requests';

/** Answers a request matched to an operation of the contract, its body read. */
export function handleRequest(context: MockContext, ex: Exchange): void {
  const { operation, pathParams, path } = ex.match!;
  const { session, body, req } = ex;
  const send = (reply: Rendered, delay = 0) => later(context, ex, delay, () => sendReply(ex, reply));
  const refuse = (
    kind: ProblemKind,
    violations: Violation[],
    { headers = {}, detail = describeViolations(violations) } = {},
  ) => send(problemReply(problem(kind, detail, { instance: ex.path, violations }), headers, violations));

  if (!isDecodable(path))
    return refuse('invalidRequest', [
      { location: 'path', pointer: '', message: 'The path has a malformed percent-encoding (such as %E0%A4%A).' },
    ]);
  if (body !== undefined && nestsTooDeep(body)) {
    // Kept out of the journal too: copying it for every reader of /__mock/calls would exhaust the stack.
    ex.unrecordableBody = `[not recorded: the body nests deeper than ${MAX_DEPTH} levels]`;
    return refuse('invalidRequest', [
      { location: 'body', pointer: '', message: `The body nests deeper than ${MAX_DEPTH} levels.` },
    ]);
  }
  const wrongType = body === undefined ? undefined : checkContentType(operation.spec, req.headers['content-type']);
  if (wrongType) return refuse('unsupportedMediaType', [wrongType]);
  // The mock's own controls (`__code=500`) are not the contract's query parameters.
  const query = withoutControls(ex.query);
  const check = checkRequest(
    operation.spec,
    { method: ex.method, path, query, headers: req.headers, body },
    context.options.checkSecurity,
  );
  if (!check.ok)
    return refuse(check.kind, check.violations, {
      headers: check.kind === 'unauthorized' ? { 'WWW-Authenticate': check.schemes[0] ?? 'Bearer' } : {},
    });

  const prefer = parsePrefer(req.headers.prefer, ex.query);
  if (!prefer.ok)
    return refuse('invalidPrefer', [{ location: 'header', pointer: '/prefer', message: prefer.message }], {
      detail: prefer.message,
    });
  // What to answer, strongest first: what this request asks (Prefer), an override, a fault, the contract.
  const asked = prefer.preferences.code !== undefined || prefer.preferences.example !== undefined;
  const override = asked
    ? undefined
    : findOverride(session.overrides, {
        operationId: operation.id,
        method: ex.method,
        path: ex.path,
        pathParams,
        query,
        headers: req.headers as Record<string, string>,
        body,
        response: { status: 0, headers: {} },
      });
  const rolled = rollFaults(context.faults, context.options.seed, session.name, count(session, REQUESTS));
  const fault = asked || override ? { delay: 0, fail: false, drop: false } : rolled;
  const delay = prefer.preferences.delay ?? override?.delay ?? fault.delay;
  if (override?.fault === 'drop' || fault.drop) {
    if (override) useOverride(session.overrides, override);
    return later(context, ex, delay, () => recordDrop(ex));
  }
  const failure = fault.fail ? failureStatus(operation) : undefined;
  if (failure === 'undocumented')
    return send(
      problemReply(
        problem('internal', 'A fault was injected (failure rate); the contract documents no 5xx for this operation.', {
          instance: ex.path,
        }),
      ),
      delay,
    );
  const code = prefer.preferences.code ?? override?.status ?? failure;
  const chosen = chooseResponse(operation, { ...prefer.preferences, code }, (types) =>
    negotiate(req.headers.accept, types),
  );
  if (!chosen.ok) {
    const [kind, pointer] =
      chosen.reason === 'not-acceptable'
        ? (['notAcceptable', '/accept'] as const)
        : (['invalidPrefer', '/prefer'] as const);
    return refuse(kind, [{ location: 'header', pointer, message: chosen.message }], { detail: chosen.message });
  }
  if (override) useOverride(session.overrides, override);

  const { choice } = chosen;
  const dynamic = prefer.preferences.dynamic ?? context.options.dynamic;
  const facts = { path, rawQuery: ex.rawQuery, pathParams };
  const key = generationKey(
    operation,
    choice,
    facts,
    IDEMPOTENT.has(ex.method) ? undefined : count(session, operation.id),
  );
  const render = (stored?: unknown) =>
    withHeaders(renderResponse(context, operation, choice, dynamic, facts, key, stored), override?.headers);
  // State answers the collection operations, unless a particular response was asked for.
  const role = context.served.collections.roles.get(operation);
  const particular = code !== undefined || prefer.preferences.example !== undefined || override?.body !== undefined;
  if (!role || context.options.stateless || particular) return send(render(override?.body), delay);
  const { reply, changed } = respondFromState(
    context,
    session,
    role.collection,
    role.role,
    operation,
    { path, pathParams, query, body, key },
    render,
  );
  if (changed && session.name === '') context.options.onStateChange(() => session.store.snapshot());
  return send(reply, delay);
}

const negotiated = new Map<string, string | false>();

/** The best of `types` for an Accept header, remembered by header and types: parsing Accept is a cost on every request. */
function negotiate(accept: string | undefined, types: string[]): string | false {
  const key = `${accept ?? ''}\u0000${types.join(',')}`;
  let found = negotiated.get(key);
  if (found === undefined) {
    const best = accepts({ headers: { accept } } as IncomingMessage).types(types);
    found = typeof best === 'string' ? best : false;
    if (negotiated.size >= 1000) negotiated.clear();
    negotiated.set(key, found);
  }
  return found;
}

/** The first documented 5xx of an operation (an injected failure answers it), if it documents one. */
function failureStatus(operation: Operation): number | 'undocumented' {
  const code = operation.spec.responses.map((r) => r.code).find((c) => /^5\d\d$/.test(c));
  return code ? Number(code) : 'undocumented';
}

/** Counts per session (requests for faults, creates for generation), so each draw differs and repeats. */
function count(session: Session, name: string): number {
  const n = (session.occurrences.get(name) ?? 0) + 1;
  session.occurrences.set(name, n);
  return n;
}

function withHeaders(reply: Rendered, headers: Record<string, string> | undefined): Rendered {
  return headers ? { ...reply, headers: { ...reply.headers, ...headers } } : reply;
}

function withoutControls(query: Query): Query {
  const out = { ...query };
  for (const name of PREFER_QUERY) delete out[name];
  return out;
}

/** Runs an action now or after a delay; an error in a delayed one is answered like any other. */
function later(context: MockContext, ex: Exchange, ms: number, action: () => void): void {
  if (ms <= 0) return action();
  setTimeout(() => {
    try {
      action();
    } catch (error) {
      handleError(context, ex, error);
    }
  }, ms);
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
