// A client for a mock running in another process (`npm start`), over the admin API: the same test API,
// asynchronous.
import type { CallFilter, CallRecord } from '../journal/journal.js';
import { CallWaitTimeout, DEFAULT_WAIT, type WaitOptions } from '../journal/wait-for-call.js';
import type { CallMatch } from '../journal/call-match.js';
import type { Override, OverrideSpec } from '../respond/overrides.js';
import type { MockState, StoreSnapshot } from '../state/store.js';
import type { Coverage } from '../reports/coverage.js';
import type { HarImport, HarReplay } from '../respond/har-import.js';
import type { Pact, PactParties } from '../reports/pact.js';
import { mockOperationId, ownCall } from '../control/api-operation.js';
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
} from '../control/operation-types.js';

/** The test API of a mock in another process. Every method speaks to `/__mock` and may reject on HTTP errors. */
export interface RemoteMock<Ops = UntypedOperations> extends Typed<Ops> {
  url: string;
  /** Every recorded call that passes the filter; an operationId the contract lacks rejects (400). */
  calls<Id extends OperationId<Ops>>(filter: TypedFilter<Ops, Id>): Promise<TypedCall<Ops, Id>[]>;
  calls(filter?: Unnamed<Ops, CallFilter>): Promise<AnyCall<Ops>[]>;
  count(filter?: CallFilter & { operationId?: OperationId<Ops> }): Promise<number>;
  /** The first call that matches; rejects after the timeout (5000 ms) naming what was awaited and what came. */
  waitForCall<Id extends OperationId<Ops>>(
    match: TypedMatch<Ops, Id>,
    options?: WaitOptions,
  ): Promise<TypedCall<Ops, Id>>;
  waitForCall(match: Unnamed<Ops, CallMatch>, options?: WaitOptions): Promise<AnyCall<Ops>>;
  override<Id extends OperationId<Ops>, Status extends StatusOf<OperationOf<Ops, Id>> = never>(
    spec: TypedOverride<Ops, Id, Status>,
  ): Promise<TypedOverrideInForce<Ops, Id, Status>>;
  clearOverrides(): Promise<void>;
  /** Replays a HAR file's answers as overrides of this client's session (`POST /__mock/har`). */
  importHar(har: unknown, options?: { replay?: HarReplay }): Promise<HarImport>;
  /** This client's session's state, as `GET /__mock/state` answers it (`{ collections }`), as `state()` in process. */
  state(): Promise<MockState>;
  /**
   * How the calls so far, of every session, covered the contract (`GET /__mock/coverage`); with `api` (several
   * APIs), that API's alone, as if it were served alone (an API the mock lacks rejects, naming the nearest).
   */
  coverage(api?: string): Promise<Coverage>;
  /**
   * A Pact v3 of the calls so far, of every session (`GET /__mock/pact`); with `api`, that API's calls, with the
   * paths its provider serves.
   */
  pact(parties: PactParties): Promise<Pact>;
  /**
   * One API of a mock that serves several, typed from its own `operations`, as `mock.api(name)` in process: its
   * calls, waits and overrides, its operationIds as its own contract names them. A name the mock does not serve
   * rejects on first use, naming the nearest.
   * @example await connectMock(url).api<PaymentsOps>('payments').override({ operationId: 'createCharge', status: 402 })
   */
  api<ApiOps = UntypedOperations>(name: string): RemoteApiView<ApiOps>;
  /**
   * Replaces this client's session's state (`PUT /__mock/state`), partial records completed as fixtures are;
   * resolves with the state now in force, rejects with the message of the record at fault.
   * @example await remote.setState({ '/members/m1/passes': [{ status: 'suspended' }] })
   */
  setState(snapshot: StoreSnapshot | MockState): Promise<MockState>;
  /** Resets this client's session, or the whole mock when the client has none. */
  reset(): Promise<void>;
}

/** One API of a mock in another process (see {@link RemoteMock.api}). */
export type RemoteApiView<Ops = UntypedOperations> = Pick<RemoteMock<Ops>, 'calls' | 'waitForCall' | 'override'> &
  Typed<Ops> & { readonly name: string };

/** Options of {@link connectMock}. */
export interface RemoteOptions {
  /** Scope everything to this session (`X-Mock-Session`). @default none: the default session */
  session?: string;
  /** Extra headers for the admin API (an admin token, say). @default {} */
  headers?: Record<string, string>;
}

/** A URL without the slashes it ends with (trimmed one by one: a pattern on a run of slashes can be slow). */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}

/**
 * Connects to a running mock; `connectMock<operations>(url)` types its test API from openapi-typescript's
 * `operations`, as `startMock<operations>()` does.
 * @example
 * const mock = connectMock('http://127.0.0.1:4010');
 * await expect(mock).toHaveReceived('createPass', { pathParams: { member_id: 'm1' } });
 */
