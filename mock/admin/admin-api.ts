// The admin API under /__mock: health (the probes and metrics: probe-endpoints.ts), the call journal (list,
// count, wait), state, overrides, faults, sessions (and a page's joining one), reset. Its own requests are never
// journaled; `X-Mock-Session` (or `?session=`) picks the session; a change must be a request no web page can
// forge (csrf-guard.ts).
import type { IncomingMessage } from 'node:http';
import accepts from 'accepts';
import { compilePathParams, type PathParamReader } from '../http/path-params.js';
import type { Exchange } from '../handler/exchange.js';
import type { AdminHandler } from '../handler/handle.js';
import { describe, isStateFailure } from '../handler/handle-error.js';
import { createJsonReader, type BodyReader } from '../handler/parse-body.js';
import { writeAnswer } from '../handler/send-reply.js';
import { storeUnavailable } from '../handler/store-unavailable.js';
import { createStreamingJsonReader } from '../handler/stream-json.js';
import { MAX_HAR_BYTES, MAX_HAR_ENTRIES, TOO_MANY_HAR_ENTRIES } from '../respond/har-import.js';
import { MAX_STATE_RECORDS, tooManyRecords } from '../instance/replace-state.js';
import type { MockContext } from '../instance/mock-context.js';
import { callNumber, notACallId, type CallFilter } from '../journal/journal.js';
import { isObject } from '../lib/json-value.js';
import { FILTERS, MAX_WAIT, type ControlError, type MockControl, type Outcome } from '../control/control.js';
import { isWrapped } from '../state/check-snapshot.js';
import { RouteTable } from '../plan/route-table.js';
import { problem, type Violation } from '../http/problems.js';
import { toProblem } from '../http/to-problem.js';
import { problemReply, type Reply } from '../http/reply.js';
import { unmatchedMethod, unmatchedPath } from '../http/unmatched.js';
import { json, noContent, streamed, type AdminEndpoint as Endpoint, type AdminRequest } from './admin-endpoint.js';
import { adminGuard } from '../handler/guards/admin-guard.js';
import { csrfGuard } from '../handler/guards/csrf-guard.js';
import { callsPage, PAGE_LIMIT, readCursor } from './calls-page.js';
import { createEventStreams, type EventStreams } from './event-streams.js';
import { INSPECTOR, inspectorFiles } from './inspector-files.js';
import { JOIN, joinSession, LEAVE, leaveSession, opensSession } from './join-session.js';
import { loopDelay } from './loop-delay.js';
import { isProbe, probeEndpoints, type ProbeParts } from './probe-endpoints.js';
import { recordEndpoints } from './record-endpoints.js';
import type { Unavailable } from '../instance/replication.js';
import { refusal, STATE_BODY_LIMIT, stateEndpoints, type RefusalKind } from './state-endpoints.js';

const ADMIN_BODY_LIMIT = 262_144;
/**
 * Endpoints that take larger bodies, read piece by piece as they arrive (see stream-json.ts): a whole state
 * (see STATE_BODY_LIMIT), a HAR, whose entries are counted as they come.
 */
const LARGE_BODIES: Record<string, BodyReading> = {
  'PUT /state': {
    bodyLimit: STATE_BODY_LIMIT,
    // The records of the bare map, or of `collections` (what GET /__mock/state answers): an array's items.
    readBody: createStreamingJsonReader(STATE_BODY_LIMIT, {
      paths: ['$.*.*', '$.collections.*.*'],
      counts: (key) => typeof key === 'number',
      max: MAX_STATE_RECORDS,
      tooMany: tooManyRecords('PUT /__mock/state'),
    }),
  },
  'POST /har': {
    bodyLimit: MAX_HAR_BYTES,
    readBody: createStreamingJsonReader(MAX_HAR_BYTES, {
      paths: ['$.log.entries.*'],
      max: MAX_HAR_ENTRIES,
      tooMany: TOO_MANY_HAR_ENTRIES,
    }),
  },
};
/** How unmatched requests name the admin API. */
const ADMIN = 'the admin API';
/** Below it, every path is a collection or a record of the state (record-endpoints.ts). */
const STATE_RECORDS = '/__mock/state/';

