// Builds the Express app of a mock from a loaded contract. It never listens: see server.ts and cli.ts.
import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
// Prism's modules, loaded where Prism finds them, before anything reads a contract.
import './node/prism-modules.js';
import { createAdminApi } from './admin/admin-api.js';
import { createEventStreams } from './admin/event-streams.js';
import type { MockControls } from './control/mock-controls.js';
import type { Contract } from './contract/contract.js';
import { createHandler } from './handler/handle.js';
import { createBodyReader } from './handler/parse-body.js';
import { createMockContext, dropSession, resetSession, restoreState, sessionOf } from './instance/mock-context.js';
import { recordMakerOf, replaceState } from './instance/replace-state.js';
import type { CallFilter, CallRecord } from './journal/journal.js';
import { DEFAULT_WAIT, waitForCall, waitTimeout, type WaitOptions } from './journal/wait-for-call.js';
import { resolveMockOptions, type MockOptions } from './instance/options.js';
import { readFaults } from './respond/faults.js';
import { checkResponseBody } from './prism/check-response.js';
import { checkCallMatch, unknownOperation, type CallMatch } from './journal/call-match.js';
import {
  MAX_OVERRIDES,
  OVERRIDE_BUDGET,
  overrideWeight,
  readOverride,
  type CheckResponse,
  type Override,
  type OverrideSpec,
} from './respond/overrides.js';
import { serve } from './plan/serve.js';
import { applyHar, readHar, type HarImport, type HarReplay } from './respond/har-import.js';
import { ContractRecord, type Coverage } from './reports/coverage.js';
import { toPact, type Pact, type PactParties } from './reports/pact.js';
import type {
  AnyCall,
  OperationId,
  OperationOf,
  StatusOf,
  Typed,
  TypedCall,
  TypedFilter,
  TypedMatch,
  TypedOverride,
  TypedOverrideInForce,
  Unnamed,
  UntypedOperations,
} from './testing/operation-types.js';
import { checkSnapshot } from './state/check-snapshot.js';
import { completeSnapshot } from './state/complete-record.js';
import { PlaceholderSource } from './state/placeholders.js';
import type { StoreSnapshot } from './state/store.js';

/** A mock built from a contract: the Express app plus what a test needs to look inside and steer it. */
export interface MockApp<Ops = UntypedOperations> extends Typed<Ops> {
  /** The Express app: give it to supertest, or mount it in your own server (`app.use('/api', mock.app)`). */
  app: Express;
  /**
   * The same mock as a plain Node request listener, without Express's per-request setup: what `startMock`
   * and the CLI serve. `http.createServer(mock.handle)`.
   */
  handle: RequestListener;
  /** The contract served now (it changes on reload). */
  readonly contract: Contract;
  /**
   * Copies of the recorded calls of a session (the default one unless named), oldest first. An operationId
   * the contract does not have throws (a misspelt one would match nothing).
   */
  calls<Id extends OperationId<Ops>>(filter: TypedFilter<Ops, Id>, session?: string): TypedCall<Ops, Id>[];
  calls(filter?: Unnamed<Ops, CallFilter>, session?: string): AnyCall<Ops>[];
  /**
   * Resolves with the first call that matches (already recorded or still to come); rejects after the timeout
   * (5000 ms) with a {@link CallWaitTimeout} naming what was awaited and the closest calls received instead,
   * and at once with a TypeError for a match that names a field or an operationId the contract lacks.
   */
  waitForCall<Id extends OperationId<Ops>>(
    match: TypedMatch<Ops, Id>,
    options?: WaitOptions & { session?: string },
  ): Promise<TypedCall<Ops, Id>>;
  waitForCall(match: Unnamed<Ops, CallMatch>, options?: WaitOptions & { session?: string }): Promise<AnyCall<Ops>>;
  /**
   * Answers the next calls of an operation differently: a documented status, a body (checked against the
   * contract: a body that breaks it throws), headers, a delay or a dropped connection. A session holds at
   * most 100 overrides in force; `match` and `body` are at most 64 KiB of JSON and 64 levels deep.
   * @example mock.override({ operationId: 'createPass', status: 500, times: 1 })
   */
  override<Id extends OperationId<Ops>, Status extends StatusOf<OperationOf<Ops, Id>> = never>(
    spec: TypedOverride<Ops, Id, Status>,
    session?: string,
  ): TypedOverrideInForce<Ops, Id, Status>;
  /**
   * Replays a HAR file's answers (a browser's network panel, or `GET /__mock/calls.har`) as overrides of a
   * session: each entry answers its request once, in the order recorded (`replay: 'sequence'`), or the last
   * answer of each request answers every time (`'last'`). Entries are checked as overrides are; those of no
   * operation, without a JSON answer, or breaking the contract are refused with why.
   * @throws TypeError when the document is no HAR
   * @example mock.importHar(JSON.parse(readFileSync('staging.har', 'utf8')))
   */
  importHar(har: unknown, options?: { session?: string; replay?: HarReplay }): HarImport;
  /** Removes every override of a session. */
  clearOverrides(session?: string): void;
  /** Clears the journals, overrides and named sessions, and returns the state to its initial contents. */
  reset(): void;
  /** A copy of a session's state, by collection path. */
  state(session?: string): StoreSnapshot;
  /**
   * Replaces a session's state (the default one unless named), as `PUT /__mock/state` does: `snapshot` is what
   * `state()` gives, or what `GET /__mock/state` answers. Records may leave fields out: the rest is made as a
   * create makes it, from the seed (ids too; `member_id` from the collection path). Every record is then
   * checked as fixtures are, all or nothing, within `collectionLimit` and the state budget (`stateBytes`).
   * @returns the state now in force, generated fields included
   * @throws StateError naming the record and what is wrong, as for fixtures
   * @example mock.setState({ '/members/m1/passes': [{ status: 'suspended' }] })
   */
  setState(snapshot: StoreSnapshot | { collections: StoreSnapshot }, session?: string): StoreSnapshot;
  /**
   * Replaces the default session's state with a snapshot of complete records, checked against the contract
   * first, whatever the limits (as a state file is read at start).
   */
  restore(snapshot: StoreSnapshot): void;
  /**
   * How the calls so far covered the contract: operations called, documented statuses seen and never seen,
   * request fields and query parameters sent and never sent, calls that broke the contract. Every session's
   * calls count, from the start (or `clearCoverage()`): resets between tests lose nothing.
   * @example expect(mock.coverage().summary.called).toBe(7)
   */
  coverage(): Coverage;
  /** Starts counting coverage (and the Pact's calls) again. */
  clearCoverage(): void;
  /**
   * A Pact v3 of the calls so far (every session's): one interaction per request shape, with matching rules
   * from the contract's schemas (see export/pact.ts); write it where your Pact tooling reads it.
   * @example writeFileSync('pacts/web-app-membership.json', JSON.stringify(mock.pact({ consumer: 'web-app', provider:
   * 'membership' })))
   */
  pact(parties: PactParties): Pact;
  /** Serves another version of the contract, keeping state and journal. */
  reload(contract: Contract): void;
  /**
   * Ends the event streams of `GET /__mock/events` open on this mock (the inspector's live calls): each client
   * reads the end of its stream. A server of your own calls it when it closes, as startMock's `close()` does,
   * since a stream never ends by itself. Returns how many were open.
   */
  endStreams(): number;
}

