// Builds the Express app of a mock from a loaded contract. It never listens: see server.ts and cli.ts.
import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
// Prism's modules, loaded where Prism finds them, before anything reads a contract.
import './node/prism-modules.js';
import { createAdminApi } from './admin/admin-api.js';
import { createEventStreams } from './admin/event-streams.js';
import { createMetrics } from './reports/metrics.js';
import { createControl, type Outcome } from './control/control.js';
import type { Contract } from './contract/contract.js';
import { warnGuardedPatterns } from './contract/guarded-patterns.js';
import { createHandler } from './handler/handle.js';
import { createBodyReader } from './handler/parse-body.js';
import { createProxyStage, type ProxyStage } from './handler/proxy.js';
import { compileProxyRules, type ProxyOptions, type ProxyRules } from './respond/proxy-rules.js';
import { apiNames, mountOf, unknownApi } from './contract/combine-contracts.js';
import { unknownOperation } from './journal/call-match.js';
import { createMockContext, restoreState, sessionOf, type MockContext } from './instance/mock-context.js';
import { recordMakerOf } from './instance/replace-state.js';
import { resolveMockOptions, type MockOptions, type ResolvedMockOptions } from './instance/options.js';
import type { CallMatch } from './journal/call-match.js';
import { JournalClosedError, type CallFilter, type CallRecord } from './journal/journal.js';
import { CallWaitTimeout, DEFAULT_WAIT, type WaitOptions } from './journal/wait-for-call.js';
import { packageCreator } from './node/package-info.js';
import { serve } from './plan/serve.js';
import type { Coverage } from './reports/coverage.js';
import type { Pact, PactParties } from './reports/pact.js';
import { readFaults } from './respond/faults.js';
import type { HarImport, HarReplay } from './respond/har-import.js';
import type { Override, OverrideSpec } from './respond/overrides.js';
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
import { checkSnapshot, wasChecked } from './state/check-snapshot.js';
import { completeSnapshot } from './state/complete-record.js';
import type { MockState, StoreSnapshot } from './state/store.js';

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
  /**
   * A copy of a session's state, as `GET /__mock/state` answers it: `{ collections }`, records by collection path.
   * @example mock.state().collections['/members/m1/passes']
   */
  state(session?: string): MockState;
  /**
   * Replaces a session's state (the default one unless named), as `PUT /__mock/state` does: `snapshot` is what
   * `state()` gives, or what `GET /__mock/state` answers. Records may leave fields out: the rest is made as a
   * create makes it, from the seed (ids too; `member_id` from the collection path). Every record is then
   * checked as fixtures are, all or nothing, within `collectionLimit` and the state budget (`stateBytes`).
   * @returns the state now in force, generated fields included
   * @throws StateError naming the record and what is wrong, as for fixtures
   * @example mock.setState({ '/members/m1/passes': [{ status: 'suspended' }] })
   */
  setState(snapshot: StoreSnapshot | MockState, session?: string): MockState;
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
  coverage(api?: string): Coverage;
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
   * since a stream never ends by itself. From then on `GET /__mock/health/ready` answers 503: the mock is
   * closing. Returns how many were open.
   */
  endStreams(): number;
  /**
   * One API of a mock that serves several (`contracts`), typed from its own `operations`: its calls, waits and
   * overrides, its operationIds as its own contract names them (`createCharge`, whatever another API has). A
   * name the mock does not serve throws, naming the nearest.
   * @example mock.api<PaymentsOps>('payments').override({ operationId: 'createCharge', status: 402, times: 1 })
   */
  api<ApiOps = UntypedOperations>(name: string): ApiView<ApiOps>;
}

/** One API of a mock that serves several: the test API of its own operations (see {@link MockApp.api}). */
export type ApiView<Ops = UntypedOperations> = Pick<MockApp<Ops>, 'calls' | 'waitForCall' | 'override'> &
  Typed<Ops> & { readonly name: string };

/** An API's view as it is built: any operationId, checked at run time. */
type UntypedApiView = {
  name: string;
  calls(filter?: CallFilter, session?: string): CallRecord[];
  waitForCall(match: CallMatch, options?: WaitOptions & { session?: string }): Promise<CallRecord>;
  override(spec: OverrideSpec, session?: string): Override;
};

/** An operationId as its API's own contract names it, without the `api:` the mock put before a shared one. */
function ownId(api: string, id: string): string {
  return id.startsWith(`${api}:`) ? id.slice(api.length + 1) : id;
}

