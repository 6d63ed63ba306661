// The admin API under /__mock: health, the call journal (list, count, wait), state, overrides, reset.
// Its own requests are never journaled. `X-Mock-Session` (or `?session=`) picks the session.
import type { ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import type { CallFilter } from '../journal/journal.js';
import { waitForCall } from '../journal/wait-for-call.js';
import { toProblem } from '../handler/handle-error.js';
import { problemReply, writeReply } from '../handler/send-reply.js';
import type { MockContext, Session } from '../handler/mock-context.js';
import { problem, type Problem } from '../problems/problems.js';
import { checkCallMatch, type CallMatch } from '../respond/call-match.js';
import { readFaults } from '../respond/faults.js';
import type { MockControls } from './mock-controls.js';

const FILTERS = ['operationId', 'method', 'path'] as const;
const MAX_WAIT = 60_000;
const ADMIN_BODY_LIMIT = 262_144;

type Endpoint = (req: Request, res: Response) => unknown;

const sessions = new WeakMap<ServerResponse, Session>();

/** Hands an admin request's session to the admin API: the listener chose it (see handler/handle.ts). */
export function enterAdmin(res: ServerResponse, session: Session): void {
  sessions.set(res, session);
}

function currentSession(res: Response): Session {
  return sessions.get(res)!;
}

/** The admin endpoints, for people, test suites and the remote client. */
export function adminRouter(context: MockContext, controls: MockControls): Router {
  const router = express.Router();
  router.use(express.json({ limit: ADMIN_BODY_LIMIT, strict: true }));
  const endpoints: Record<string, Record<string, Endpoint>> = {
    '/health': {
      GET: (_req, res) => {
        const { contract } = context.served;
        res.json({
          status: 'ok',
          contract: { title: contract.title, version: contract.version },
          operations: contract.operations.length,
        });
      },
    },
    '/calls': {
      GET: (req, res) =>
        withFilter(req, res, (filter) =>
          res.json({ calls: currentSession(res).journal.list(filter), dropped: currentSession(res).journal.dropped }),
        ),
      DELETE: (_req, res) => {
        currentSession(res).journal.clear();
        res.status(204).end();
      },
    },
    '/calls/count': {
      GET: (req, res) =>
        withFilter(req, res, (filter) => res.json({ count: currentSession(res).journal.count(filter) })),
    },
    '/calls/wait': {
      GET: (req, res) =>
        withFilter(req, res, (filter, { timeout, since }) => wait(res, filter, timeout, since), ['timeout', 'since']),
      POST: (req, res) => {
        const {
          match = {},
          timeout = 5000,
          since,
        } = (req.body ?? {}) as { match?: CallMatch; timeout?: unknown; since?: unknown };
        if (typeof timeout !== 'number' || timeout < 0 || timeout > MAX_WAIT)
          return bad(res, req, `timeout must be milliseconds from 0 to ${MAX_WAIT}.`);
        const wrong = checkCallMatch(match);
        if (wrong) return bad(res, req, wrong);
        return wait(res, match, timeout, typeof since === 'string' ? since : undefined);
      },
    },
    '/state': {
      GET: (_req, res) => void res.json({ collections: currentSession(res).store.snapshot() }),
    },
    '/overrides': {
      GET: (_req, res) => void res.json({ overrides: currentSession(res).overrides }),
      POST: (req, res) => {
        const result = controls.override(currentSession(res).name, req.body);
        if (!result.ok)
          return sendProblem(
            res,
            problem('invalidOverride', `The override was refused: ${result.errors.join('; ')}.`, {
              instance: req.originalUrl,
              violations: result.errors.map((message) => ({ location: 'body', pointer: '', message })),
            }),
          );
        res.status(201).json(result.override);
      },
      DELETE: (_req, res) => {
        currentSession(res).overrides.length = 0;
        res.status(204).end();
      },
    },
    '/faults': {
      GET: (_req, res) => void res.json({ faults: context.faults }),
      PUT: (req, res) => {
        const result = readFaults(req.body);
        if (!result.ok)
          return sendProblem(
            res,
            problem('invalidRequest', `The faults were refused: ${result.errors.join('; ')}.`, {
              instance: req.originalUrl,
              violations: result.errors.map((message) => ({ location: 'body', pointer: '', message })),
            }),
          );
        context.faults = result.faults;
        res.json({ faults: context.faults });
      },
      DELETE: (_req, res) => {
        context.faults = {};
        res.status(204).end();
      },
    },
    '/sessions': {
      GET: (_req, res) =>
        void res.json({
          sessions: [...context.sessions.values()].map((s) => ({
            name: s.name,
            calls: s.journal.count(),
            overrides: s.overrides.length,
          })),
        }),
    },
    '/reset': {
      POST: (req, res) => {
        controls.reset(
          req.headers['x-mock-session'] !== undefined || req.query.session !== undefined
            ? currentSession(res).name
            : undefined,
        );
        res.status(204).end();
      },
    },
  };

  router.use((req, res, next) => {
    const override = /^\/overrides\/([^/]+)$/.exec(req.path);
    if (override && req.method === 'DELETE') {
      const list = currentSession(res).overrides;
      const index = list.findIndex((o) => o.id === override[1]);
      if (index < 0)
        return sendProblem(
          res,
          problem('notFound', `There is no override ${override[1]} in this session.`, { instance: req.originalUrl }),
        );
      list.splice(index, 1);
      return void res.status(204).end();
    }
    const methods = endpoints[req.path];
    if (!methods) {
      const list = Object.entries(endpoints).flatMap(([path, m]) =>
        Object.keys(m).map((method) => `${method} /__mock${path}`),
      );
      return sendProblem(
        res,
        problem(
          'routeNotFound',
          `/__mock${req.path} is not an admin endpoint. There are: ${list.join(', ')}, DELETE /__mock/overrides/{id}.`,
          { instance: req.originalUrl },
        ),
      );
    }
    const handler = methods[req.method === 'HEAD' ? 'GET' : req.method];
    if (!handler) {
      const allow = Object.keys(methods).join(', ');
      res.set('Allow', allow);
      return sendProblem(
        res,
        problem('methodNotAllowed', `${req.method} is not defined for /__mock${req.path}; use ${allow}.`, {
          instance: req.originalUrl,
        }),
      );
    }
    Promise.resolve(handler(req, res)).catch(next);
  });
  // Admin failures answer as problems too, and stay out of the journal like every admin request.
  router.use(((error: Error, req, res, _next) => {
    const [found] = toProblem(error, req.originalUrl, ADMIN_BODY_LIMIT);
    if (found.status === 500)
      console.error(
        `membership-mock: the admin endpoint ${req.method} ${req.originalUrl} failed: ${error.stack ?? error.message}`,
      );
    sendProblem(res, found);
  }) as ErrorRequestHandler);
  return router;
}

async function wait(res: Response, match: CallMatch, timeout: number, since: string | undefined): Promise<void> {
  const call = await waitForCall(currentSession(res).journal, match, { timeout, since });
  if (call) return void res.json({ call });
  sendProblem(res, problem('waitTimedOut', `No call matching ${JSON.stringify(match)} arrived within ${timeout} ms.`));
}

function withFilter(
  req: Request,
  res: Response,
  use: (filter: CallFilter, wait: { timeout: number; since?: string }) => unknown,
  extra: string[] = [],
): unknown {
  const query = req.query as Record<string, unknown>;
  const filter: CallFilter = {};
  const wait: { timeout: number; since?: string } = { timeout: 5000 };
  for (const [name, value] of Object.entries(query)) {
    if (name === 'session') continue;
    if (typeof value !== 'string') return bad(res, req, `The filter "${name}" must be given once.`, name);
    if (name === 'timeout' && extra.includes(name)) {
      wait.timeout = Number(value);
      if (!/^\d+$/.test(value) || wait.timeout > MAX_WAIT)
        return bad(res, req, `timeout must be milliseconds from 0 to ${MAX_WAIT}.`, name);
    } else if (name === 'since' && extra.includes(name)) wait.since = value;
    else if ((FILTERS as readonly string[]).includes(name)) filter[name as (typeof FILTERS)[number]] = value;
    else return bad(res, req, `Unknown filter "${name}"; filter calls by ${[...FILTERS, ...extra].join(', ')}.`, name);
  }
  return use(filter, wait);
}

function bad(res: Response, req: Request, detail: string, name?: string): void {
  const violations = name
    ? [{ location: 'query' as const, pointer: `/${name}`, message: detail }]
    : [{ location: 'body' as const, pointer: '', message: detail }];
  sendProblem(res, problem('invalidRequest', detail, { instance: req.originalUrl, violations }));
}

function sendProblem(res: Response, body: Problem): void {
  writeReply(res, problemReply(body));
}
