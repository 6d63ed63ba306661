// Builds the Express app of a mock from a loaded contract. It never listens: see server.ts and cli.ts.
import type { RequestListener } from 'node:http';
import type { Express } from 'express';
// Prism's modules, loaded where Prism finds them, before anything reads a contract.
import './node/prism-modules.js';
import { createAdminApi } from './admin/admin-api.js';
import { loadExpress } from './handler/express-module.js';
import { createEventStreams } from './admin/event-streams.js';
import { createMetrics } from './reports/metrics.js';
import { createControl } from './control/control.js';
import { createTestApi, type TestApi, type UntypedTestApi } from './control/test-api.js';
import { isContract, type Contract } from './contract/contract.js';
import { createHandler } from './handler/handle.js';
import { createBodyReader } from './handler/parse-body.js';
import { createProxyStage, type ProxyStage } from './handler/proxy.js';
import { compileProxyRules, type ProxyOptions, type ProxyRules } from './respond/proxy-rules.js';
import { apiNames, mountOf, unknownApi } from './contract/combine-contracts.js';
import { mockOperationId, ownCall, ownId } from './control/api-operation.js';
import type { MockOptions, ResolvedMockOptions } from './instance/options.js';
import { buildContext } from './instance/build-context.js';
import type { MockContext } from './instance/mock-context.js';
import type { CallMatch } from './journal/call-match.js';
import type { CallFilter, CallRecord } from './journal/journal.js';
import type { WaitOptions } from './journal/wait-for-call.js';
import { packageCreator } from './node/package-info.js';
import type { Override, OverrideSpec } from './respond/overrides.js';
import type { Typed, UntypedOperations } from './control/operation-types.js';

/** A mock built from a contract: the Express app plus what a test needs to look inside and steer it. */
export interface MockApp<Ops = UntypedOperations> extends TestApi<Ops> {
  /** The Express app: give it to supertest, or mount it in your own server (`app.use('/api', mock.app)`). */
  readonly app: Express;
  /**
   * The same mock as a plain Node request listener, without Express's per-request setup: what `startMock`
   * and the CLI serve. `http.createServer(mock.handle)`.
   */
  handle: RequestListener;
  /** The contract served now (it changes on reload). */
  readonly contract: Contract;
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

/** A mock as it is built: its test API takes any operationId, as the contract's are checked at run time. */
type UntypedMockApp = Omit<MockApp, keyof TestApi | 'api'> &
  UntypedTestApi & {
    api(name: string): UntypedApiView;
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
  // From JavaScript a path or a parsed document may come: say what to do, rather than fail deep inside.
  if (!isContract(contract))
    throw new TypeError(
      `createApp takes a loaded contract: createApp(await loadContract(${typeof contract === 'string' ? JSON.stringify(contract) : 'pathOrDocument'})). startMock takes a path or a document as it is.`,
    );
  const context = buildContext(contract, options);
  const resolved = context.options;
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
  // Made on first use: the CLI and startMock serve `handle`, and loading Express took a tenth of their start.
  let app: Express | undefined;

  const mock: UntypedMockApp = {
    get app() {
      if (!app) (app = bareExpress()).use((req, res) => handle(req, res));
      return app;
    },
    handle,
    get contract() {
      return context.served.contract;
    },
    ...createTestApi(control),
    reload: (next) => control.reload(next),
    api(name: string) {
      const apis = apiNames(context.served.contract);
      if (!apis.includes(name)) throw new TypeError(`api(): ${unknownApi(name, apis)}`);
      // The API's own operationId as the mock names it: `name:id` where another API has the same id.
      // Read at each use: a reload may change them.
      const ids = () => context.served.plans.filter((p) => p.operation.api === name).map((p) => p.operation.id);
      const toMock = (id: string | undefined): string | undefined =>
        id === undefined ? undefined : mockOperationId(name, id, ids());
      const fromMock = (call: CallRecord): CallRecord => ownCall(name, call);
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
  contexts.set(mock, context);
  // The operation types exist only for the compiler: the mock is the same whatever they are.
  return mock as unknown as MockApp<Ops>;
}

/** The context of each app made, for the process that serves it (the Redis store binds to it: server.ts). */
const contexts = new WeakMap<object, MockContext>();

/** The context behind an app `createApp` made. */
export function contextOfApp(mock: object): MockContext {
  const context = contexts.get(mock);
  if (!context) throw new TypeError('Not an app createApp made.');
  return context;
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

/** Express without the defaults a mock never wants: no X-Powered-By, no ETag, plain query parsing. */
function bareExpress(): Express {
  const app = loadExpress()();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  return app;
}