/** A mock as it is built: its test API takes any operationId, as the contract's are checked at run time. */
type UntypedMockApp = Omit<MockApp, 'calls' | 'waitForCall' | 'override' | 'api'> & {
  api(name: string): UntypedApiView;
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
  const resolved = checkedOptions(options);
  const context = contextOf(contract, resolved);
  const control = createControl(context, { creator: packageCreator });

  const streams = createEventStreams();
  const proxyRules = compileProxies(contract, resolved);
  const stages: ProxyStage[] = [];
  // Readiness fails from the moment the server begins to close (endStreams).
  let closing = false;
  const admin =
    resolved.admin === false
      ? undefined
      : createAdminApi(context, control, resolved.admin.token, {
          streams,
          closing: () => closing,
          metrics: createMetrics(context),
        });
  const handle = createHandler(
    context,
    admin,
    createBodyReader(resolved.bodyLimit),
    proxyRules &&
      ((finish) => {
        const byApi = new Map<string | undefined, ProxyStage>();
        for (const [api, rules] of proxyRules) {
          const stage = createProxyStage(context, rules, finish);
          stages.push(stage);
          byApi.set(api, stage);
        }
        const all = byApi.get(undefined);
        return (api) => (api === undefined ? all : (byApi.get(api) ?? all));
      }),
  );
  const app = bareExpress();
  app.use((req, res) => handle(req, res));

  const mock: UntypedMockApp = {
    app,
    handle,
    get contract() {
      return context.served.contract;
    },
    calls: (filter = {}, session = '') => valueOf('calls()', control.calls(session, filter)),
    async waitForCall(match: CallMatch, { session = '', ...wait }: WaitOptions & { session?: string } = {}) {
      const waited = await control.waitForCall(session, match, { timeout: DEFAULT_WAIT, ...wait });
      if (waited.ok) return waited.value;
      if (waited.error.kind === 'waitTimedOut') throw new CallWaitTimeout(waited.error.detail);
      if (waited.error.kind === 'sessionDropped') throw new JournalClosedError();
      throw new TypeError(`waitForCall(): ${waited.error.detail}`);
    },
    override: (spec: OverrideSpec, session = '') => valueOf('', control.override(session, spec)),
    importHar(har, { session = '', replay = 'sequence' } = {}) {
      const imported = control.importHar(session, har, replay);
      if (imported.ok) return imported.value;
      throw new TypeError(`importHar(): ${imported.error.detail}${imported.error.at === 'har' ? '.' : ''}`);
    },
    clearOverrides: (session = '') => control.clearOverrides(session),
    reset: () => control.reset(),
    state: (session = '') => ({ collections: control.state(session) }),
    setState(snapshot, session = '') {
      const result = control.setState(session, snapshot, 'setState()');
      if (!result.ok) throw result.error.state;
      return { collections: result.value };
    },
    coverage: (api?: string) => valueOf('coverage()', control.coverage(api)),
    clearCoverage: () => control.clearCoverage(),
    pact: (parties) => valueOf('pact()', control.pact(parties)),
    restore: (snapshot) => control.restore(snapshot),
    reload: (next) => control.reload(next),
    api(name: string) {
      const apis = apiNames(context.served.contract);
      if (!apis.includes(name)) throw new TypeError(`api(): ${unknownApi(name, apis)}`);
      // The API's own operationId as the mock names it: `name:id` where another API has the same id.
      const toMock = (id: string | undefined): string | undefined => {
        if (id === undefined) return undefined;
        const plan = context.served.plans.find(
          (p) => p.operation.api === name && (p.operation.id === id || p.operation.id === `${name}:${id}`),
        );
        if (plan) return plan.operation.id;
        const own = context.served.plans
          .filter((p) => p.operation.api === name)
          .map((p) => ownId(name, p.operation.id));
        throw new TypeError(unknownOperation(id, own));
      };
      const fromMock = (call: CallRecord): CallRecord =>
        call.operationId === null ? call : { ...call, operationId: ownId(name, call.operationId) };
      const view: UntypedApiView = {
        name,
        calls: (filter = {}, session = '') =>
          mock.calls({ ...filter, operationId: toMock(filter.operationId), contract: name }, session).map(fromMock),
        waitForCall: async (match, options) =>
          fromMock(
            await mock.waitForCall({ ...match, operationId: toMock(match.operationId), contract: name }, options),
          ),
        override: (spec, session) => mock.override({ ...spec, operationId: toMock(spec.operationId)! }, session),
      };
      return view;
    },
    endStreams: () => {
      closing = true;
      // The server is closing: the upstreams' kept-alive connections go too.
      for (const stage of stages) stage.close();
      return streams.endAll();
    },
  };
  // The operation types exist only for the compiler: the mock is the same whatever they are.
  return mock as unknown as MockApp<Ops>;
}