/** How an endpoint reads its body, and how large it may be. */
interface BodyReading {
  bodyLimit: number;
  readBody: BodyReader;
}

/** What the admin API serves besides the control: the live event streams, what the probes and metrics read. */
export interface AdminParts extends Partial<ProbeParts> {
  streams?: EventStreams;
}

/** An endpoint as routed: what answers, its path parameters, and how it reads a body (and how large). */
interface Routed extends BodyReading {
  endpoint: Endpoint;
  params: PathParamReader;
}

/**
 * The admin API: a table of endpoints routed like the contract (so an unknown path answers 404 listing the
 * endpoints, a wrong method 405 with `Allow`), each answering with a reply. The inspector page and its files
 * are served before the token is asked for: they hold no data (the page asks for the token itself).
 * @example createHandler(context, createAdminApi(context, controls, undefined), readBody)
 */
export function createAdminApi(
  context: MockContext,
  control: MockControl,
  token: string | undefined,
  { streams = createEventStreams(), closing = () => false, metrics }: AdminParts = {},
): AdminHandler {
  const guard = adminGuard(token);
  const refuseForgery = csrfGuard(context.options.cors);
  const { routes, listed, index, records } = adminRoutes(context, control, streams, { closing, metrics });
  const files = inspectorFiles();
  return (ex) => {
    const reading = ex.method === 'GET' || ex.method === 'HEAD';
    const atIndex = ex.path === '/__mock' || ex.path === '/__mock/';
    if (ex.path.startsWith(INSPECTOR)) return files.serveAsset(ex);
    // A browser at the banner's admin URL gets the page; a script, the JSON index. Without the slash, the
    // browser is sent to `__mock/` first: the page names its files relative to it, so it also works when
    // the mock is mounted under a prefix (`app.use('/api', mock.app)` serves it at /api/__mock/).
    if (atIndex && reading && prefersHtml(ex.req)) {
      if (ex.path === '/__mock')
        return writeAnswer(ex, { status: 302, headers: { Location: '__mock/', Vary: 'Accept' } });
      if (files.servePage(ex)) return;
    }
    const instance = targetOf(ex.req);
    // Joining or leaving a session sets a cookie and nothing else: no token (see join-session.ts), not authenticated;
    // nor do the probes, which an orchestrator sends without one and which hold no data.
    const open = opensSession(ex.method, ex.path) || isProbe(ex.method, ex.path);
    const refused =
      (open ? undefined : guard(ex.req.headers.authorization, instance)) ?? refuseForgery(ex.req, instance);
    if (refused) return writeAnswer(ex, refused);
    if (!open) ex.authenticate();
    if (atIndex && !reading) return writeAnswer(ex, unmatchedMethod({ ...ex, instance }, ADMIN, ['GET', 'HEAD']));
    // The state's collections and records answer their own 404 and 405 (they are the contract's, not a table's).
    const found =
      ex.path.startsWith(STATE_RECORDS) || (atIndex && reading)
        ? undefined
        : routes.find(ex.method === 'HEAD' ? 'get' : ex.method.toLowerCase(), ex.path);
    if (found?.kind === 'no-path') return writeAnswer(ex, unmatchedPath({ ...ex, instance }, ADMIN, listed));
    if (found?.kind === 'no-method') return writeAnswer(ex, unmatchedMethod({ ...ex, instance }, ADMIN, found.allow));
    run(context, control, ex, instance, found ? found.route.value : atIndex ? index : records);
  };
}