/** A mock as it is built: its test API takes any operationId, as the contract's are checked at run time. */
type UntypedMockApp = Omit<MockApp, 'calls' | 'waitForCall' | 'override'> & {
  calls(filter?: CallFilter, session?: string): CallRecord[];
  waitForCall(match: CallMatch, options?: WaitOptions & { session?: string }): Promise<CallRecord>;
  override(spec: OverrideSpec, session?: string): Override;
};

/**
 * Builds a mock of the contract. Give it openapi-typescript's `operations` type to have the test API check
 * operationIds, path parameters and bodies: `createApp<operations>(contract)`.
 * @example
 * const mock = createApp(await loadContract('contracts/membership.openapi.yaml'), { seed: 7 });
 * await request(mock.app).get('/members/m1/passes').set('Authorization', 'Bearer t').expect(200);
 * expect(mock.calls({ operationId: 'listPasses' })).toHaveLength(1);
 */
export function createApp<Ops = UntypedOperations>(contract: Contract, options: MockOptions = {}): MockApp<Ops> {
  const resolved = resolveMockOptions(options);
  if (resolved.admin !== false && resolved.admin.token === '')
    throw new TypeError('The admin token is empty: give a token, or none to leave the admin API open.');
  // Checked as PUT /__mock/faults checks them: a latency of another form ([100, 300]) is refused, not guessed at.
  const faults = readFaults(resolved.faults);
  if (!faults.ok) throw new TypeError(`The faults were refused: ${faults.errors.join('; ')}.`);
  resolved.faults = faults.faults;
  const served = serve(contract);
  const context = createMockContext(served, resolved);
  // Fixtures may leave fields out: they are made from this mock's seed, then every record is checked.
  const fixtures = completeSnapshot(recordMakerOf(context), resolved.state);
  context.initialState = checkSnapshot(fixtures, served.collections, 'the initial state');
  // A store of the caller's (the state file's) is served as it holds; it took the fixtures when it was new.
  if (!resolved.store) restoreState(context, sessionOf(context, ''), context.initialState);
  // Every call of every session, whatever resets them; a reload counts afresh.
  let record = new ContractRecord(served);
  context.callListeners.add((call, copy) => record.add(call, copy));
  let overrides = 0;
  // What each override in force weighs (see overrideWeight), by override: kept by this mock alone.
  const weights = new WeakMap<Override, number>();

  const controls: MockControls = {
    override(name, spec) {
      const session = sessionOf(context, name);
      if (session.overrides.length >= MAX_OVERRIDES) {
        const error =
          `this session already holds ${MAX_OVERRIDES} overrides, the most it may; ` +
          'remove some (DELETE /__mock/overrides, clearOverrides()) or let their times run out';
        return { ok: false, full: true, errors: [error] };
      }
      const check: CheckResponse = (operation, status, body) => checkResponseBody(operation.spec, body, status);
      const result = readOverride(spec, `override-${++overrides}`, context.served.plans, check);
      if (!result.ok) return result;
      // Every session's overrides together stay within a budget, so many sessions cannot fill the memory.
      const weight = overrideWeight(result.override);
      let held = 0;
      for (const { overrides: kept } of context.sessions.values())
        for (const override of kept) held += weights.get(override) ?? 0;
      if (held + weight > OVERRIDE_BUDGET) {
        const error =
          `the overrides of all sessions already hold ${held} of the ${OVERRIDE_BUDGET} bytes they may; ` +
          'remove some (DELETE /__mock/overrides, clearOverrides()), reset, or send smaller ones';
        return { ok: false, full: true, errors: [error] };
      }
      weights.set(result.override, weight);
      session.overrides.push(result.override);
      return result;
    },
    reset(session) {
      if (session !== undefined && session !== '') return resetSession(context, sessionOf(context, session));
      for (const name of [...context.sessions.keys()]) dropSession(context, name);
      resetSession(context, sessionOf(context, ''));
      const main = sessionOf(context, '');
      resolved.onStateChange(() => main.store.snapshot());
    },
    coverage: () => record.coverage(),
    clearCoverage: () => record.clear(),
    pact(parties) {
      const { calls, leftOut } = record.shapes();
      return toPact(calls, context.served.plans, parties, leftOut);
    },
  };

  const streams = createEventStreams();
  const handle = createHandler(
    context,
    resolved.admin === false ? undefined : createAdminApi(context, controls, resolved.admin.token, streams),
    createBodyReader(resolved.bodyLimit),
  );
  const app = bareExpress();
  app.use((req, res) => handle(req, res));

  // A misspelt operationId or match field would match nothing, and a test expecting no such call pass.
  const checkMatch = (match: CallMatch): string | undefined =>
    checkCallMatch(match) ??
    (match.operationId === undefined ? undefined : unknownOperation(match.operationId, context.served.operationIds));
  const mock: UntypedMockApp = {
    app,
    handle,
    get contract() {
      return context.served.contract;
    },
    calls(filter: CallFilter = {}, session = ''): CallRecord[] {
      const unknown =
        filter.operationId === undefined
          ? undefined
          : unknownOperation(filter.operationId, context.served.operationIds);
      if (unknown) throw new TypeError(`calls(): ${unknown}`);
      return sessionOf(context, session).journal.list(filter);
    },
    async waitForCall(match: CallMatch, { session = '', ...wait }: WaitOptions & { session?: string } = {}) {
      const wrong = checkMatch(match);
      if (wrong) throw new TypeError(`waitForCall(): ${wrong}`);
      const { journal } = sessionOf(context, session);
      const call = await waitForCall(journal, match, wait);
      if (call) return call;
      throw waitTimeout(match, wait.timeout ?? DEFAULT_WAIT, journal.list());
    },
    override(spec: OverrideSpec, session = '') {
      const result = controls.override(session, spec);
      if (!result.ok) throw new TypeError(`The override was refused: ${result.errors.join('; ')}.`);
      return result.override;
    },
    importHar(har, { session = '', replay = 'sequence' } = {}) {
      const outcomes = readHar(har, context.served, replay);
      if (typeof outcomes === 'string') throw new TypeError(`importHar(): ${outcomes}.`);
      return applyHar(outcomes, (spec) => controls.override(session, spec));
    },
    clearOverrides: (session = '') => void (sessionOf(context, session).overrides.length = 0),
    reset: () => controls.reset(),
    state: (session = '') => sessionOf(context, session).store.snapshot(),
    setState(snapshot, session = '') {
      const result = replaceState(context, sessionOf(context, session), snapshot, 'setState()');
      if (!result.ok) throw result.error;
      return result.snapshot;
    },
    coverage: () => controls.coverage(),
    clearCoverage: () => controls.clearCoverage(),
    pact: (parties) => controls.pact(parties),
    restore(snapshot) {
      restoreState(
        context,
        sessionOf(context, ''),
        checkSnapshot(snapshot, context.served.collections, 'the restored state'),
      );
    },
    reload(next) {
      context.served = serve(next);
      // Coverage is of the contract served: a new one starts counting again.
      record = new ContractRecord(context.served);
      // Placeholders follow the new contract's schemas; pages were made with the old contract's envelopes.
      context.placeholders = new PlaceholderSource(
        context.served.collections,
        context.generator,
        resolved.placeholders,
      );
      for (const session of context.sessions.values()) session.pages.clear();
    },
    endStreams: () => streams.endAll(),
  };
  // The operation types exist only for the compiler: the mock is the same whatever they are.
  return mock as unknown as MockApp<Ops>;
}

/** Express without the defaults a mock never wants: no X-Powered-By, no ETag, plain query parsing. */
function bareExpress(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  return app;
}
