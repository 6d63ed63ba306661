// The admin API under /__mock: health, the call journal, reset. Its own requests are never journaled.
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from 'express';
import type { CallFilter } from '../journal/journal.js';
import type { MockContext } from '../handler/mock-context.js';
import { problem } from '../problems/problems.js';

const FILTERS = ['operationId', 'method', 'path'] as const;

/** The admin endpoints, for people and test suites. `reset` clears everything the mock holds. */
export function adminRouter(context: MockContext, reset: () => void): Router {
  const router = express.Router();
  const endpoints: Record<string, Record<string, (req: Request, res: Response) => void>> = {
    '/health': {
      GET: (_req, res) => {
        res.json({ status: 'ok', contract: { title: context.served.contract.title, version: context.served.contract.version }, operations: context.served.contract.operations.length });
      },
    },
    '/calls': {
      GET: (req, res) => {
        const filter = readFilter(req, res);
        if (!filter) return;
        res.json({ calls: context.journal.list(filter), dropped: context.journal.dropped });
      },
      DELETE: (_req, res) => {
        context.journal.clear();
        res.status(204).end();
      },
    },
    '/state': {
      GET: (_req, res) => {
        res.json({ collections: context.store.snapshot() });
      },
    },
    '/reset': {
      POST: (_req, res) => {
        reset();
        res.status(204).end();
      },
    },
  };

  router.use((req, res) => {
    const methods = endpoints[req.path];
    if (!methods) {
      const list = Object.entries(endpoints).flatMap(([path, m]) => Object.keys(m).map((method) => `${method} /__mock${path}`));
      return sendProblem(res, problem('routeNotFound', `/__mock${req.path} is not an admin endpoint. There are: ${list.join(', ')}.`, { instance: req.originalUrl }));
    }
    const handler = methods[req.method === 'HEAD' ? 'GET' : req.method];
    if (!handler) {
      const allow = Object.keys(methods).join(', ');
      res.set('Allow', allow);
      return sendProblem(res, problem('methodNotAllowed', `${req.method} is not defined for /__mock${req.path}; use ${allow}.`, { instance: req.originalUrl }));
    }
    handler(req, res);
  });
  // Admin failures answer as problems too, and stay out of the journal like every admin request.
  router.use(((error, req, res, _next) => {
    sendProblem(res, problem('internal', `The admin endpoint failed: ${(error as Error).message}`, { instance: req.originalUrl }));
  }) as ErrorRequestHandler);
  return router;
}

function readFilter(req: Request, res: Response): CallFilter | undefined {
  const query = req.query as Record<string, unknown>;
  const filter: CallFilter = {};
  for (const [name, value] of Object.entries(query)) {
    if (!(FILTERS as readonly string[]).includes(name)) {
      sendProblem(res, problem('invalidRequest', `Unknown filter "${name}"; filter calls by ${FILTERS.join(', ')}.`, { instance: req.originalUrl, violations: [{ location: 'query', pointer: `/${name}`, message: `not one of ${FILTERS.join(', ')}` }] }));
      return undefined;
    }
    if (typeof value !== 'string') {
      sendProblem(res, problem('invalidRequest', `The filter "${name}" must be given once.`, { instance: req.originalUrl, violations: [{ location: 'query', pointer: `/${name}`, message: 'must be a single value' }] }));
      return undefined;
    }
    filter[name as (typeof FILTERS)[number]] = value;
  }
  return filter;
}

function sendProblem(res: Response, body: ReturnType<typeof problem>): void {
  res.status(body.status).type('application/problem+json').send(JSON.stringify(body));
}