/** The admin API's routes: the table of endpoints, what it lists, the index, and the state's records. */
function adminRoutes(context: MockContext, control: MockControl, streams: EventStreams, probes: ProbeParts) {
  const reading: BodyReading = { bodyLimit: ADMIN_BODY_LIMIT, readBody: createJsonReader(ADMIN_BODY_LIMIT) };
  const routes = new RouteTable<Routed>(
    Object.entries(endpoints(context, control, streams, probes)).map(([key, endpoint]) => {
      const [method, path] = key.split(' ') as [string, string];
      const params = compilePathParams(`/__mock${path}`);
      return {
        method: method.toLowerCase(),
        path: `/__mock${path}`,
        value: { endpoint, params, ...(LARGE_BODIES[key] ?? reading) },
      };
    }),
  );
  // What the admin API has: the index at the banner's admin URL lists it, and so does every 404 below it.
  const listing = [
    ...routes.routes.map((r) => ({ method: r.method.toUpperCase(), path: r.path })),
    { method: 'GET|POST', path: '/__mock/state/{collection path}' },
    { method: 'GET|PUT|PATCH|DELETE', path: '/__mock/state/{collection path}/{id}' },
    { method: 'GET', path: `${INSPECTOR}{file}` },
  ];
  // The contract served now: a reload may have renamed it.
  const body = () => {
    const { title, version } = context.served.contract;
    return { title: 'The admin API of membership-mock', contract: { title, version }, endpoints: listing };
  };
  return {
    routes,
    listed: listing.map((e) => `${e.method} ${e.path}`),
    index: { endpoint: () => json(body(), 200, { Vary: 'Accept' }), params: () => ({}), ...reading } as Routed,
    records: { endpoint: recordEndpoints(context), params: () => ({}), ...reading } as Routed,
  };
}

/** Reads an admin request's body, then answers with what its endpoint replies (a failure as a problem). */
function run(context: MockContext, control: MockControl, ex: Exchange, instance: string, routed: Routed): void {
  const { endpoint, params, bodyLimit, readBody } = routed;
  readBody(ex, (error) => {
    if (error) return writeAnswer(ex, failure(context, ex, error, instance, bodyLimit));
    // A client that left (during a long-poll) has no one to answer; a stream answered itself.
    const answer = (reply: Reply | undefined) => {
      try {
        if (reply && !ex.res.destroyed) writeAnswer(ex, reply);
      } catch {
        ex.res.destroy(); // even the answer failed: close
      }
    };
    const { replication } = context;
    const unavailable = (why?: Unavailable) => answer(storeUnavailable(ex, why));
    // The endpoint runs in a section (the state it reads is current), and its answer goes out once what it
    // changed is shared; one that waits (a call, the metrics) answers when it is done.
    const respond = () => {
      let reply: Reply | undefined | Promise<Reply | undefined>;
      try {
        // The session is picked in the section: one that its applied changes dropped is not written to.
        const request = { ex, session: ex.session, body: ex.body, params: params(ex.path), instance, control };
        reply = endpoint(request);
      } catch (thrown) {
        reply = failure(context, ex, thrown, instance, bodyLimit);
      }
      if (!(reply instanceof Promise)) return replication.afterPublish(() => answer(reply), unavailable);
      reply.then(answer, (thrown: unknown) => answer(failure(context, ex, thrown, instance, bodyLimit)));
    };
    if (ex.path.startsWith('/__mock/health') || ex.path === '/__mock/metrics') return respond();
    replication.within(respond, unavailable);
  });
}

/** The endpoints, by `METHOD /path` below `/__mock`, in the order the 404 lists them. */
function endpoints(
  context: MockContext,
  control: MockControl,
  streams: EventStreams,
  probes: ProbeParts,
): Record<string, Endpoint> {
  return {
    'GET /health': () => health(context),
    ...probeEndpoints(context, probes),
    ...callEndpoints(context, control, streams),
    ...reportEndpoints(control),
    ...stateEndpoints(control),
    ...steeringEndpoints(control),
  };
}

