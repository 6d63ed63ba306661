// Builds the Express app of a mock from a loaded contract. It never listens: see server.ts and cli.ts.
import express, { type Express } from 'express';
import { adminRouter } from './admin/admin-router.js';
import type { Contract } from './contract/load-contract.js';
import { cors } from './handler/cors.js';
import { handleError } from './handler/handle-error.js';
import { handleRequest } from './handler/handle-request.js';
import { logRequests } from './handler/log-requests.js';
import { matchRoute } from './handler/match-route.js';
import { parseBody } from './handler/parse-body.js';
import { createMockContext, resetMockContext, restoreState, serve } from './handler/mock-context.js';
import type { CallFilter, CallRecord } from './journal/journal.js';
import { resolveMockOptions, type MockOptions } from './options.js';
import { checkSnapshot } from './state/check-snapshot.js';
import type { StoreSnapshot } from './state/store.js';

/** A mock built from a contract: the Express app plus what a test needs to look inside it. */
export interface MockApp {
  /** The Express app: give it to supertest, or mount it in your own server. */
  app: Express;
  /** The contract served now (it changes on reload). */
  readonly contract: Contract;
  /** Copies of the recorded calls, oldest first, optionally filtered. */
  calls(filter?: CallFilter): CallRecord[];
  /** Clears the journal and returns the state to its initial contents. */
  reset(): void;
  /** A copy of the state, by collection path. */
  state(): StoreSnapshot;
  /** Replaces the state with a snapshot (checked against the contract first). */
  restore(snapshot: StoreSnapshot): void;
  /** Serves another version of the contract, keeping state and journal. */
  reload(contract: Contract): void;
}

/**
 * Builds a mock of the contract.
 * @example
 * const mock = createApp(await loadContract('contracts/membership.openapi.yaml'), { seed: 7 });
 * await request(mock.app).get('/members/m1/passes').set('Authorization', 'Bearer t').expect(200);
 * expect(mock.calls({ operationId: 'listPasses' })).toHaveLength(1);
 */
export function createApp(contract: Contract, options: MockOptions = {}): MockApp {
  const resolved = resolveMockOptions(options);
  const served = serve(contract);
  const initial = checkSnapshot(resolved.state, served.collections, 'the initial state');
  const context = createMockContext(served, resolved, initial);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(logRequests(resolved));
  app.use(cors(context));
  app.use('/__mock', adminRouter(context, () => resetAndNotify()));
  app.use(matchRoute(context));
  app.use(parseBody(resolved.bodyLimit));
  app.use(handleRequest(context));
  app.use(handleError(context));

  function resetAndNotify(): void {
    resetMockContext(context);
    resolved.onStateChange(context.store.snapshot());
  }

  return {
    app,
    get contract() {
      return context.served.contract;
    },
    calls: (filter) => context.journal.list(filter),
    reset: resetAndNotify,
    state: () => context.store.snapshot(),
    restore(snapshot) {
      restoreState(context, checkSnapshot(snapshot, context.served.collections, 'the restored state'));
    },
    reload(next) {
      context.served = serve(next);
    },
  };
}
