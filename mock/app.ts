// Builds the Express app of a mock from a loaded contract. It never listens: see server.ts and cli.ts.
import express, { type Express } from 'express';
import { adminRouter } from './admin/admin-router.js';
import type { Contract } from './contract/load-contract.js';
import { handleError } from './handler/handle-error.js';
import { handleRequest } from './handler/handle-request.js';
import { createMockContext, resetMockContext } from './handler/mock-context.js';
import type { CallFilter, CallRecord } from './journal/journal.js';
import { resolveMockOptions, type MockOptions } from './options.js';

/** A mock built from a contract: the Express app plus what a test needs to look inside it. */
export interface MockApp {
  /** The Express app: give it to supertest, or mount it in your own server. */
  app: Express;
  contract: Contract;
  /** Copies of the recorded calls, oldest first, optionally filtered. */
  calls(filter?: CallFilter): CallRecord[];
  /** Clears the journal and everything else the mock holds. */
  reset(): void;
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
  const context = createMockContext(contract, resolved);
  const reset = () => resetMockContext(context);
  const limit = resolved.bodyLimit;

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use('/__mock', adminRouter(context, reset));
  app.use(express.json({ limit, strict: false, type: ['application/json', 'application/*+json'] }));
  app.use(express.urlencoded({ limit, extended: false }));
  app.use(express.text({ limit, type: 'text/*' }));
  app.use(express.raw({ limit, type: () => true }));
  app.use(handleRequest(context));
  app.use(handleError(context));

  return { app, contract, calls: (filter) => context.journal.list(filter), reset };
}