/** The journal of the request's session: pages of calls, counts, waits, the live stream, a HAR of them. */
function callEndpoints(context: MockContext, control: MockControl, streams: EventStreams): Record<string, Endpoint> {
  return {
    'GET /calls': (r) =>
      withFilter(r, ['limit', 'cursor'], (filter, { limit = String(PAGE_LIMIT.default), cursor }) => {
        const size = Number(limit);
        if (!/^\d{1,4}$/.test(limit) || size < 1 || size > PAGE_LIMIT.max)
          return bad(r, `limit must be a whole number from 1 to ${PAGE_LIMIT.max}.`, 'limit');
        const after = cursor === undefined ? 0 : readCursor(cursor);
        if (after === undefined)
          return bad(r, 'cursor must be the next_cursor of a previous page, unchanged.', 'cursor');
        const checked = control.count(r.session.name, filter);
        return checked.ok ? callsPage(r.session.journal, filter, after, size) : refused(r, checked.error, 'query');
      }),
    'GET /calls.har': (r) =>
      withFilter(r, [], (filter) =>
        answer(r, control.exportHar(r.session.name, filter, r.ex.req.headers.host ?? 'localhost'), 'query', (chunks) =>
          streamed(chunks, { 'Content-Disposition': 'attachment; filename="membership-mock-calls.har"' }),
        ),
      ),
    'DELETE /calls': ({ session }) => {
      control.clearCalls(session.name);
      return noContent();
    },
    'GET /calls/count': (r) =>
      withFilter(r, [], (filter) =>
        answer(r, control.count(r.session.name, filter), 'query', (count) => json({ count })),
      ),
    'GET /calls/wait': (r) =>
      withFilter(r, ['timeout', 'since'], (filter, { timeout = '5000', since }) => {
        if (!/^\d{1,5}$/.test(timeout)) return bad(r, `timeout must be milliseconds from 0 to ${MAX_WAIT}.`, 'timeout');
        return wait(r, filter, { timeout: Number(timeout), since }, 'query');
      }),
    'POST /calls/wait': (r) => {
      // No body waits for any call; a body that is not an object names no match, and would answer any old call.
      const body = r.body === undefined ? {} : r.body;
      if (!isObject(body)) return bad(r, 'The body must be a JSON object: { match, timeout, since }.');
      const { match = {}, timeout, since } = body;
      return wait(r, match, { timeout, since }, 'body');
    },
    'GET /events': (r) =>
      withFilter(r, ['since'], (filter, { since }) => {
        const checked = control.count(r.session.name, filter);
        if (!checked.ok) return refused(r, checked.error, 'query');
        // A reconnect says where it was with Last-Event-ID, more recent than the since it first opened with.
        const header = r.ex.req.headers['last-event-id'];
        const lastId = typeof header === 'string' ? header : undefined;
        const given = lastId ?? since;
        const detail =
          given === undefined ? undefined : notACallId(lastId === undefined ? 'since' : 'Last-Event-ID', given);
        if (detail) {
          const violations: Violation[] = [
            lastId === undefined
              ? { location: 'query', pointer: '/since', message: detail }
              : { location: 'header', pointer: '/last-event-id', message: detail },
          ];
          return problemReply(problem('invalidRequest', detail, { instance: r.instance, violations }));
        }
        if (r.ex.method === 'HEAD') return { status: 200, headers: { 'Content-Type': 'text/event-stream' } };
        const after = given === undefined ? undefined : callNumber(given);
        return streams.open(r.ex, filter, { after, lastIssued: context.lastCallNumber() });
      }),
  };
}

/** What the calls say of the contract: operations and statuses seen, coverage, a Pact. */
function reportEndpoints(control: MockControl): Record<string, Endpoint> {
  return {
    'GET /operations': ({ session }) => json({ operations: control.operationsSeen(session.name) }),
    'GET /coverage': (r) => {
      const api = r.ex.query.api;
      if (Array.isArray(api)) return answer(r, control.coverage(api.join(',')), 'query', json);
      return answer(r, control.coverage(api), 'query', json);
    },
    'DELETE /coverage': () => {
      control.clearCoverage();
      return noContent();
    },
    'GET /pact': (r) =>
      answer(r, control.pact(r.ex.query), 'query', (pact) => {
        const file = `${String(r.ex.query.consumer)}-${String(r.ex.query.provider)}.json`;
        return json(pact, 200, { 'Content-Disposition': `attachment; filename="${file}"` });
      }),
  };
}