export function connectMock<Ops = UntypedOperations>(
  url: string,
  { session, headers = {} }: RemoteOptions = {},
): RemoteMock<Ops> {
  const base = withoutTrailingSlashes(url);
  const sent = { ...headers, ...(session ? { 'X-Mock-Session': session } : {}) };
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    okStatuses = [200, 201, 204],
  ): Promise<Response> => {
    // Every change is a JSON request (an empty object when there is nothing to say): never a "simple" request
    // a web page could send across origins without asking.
    const changes = method !== 'GET';
    const res = await fetch(`${base}/__mock${path}`, {
      method,
      headers: changes ? { ...sent, 'Content-Type': 'application/json' } : sent,
      body: changes ? JSON.stringify(body ?? {}) : undefined,
    });
    if (!okStatuses.includes(res.status)) {
      const text = await res.text();
      const detail = (() => {
        try {
          return (JSON.parse(text) as { detail?: string }).detail ?? text;
        } catch {
          return text;
        }
      })();
      throw new Error(`${method} ${base}/__mock${path} answered ${res.status}: ${detail}`);
    }
    return res;
  };
  const query = (filter: CallFilter = {}, extra: Record<string, string> = {}) => {
    const given = { ...filter, ...extra };
    const params = new URLSearchParams(Object.entries(given).filter(([, v]) => v !== undefined) as [string, string][]);
    return params.size ? `?${params}` : '';
  };
  const remote: UntypedRemoteMock = {
    url: base,
    async calls(filter?: CallFilter) {
      // The admin API answers in pages: follow them to the last.
      const calls: CallRecord[] = [];
      let cursor: string | null = null;
      do {
        const extra: Record<string, string> = cursor === null ? { limit: '1000' } : { limit: '1000', cursor };
        const res = await call('GET', `/calls${query(filter, extra)}`);
        const page = (await res.json()) as { calls: CallRecord[]; next_cursor: string | null };
        calls.push(...page.calls);
        cursor = page.next_cursor;
      } while (cursor !== null);
      return calls;
    },
    count: async (filter?: CallFilter) =>
      ((await (await call('GET', `/calls/count${query(filter)}`)).json()) as { count: number }).count,
    async waitForCall(match: CallMatch, { timeout = DEFAULT_WAIT, since }: WaitOptions = {}) {
      const res = await call('POST', '/calls/wait', { match, timeout, since }, [200, 408]);
      if (res.status === 200) return ((await res.json()) as { call: CallRecord }).call;
      // The mock says what was awaited and the closest calls it received, as the in-process wait does.
      throw new CallWaitTimeout(((await res.json()) as { detail: string }).detail);
    },
    override: async (spec: OverrideSpec) => (await (await call('POST', '/overrides', spec)).json()) as Override,
    importHar: async (har, { replay = 'sequence' } = {}) =>
      (await (await call('POST', `/har?replay=${replay}`, har)).json()) as HarImport,
    clearOverrides: async () => void (await call('DELETE', '/overrides')),
    coverage: async (api?: string) =>
      (await (
        await call('GET', `/coverage${api === undefined ? '' : `?${new URLSearchParams({ api })}`}`)
      ).json()) as Coverage,
    pact: async ({ consumer, provider, api }) => {
      const parties = new URLSearchParams({ consumer, provider, ...(api === undefined ? {} : { api }) });
      return (await (await call('GET', `/pact?${parties}`)).json()) as Pact;
    },
    api: (name) => apiView(remote, name),
    state: async () => (await (await call('GET', '/state')).json()) as MockState,
    setState: async (snapshot) => (await (await call('PUT', '/state', snapshot)).json()) as MockState,
    reset: async () => void (await call('POST', '/reset')),
  };
  // The operation types exist only for the compiler: the client is the same whatever they are.
  return remote as unknown as RemoteMock<Ops>;
}

/**
 * One API's view over the client, as app.ts builds it in process: its operationIds are read from the mock
 * (`GET /__mock/coverage?api=`, which refuses an API it lacks) at each use, so a reload is followed.
 */
function apiView(remote: UntypedRemoteMock, name: string): UntypedRemoteApiView {
  const toMock = async (id: string | undefined): Promise<string | undefined> => {
    const ids = (await remote.coverage(name)).operations.map((operation) => operation.operationId);
    return id === undefined ? undefined : mockOperationId(name, id, ids);
  };
  return {
    name,
    calls: async (filter = {}) =>
      (await remote.calls({ ...filter, operationId: await toMock(filter.operationId), contract: name })).map((c) =>
        ownCall(name, c),
      ),
    waitForCall: async (match, options) =>
      ownCall(
        name,
        await remote.waitForCall({ ...match, operationId: await toMock(match.operationId), contract: name }, options),
      ),
    override: async (spec) => remote.override({ ...spec, operationId: (await toMock(spec.operationId))! }),
  };
}

/** The client as it is built: any operationId, as the mock checks them. */
type UntypedRemoteMock = Omit<RemoteMock, 'calls' | 'waitForCall' | 'override' | 'api'> & {
  calls(filter?: CallFilter): Promise<CallRecord[]>;
  waitForCall(match: CallMatch, options?: WaitOptions): Promise<CallRecord>;
  override(spec: OverrideSpec): Promise<Override>;
  api(name: string): UntypedRemoteApiView;
};

/** An API's view as it is built: any operationId, checked against the API's at each use. */
type UntypedRemoteApiView = Pick<UntypedRemoteMock, 'calls' | 'waitForCall' | 'override'> & { name: string };