/**
 * The proxy's rules: the mock's `proxy` for every API (key `undefined`), and each API's own backend
 * (`proxies`), whose `mockOnly`/`proxyOnly` name that API's own operationIds; none when nothing goes upstream.
 */
function compileProxies(
  contract: Contract,
  resolved: ResolvedMockOptions,
): Map<string | undefined, ProxyRules> | undefined {
  const { proxy, proxies, errors } = resolved;
  const apis = apiNames(contract);
  const named = Object.keys(proxies);
  for (const api of named) if (!apis.includes(api)) throw new TypeError(`proxies: ${unknownApi(api, apis)}`);
  if (!proxy && named.length === 0) return undefined;
  const rules = new Map<string | undefined, ProxyRules>();
  if (proxy) refuseOwnBackends(contract, proxy, named);
  if (proxy)
    rules.set(
      undefined,
      compileProxyRules(
        proxy,
        contract.operations.map((op) => op.id),
        { errors },
      ),
    );
  for (const api of named) {
    const own = contract.operations.filter((op) => op.api === api).map((op) => ownId(api, op.id));
    let compiled: ProxyRules;
    try {
      compiled = compileProxyRules(proxies[api]!, own, { errors, mount: mountOf(contract, api) });
    } catch (error) {
      throw new TypeError(`The backend of ${api}: ${(error as Error).message}`);
    }
    rules.set(api, { ...compiled, proxies: (id) => compiled.proxies(ownId(api, id)) });
  }
  return rules;
}

/**
 * Refuses the whole mock's backend naming, in its mockOnly or proxyOnly, an operation of an API with a backend
 * of its own: that API's requests never go to it, so the name would be silently moot.
 */
function refuseOwnBackends(contract: Contract, proxy: ProxyOptions, withOwn: string[]): void {
  for (const option of ['mockOnly', 'proxyOnly'] as const) {
    for (const name of proxy[option] ?? []) {
      const api = contract.operations.find((op) => op.id === name)?.api;
      if (api !== undefined && withOwn.includes(api))
        throw new TypeError(
          `proxy.${option}: ${name} is an operation of ${api}, which has its own backend: name it in that backend's ${option}.`,
        );
    }
  }
}

/** The options, defaulted, with what a caller may get wrong refused at once (as the admin API refuses it). */
function checkedOptions(options: MockOptions): ResolvedMockOptions {
  const resolved = resolveMockOptions(options);
  if (resolved.admin !== false && resolved.admin.token === '')
    throw new TypeError('The admin token is empty: give a token, or none to leave the admin API open.');
  // Checked as PUT /__mock/faults checks them: a latency of another form ([100, 300]) is refused, not guessed at.
  const faults = readFaults(resolved.faults);
  if (!faults.ok) throw new TypeError(`The faults were refused: ${faults.errors.join('; ')}.`);
  return { ...resolved, faults: faults.faults };
}

/** The mock's context, its default session holding the fixtures (or the caller's store as it holds). */
function contextOf(contract: Contract, resolved: ResolvedMockOptions): MockContext {
  const served = serve(contract);
  const context = createMockContext(served, resolved);
  warnGuardedPatterns(contract.operations, context.logger.warn);
  const { onCall } = resolved;
  if (onCall) context.callListeners.add((_call, copy) => onCall(copy()));
  // Fixtures may leave fields out: they are made from this mock's seed, then every record is checked (once:
  // startMock's were, to name their file).
  context.initialState = wasChecked(resolved.state, served.collections)
    ? resolved.state
    : checkSnapshot(completeSnapshot(recordMakerOf(context), resolved.state), served.collections, 'the initial state');
  // A store of the caller's (the state file's) is served as it holds; it took the fixtures when it was new.
  if (!resolved.store) restoreState(context, sessionOf(context, ''), context.initialState);
  return context;
}

/** The value of a control's outcome; its refusal thrown as a TypeError (`calls(): "createPas" is not …`). */
function valueOf<T>(method: string, outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  throw new TypeError(method ? `${method}: ${outcome.error.detail}` : outcome.error.detail);
}

/** Express without the defaults a mock never wants: no X-Powered-By, no ETag, plain query parsing. */
function bareExpress(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  return app;
}