/** What steers the answers: overrides (a HAR's among them), faults, sessions, reset. */
function steeringEndpoints(control: MockControl): Record<string, Endpoint> {
  return {
    'POST /har': (r) => {
      const imported = control.importHar(r.session.name, r.body, r.ex.query.replay);
      if (imported.ok || imported.error.kind !== 'invalidRequest' || imported.error.at !== 'har')
        return answer(r, imported, 'query', json);
      return bad(r, `The body must be a HAR file: ${imported.error.detail}.`);
    },
    'GET /overrides': ({ session }) => json({ overrides: control.overrides(session.name) }),
    'POST /overrides': (r) =>
      answer(r, control.override(r.session.name, r.body), 'body', (override) => json(override, 201)),
    'DELETE /overrides': ({ session }) => {
      control.clearOverrides(session.name);
      return noContent();
    },
    'GET /faults': () => json({ faults: control.faults() }),
    'PUT /faults': (r) => answer(r, control.setFaults(r.body), 'body', (faults) => json({ faults })),
    'DELETE /faults': () => {
      control.clearFaults();
      return noContent();
    },
    'GET /sessions': () => json({ sessions: control.sessions() }),
    [`GET ${JOIN}`]: joinSession,
    [`GET ${LEAVE}`]: leaveSession,
    'POST /reset': ({ ex, session }) => {
      // Naming a session resets that one; otherwise everything is reset.
      const named = ex.req.headers['x-mock-session'] !== undefined || ex.query.session !== undefined;
      control.reset(named ? session.name : undefined);
      return noContent();
    },
    'DELETE /overrides/{id}': (r) => answer(r, control.removeOverride(r.session.name, r.params.id!), 'body', noContent),
  };
}

/** `GET /__mock/health`: the contract, the default session's store against its budget, memory; 503 while failing. */
function health(context: MockContext): Reply {
  const { contract } = context.served;
  const { title, version } = contract;
  const { rss, heapUsed } = process.memoryUsage();
  const memory = { rss, heapUsed, journal: context.journalBudget.used, journalLimit: context.journalBudget.bytes };
  // The store of the default session (the one a state file keeps), and how many sessions there are.
  const { store } = context.sessions.get('')!;
  const { records, bytes } = store.usage();
  const { budget } = store.limits;
  const state = {
    ...store.info(),
    records,
    bytes,
    // The budget every memory session shares (or the state file's own), and what it holds now.
    budget: budget.bytes,
    budgetUsed: budget.used,
    placeholders: context.placeholders.info(),
    sessions: context.sessions.size,
  };
  // A state file refusing writes is a mock that loses what people do: not healthy.
  const failing = state.failing === true;
  const body = {
    status: failing ? 'failing' : 'ok',
    contract: { title, version },
    operations: contract.operations.length,
  };
  return json({ ...body, state, memory, eventLoop: loopDelay() }, failing ? 503 : 200);
}

/**
 * Waits for a call in the request's session, ended when its client leaves: 200 `{ call }`, or the control's
 * refusal (408 with the closest calls, 410 when the session is dropped, 429 past the open waits).
 */
async function wait(
  r: AdminRequest,
  match: unknown,
  options: { timeout: unknown; since: unknown },
  location: 'query' | 'body',
): Promise<Reply> {
  const left = new AbortController();
  const leave = () => left.abort();
  r.ex.res.once('close', leave);
  if (r.ex.res.destroyed) left.abort();
  try {
    const waited = await r.control.waitForCall(r.session.name, match, { ...options, signal: left.signal });
    return answer(r, waited, location, (call) => json({ call }));
  } catch (error) {
    // The client left (the wait rejects with the signal's reason): it reads no answer, and no failure is logged.
    if (left.signal.aborted) return problemReply(problem('waitTimedOut', 'The client left before a call came.'));
    throw error;
  } finally {
    r.ex.res.off('close', leave);
  }
}

