// The admin API under /__mock: health, the call journal (list, count, wait), state, overrides, faults,
// sessions, reset. Its own requests are never journaled; `X-Mock-Session` (or `?session=`) picks the session;
// a change must be a request no web page can forge (csrf-guard.ts).
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import accepts from 'accepts';
import { compilePathParams, type PathParamReader } from '../http/path-params.js';
import type { Exchange } from '../handler/exchange.js';
import type { AdminHandler } from '../handler/handle.js';
import { describe, isStateFailure } from '../handler/handle-error.js';
import { createJsonReader, type BodyReader } from '../handler/parse-body.js';
import { writeAnswer } from '../handler/send-reply.js';
import type { MockContext } from '../instance/mock-context.js';
import { callNumber, type CallFilter } from '../journal/journal.js';
import { RouteTable } from '../plan/route-table.js';
import { problem, type Violation } from '../http/problems.js';
import { toProblem } from '../http/to-problem.js';
import { problemReply, type Reply } from '../http/reply.js';
import { checkCallMatch, unknownOperation, type CallMatch } from '../journal/call-match.js';
import { readFaults } from '../respond/faults.js';
import { json, noContent, type AdminEndpoint as Endpoint, type AdminRequest } from './admin-endpoint.js';
import { adminGuard } from '../handler/guards/admin-guard.js';
import { csrfGuard } from '../handler/guards/csrf-guard.js';
import { callsPage, PAGE_LIMIT, readCursor } from './calls-page.js';
import { toHar, type HarCreator } from '../reports/har-export.js';
import { applyHar, readHar } from '../respond/har-import.js';
import { createEventStreams, type EventStreams } from './event-streams.js';
import { INSPECTOR, inspectorFiles } from './inspector-files.js';
import { operationsSeen } from '../reports/operations-seen.js';
import type { MockControls } from '../control/mock-controls.js';
import { createWaits, type OpenWait } from './open-waits.js';
import { recordEndpoints } from './record-endpoints.js';
import { STATE_BODY_LIMIT, stateEndpoints } from './state-endpoints.js';

const FILTERS = ['operationId', 'method', 'path'] as const;
const MAX_WAIT = 60_000;
const ADMIN_BODY_LIMIT = 262_144;
/** A HAR a browser saved holds the page's own files too: room for a long session's worth. */
const HAR_BODY_LIMIT = 32 * 1024 * 1024;
/** Endpoints that take larger bodies: a whole state (see STATE_BODY_LIMIT), a HAR. */
const BODY_LIMITS: Record<string, number> = { 'PUT /state': STATE_BODY_LIMIT, 'POST /har': HAR_BODY_LIMIT };
/** Below it, every path is a collection or a record of the state (record-endpoints.ts). */
const STATE_RECORDS = '/__mock/state/';

/** An endpoint as routed: what answers, its path parameters, and how it reads a body (and how large). */
interface Routed {
  endpoint: Endpoint;
  params: PathParamReader;
  bodyLimit: number;
  readBody: BodyReader;
}

/**
 * The admin API: a table of endpoints routed like the contract (so an unknown path answers 404 listing the
 * endpoints, a wrong method 405 with `Allow`), each answering with a reply. The inspector page and its files
 * are served before the token is asked for: they hold no data (the page asks for the token itself).
 * @example createHandler(context, createAdminApi(context, controls, undefined), readBody)
 */