/**
 * Reads the journal filter from the query, and the endpoint's own parameters (`extra`) as they were given;
 * 400 for anything else, or a parameter given twice. The filter's values are the control's to check.
 */
function withFilter(
  request: AdminRequest,
  extra: string[],
  use: (filter: CallFilter, given: Record<string, string | undefined>) => Reply | undefined | Promise<Reply>,
): Reply | undefined | Promise<Reply> {
  const filter: CallFilter = {};
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.ex.query)) {
    if (name === 'session') continue;
    if (typeof value !== 'string') return bad(request, `The filter "${name}" must be given once.`, name);
    if (extra.includes(name)) given[name] = value;
    else if ((FILTERS as readonly string[]).includes(name)) filter[name as (typeof FILTERS)[number]] = value;
    else {
      const also = extra.length ? `; this endpoint also takes ${extra.join(', ')}` : '';
      return bad(request, `Unknown filter "${name}"; filter calls by ${FILTERS.join(', ')}${also}.`, name);
    }
  }
  return use(filter, given);
}

/** The control's outcome as an answer: `reply` of its value, or its refusal as a problem. */
function answer<T>(
  r: AdminRequest,
  outcome: Outcome<T>,
  location: 'query' | 'body',
  reply: (value: T) => Reply,
): Reply {
  return outcome.ok ? reply(outcome.value) : refused(r, outcome.error, location);
}

/** A refusal of the control surface as a problem: its violations point at the query parameter or the body. */
function refused(r: AdminRequest, error: ControlError, location: 'query' | 'body'): Reply {
  const { kind, detail, at, reasons, state, headers = {} } = error;
  if (state) return refusal(kind as RefusalKind, state, r.instance, isWrapped(r.body) ? '/collections' : '');
  // A query parameter is named by its pointer; a body's fault, as the endpoints always said it, by the body.
  const violations: Violation[] = reasons
    ? bodyViolations(reasons)
    : [
        at === undefined || location === 'body'
          ? { location: 'body', pointer: '', message: detail }
          : { location, pointer: `/${at}`, message: detail },
      ];
  return problemReply(problem(kind, detail, { instance: r.instance, violations }), headers);
}

/** A 400 naming the query parameter at fault, or the body. */
function bad({ instance }: AdminRequest, detail: string, name?: string): Reply {
  const violations: Violation[] = name
    ? [{ location: 'query', pointer: `/${name}`, message: detail }]
    : [{ location: 'body', pointer: '', message: detail }];
  return problemReply(problem('invalidRequest', detail, { instance, violations }));
}

/** A body that could not be read (400, 413...), or an endpoint that failed (500, logged). */
function failure(context: MockContext, ex: Exchange, error: unknown, instance: string, bodyLimit: number): Reply {
  const [found] = toProblem(error instanceof Error ? error : new Error(String(error)), instance, bodyLimit);
  if (isStateFailure(error)) context.logger.error(`${ex.method} ${instance} changed nothing: ${error.message}`);
  else if (found.status === 500)
    context.logger.error(`the admin endpoint ${ex.method} ${instance} failed: ${describe(error)}`);
  return problemReply(found);
}

function bodyViolations(errors: string[]): Violation[] {
  return errors.map((message) => ({ location: 'body', pointer: '', message }));
}

/** Whether a request prefers HTML to JSON: a browser's `Accept` does, a script's (`*\/*`, none) does not. */
function prefersHtml(req: IncomingMessage): boolean {
  return accepts(req).type(['application/json', 'text/html']) === 'text/html';
}

/** The request target as the client sent it (below a mount path, Express keeps the whole of it). */
function targetOf(req: IncomingMessage): string {
  return (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
}