export function createAdminApi(
  context: MockContext,
  controls: MockControls,
  token: string | undefined,
  streams: EventStreams = createEventStreams(),
): AdminHandler {
  const guard = adminGuard(token);
  const refuseForgery = csrfGuard(context.options.cors);
  const readBody = createJsonReader(ADMIN_BODY_LIMIT);
  const reading = (limit = ADMIN_BODY_LIMIT) => ({
    bodyLimit: limit,
    readBody: limit === ADMIN_BODY_LIMIT ? readBody : createJsonReader(limit),
  });
  const routes = new RouteTable<Routed>(
    Object.entries(endpoints(context, controls, createWaits(), streams)).map(([key, endpoint]) => {
      const [method, path] = key.split(' ') as [string, string];
      return {
        method: method.toLowerCase(),
        path: `/__mock${path}`,
        value: { endpoint, params: compilePathParams(`/__mock${path}`), ...reading(BODY_LIMITS[key]) },
      };
    }),
  );
  const records: Routed = { endpoint: recordEndpoints(context), params: () => ({}), ...reading() };
  // What the admin API has: the index at the banner's admin URL lists it, and so does every 404 below it.
  const listing = [
    ...routes.routes.map((r) => ({ method: r.method.toUpperCase(), path: r.path })),
    { method: 'GET|POST', path: '/__mock/state/{collection path}' },
    { method: 'GET|PUT|PATCH|DELETE', path: '/__mock/state/{collection path}/{id}' },
    { method: 'GET', path: `${INSPECTOR}{file}` },
  ];
  const listed = listing.map((e) => `${e.method} ${e.path}`).join(', ');
  const index: Routed = {
    endpoint: () =>
      json(
        {
          title: 'The admin API of membership-mock',
          contract: { title: context.served.contract.title, version: context.served.contract.version },
          endpoints: listing,
        },
        200,
        { Vary: 'Accept' },
      ),
    params: () => ({}),
    ...reading(),
  };

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
    const refused = guard(ex.req.headers.authorization, instance) ?? refuseForgery(ex.req, instance);
    if (refused) return writeAnswer(ex, refused);
    ex.authenticate();
    // The state's collections and records answer their own 404 and 405 (they are the contract's, not a table's).
    if (atIndex && !reading) {
      const detail = `${ex.method} is not defined for ${ex.path}; use GET.`;
      return writeAnswer(ex, problemReply(problem('methodNotAllowed', detail, { instance }), { Allow: 'GET, HEAD' }));
    }
    const found =
      ex.path.startsWith(STATE_RECORDS) || (atIndex && reading)
        ? undefined
        : routes.find(ex.method === 'HEAD' ? 'get' : ex.method.toLowerCase(), ex.path);
    if (found?.kind === 'no-path') {
      const detail = `${ex.path} is not an admin endpoint. There are: ${listed}.`;
      return writeAnswer(ex, problemReply(problem('routeNotFound', detail, { instance })));
    }
    if (found?.kind === 'no-method') {
      const allow = found.allow.join(', ');
      const detail = `${ex.method} is not defined for ${ex.path}; use ${allow}.`;
      return writeAnswer(ex, problemReply(problem('methodNotAllowed', detail, { instance }), { Allow: allow }));
    }
    const { endpoint, params, bodyLimit, readBody } = found ? found.route.value : atIndex ? index : records;
    readBody(ex, (error) => {
      if (error) return writeAnswer(ex, failure(context, ex, error, instance, bodyLimit));
      const request = { ex, session: ex.session, body: ex.body, params: params(ex.path), instance };
      // A client that left (during a long-poll) has no one to answer; a stream answered itself.
      const answer = (reply: Reply | undefined) => {
        if (reply && !ex.res.destroyed) writeAnswer(ex, reply);
      };
      new Promise<Reply | undefined>((resolve) => resolve(endpoint(request)))
        .then(answer, (thrown: unknown) => answer(failure(context, ex, thrown, instance, bodyLimit)))
        .catch(() => ex.res.destroy()); // even the answer failed: close, never an unhandled rejection
    });
  };
}

/** The endpoints, by `METHOD /path` below `/__mock`, in the order the 404 lists them. */
function endpoints(
  context: MockContext,
  controls: MockControls,
  wait: OpenWait,
  streams: EventStreams,
): Record<string, Endpoint> {
  const operationIds = () => context.served.operationIds;
  return {
    'GET /health': () => {
      const { contract } = context.served;
      const { title, version } = contract;
      const { rss, heapUsed } = process.memoryUsage();
      const memory = { rss, heapUsed, journal: context.journalBudget.used, journalLimit: context.journalBudget.bytes };
      // The store of the default session (the one a state file keeps), and how many sessions there are.
      const main = context.sessions.get('')!;
      const { store } = main;
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
      return json(
        {
          status: failing ? 'failing' : 'ok',
          contract: { title, version },
          operations: contract.operations.length,
          state,
          memory,
        },
        failing ? 503 : 200,
      );
    },
    'GET /calls': (r) =>
      withFilter(r, ['limit', 'cursor'], operationIds, (filter, { limit = String(PAGE_LIMIT.default), cursor }) => {
        const size = Number(limit);
        if (!/^\d{1,4}$/.test(limit) || size < 1 || size > PAGE_LIMIT.max)
          return bad(r, `limit must be a whole number from 1 to ${PAGE_LIMIT.max}.`, 'limit');
        const after = cursor === undefined ? 0 : readCursor(cursor);
        if (after === undefined)
          return bad(r, 'cursor must be the next_cursor of a previous page, unchanged.', 'cursor');
        return callsPage(r.session.journal, filter, after, size);
      }),
    'GET /calls.har': (r) =>
      withFilter(r, [], operationIds, (filter) => {
        const host = r.ex.req.headers.host ?? 'localhost';
        const har = toHar(r.session.journal.list(filter), creator(), host);
        return json(har, 200, { 'Content-Disposition': 'attachment; filename="membership-mock-calls.har"' });
      }),
    'DELETE /calls': ({ session }) => {
      session.journal.clear();
      return noContent();
    },
    'GET /calls/count': (r) =>
      withFilter(r, [], operationIds, (filter) => json({ count: r.session.journal.count(filter) })),
    'GET /calls/wait': (r) =>
      withFilter(r, ['timeout', 'since'], operationIds, (filter, { timeout = '5000', since }) => {
        if (!/^\d{1,5}$/.test(timeout) || Number(timeout) > MAX_WAIT)
          return bad(r, `timeout must be milliseconds from 0 to ${MAX_WAIT}.`, 'timeout');
        return wait(r.ex, filter, Number(timeout), since);
      }),
    'POST /calls/wait': (r) => {
      const {
        match = {},
        timeout = 5000,
        since,
      } = (r.body ?? {}) as { match?: CallMatch; timeout?: unknown; since?: unknown };
      if (typeof timeout !== 'number' || timeout < 0 || timeout > MAX_WAIT) {
        return bad(r, `timeout must be milliseconds from 0 to ${MAX_WAIT}.`);
      }
      const wrong =
        checkCallMatch(match) ??
        (match.operationId === undefined ? undefined : unknownOperation(match.operationId, operationIds()));
      if (wrong) return bad(r, wrong);
      return wait(r.ex, match, timeout, typeof since === 'string' ? since : undefined);
    },
    'GET /events': (r) =>
      withFilter(r, ['since'], operationIds, (filter, { since }) => {
        // A reconnect says where it was with Last-Event-ID, more recent than the since it first opened with.
        const header = r.ex.req.headers['last-event-id'];
        const lastId = typeof header === 'string' ? header : undefined;
        const given = lastId ?? since;
        const after = given === undefined ? undefined : callNumber(given);
        if (given !== undefined && after === undefined) {
          const where = lastId === undefined ? 'since' : 'Last-Event-ID';
          const detail = `${where} must be the id of a call the stream sent (call-12), not ${JSON.stringify(given)}.`;
          const violations: Violation[] = [
            lastId === undefined
              ? { location: 'query', pointer: '/since', message: detail }
              : { location: 'header', pointer: '/last-event-id', message: detail },
          ];
          return problemReply(problem('invalidRequest', detail, { instance: r.instance, violations }));
        }
        if (r.ex.method === 'HEAD') return { status: 200, headers: { 'Content-Type': 'text/event-stream' } };
        return streams.open(r.ex, filter, { after, lastIssued: context.lastCallNumber() });
      }),
    'GET /operations': ({ session }) => json({ operations: operationsSeen(context.served, session.journal) }),
    'POST /har': (r) => {
      const { replay = 'sequence' } = r.ex.query;
      if (replay !== 'sequence' && replay !== 'last')
        return bad(r, 'replay must be "sequence" (each entry answers once, in order) or "last".', 'replay');
      const outcomes = readHar(r.body, context.served, replay);
      if (typeof outcomes === 'string') return bad(r, `The body must be a HAR file: ${outcomes}.`);
      return json(applyHar(outcomes, (spec) => controls.override(r.session.name, spec)));
    },
    'GET /coverage': () => json(controls.coverage()),
    'DELETE /coverage': () => {
      controls.clearCoverage();
      return noContent();
    },
    'GET /pact': (r) => {
      const { consumer, provider } = r.ex.query;
      for (const [name, value] of Object.entries({ consumer, provider }))
        if (typeof value !== 'string' || !/^[\w.-]{1,100}$/.test(value))
          return bad(r, `${name} must be given once: a name of letters, digits, ".", "-" or "_".`, name);
      const parties = { consumer: consumer as string, provider: provider as string };
      const pact = controls.pact(parties);
      const file = `${parties.consumer}-${parties.provider}.json`;
      return json(pact, 200, { 'Content-Disposition': `attachment; filename="${file}"` });
    },
    ...stateEndpoints(context),
    'GET /overrides': ({ session }) => json({ overrides: session.overrides }),
    'POST /overrides': ({ session, body, instance }) => {
      const result = controls.override(session.name, body);
      if (result.ok) return json(result.override, 201);
      const detail = `The override was refused: ${result.errors.join('; ')}.`;
      const kind = result.full ? 'tooManyOverrides' : 'invalidOverride';
      return problemReply(problem(kind, detail, { instance, violations: bodyViolations(result.errors) }));
    },
    'DELETE /overrides': ({ session }) => {
      session.overrides.length = 0;
      return noContent();
    },
    'GET /faults': () => json({ faults: context.faults }),
    'PUT /faults': ({ body, instance }) => {
      const result = readFaults(body);
      if (!result.ok) {
        const detail = `The faults were refused: ${result.errors.join('; ')}.`;
        return problemReply(problem('invalidRequest', detail, { instance, violations: bodyViolations(result.errors) }));
      }
      context.faults = result.faults;
      return json({ faults: context.faults });
    },
    'DELETE /faults': () => {
      context.faults = {};
      return noContent();
    },
    'GET /sessions': () => {
      const sessions = [...context.sessions.values()];
      return json({
        sessions: sessions.map((s) => ({
          name: s.name,
          calls: s.journal.count(),
          overrides: s.overrides.length,
          waiters: s.journal.waiters,
        })),
      });
    },
    'POST /reset': ({ ex, session }) => {
      // Naming a session resets that one; otherwise everything is reset.
      const named = ex.req.headers['x-mock-session'] !== undefined || ex.query.session !== undefined;
      controls.reset(named ? session.name : undefined);
      return noContent();
    },
    'DELETE /overrides/{id}': ({ session, params, instance }) => {
      const index = session.overrides.findIndex((o) => o.id === params.id);
      if (index < 0)
        return problemReply(problem('notFound', `There is no override ${params.id} in this session.`, { instance }));
      session.overrides.splice(index, 1);
      return noContent();
    },
  };
}

/**
 * Reads the journal filter from the query, and the endpoint's own parameters (`extra`) as they were given;
 * 400 for anything else, or a parameter given twice.
 */
function withFilter(
  request: AdminRequest,
  extra: string[],
  operationIds: () => string[],
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
  const unknown = filter.operationId === undefined ? undefined : unknownOperation(filter.operationId, operationIds());
  if (unknown) return bad(request, unknown, 'operationId');
  return use(filter, given);
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

let packageCreator: HarCreator | undefined;

/** The mock as a HAR's creator: its package's name and version, read once (from the source tree or dist). */
function creator(): HarCreator {
  if (packageCreator) return packageCreator;
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const { name, version } = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as HarCreator;
      if (name === 'membership-mock') return (packageCreator = { name, version });
    } catch {
      // not there: the other layout
    }
  }
  return (packageCreator = { name: 'membership-mock', version: 'unknown' });
}

/** The request target as the client sent it (below a mount path, Express keeps the whole of it). */
function targetOf(req: IncomingMessage): string {
  return (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
}
