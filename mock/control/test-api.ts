// The in-process test API of a mock, over its control surface (control.ts): what createApp, startMock and the
// MSW handlers hand a test. Each method carries a control; a refusal is thrown as a TypeError (or the wait's error).
import type { CallMatch } from '../journal/call-match.js';
import { JournalClosedError, type CallFilter, type CallRecord } from '../journal/journal.js';
import { CallWaitTimeout, DEFAULT_WAIT, type WaitOptions } from '../journal/wait-for-call.js';
import type { Coverage } from '../reports/coverage.js';
import type { Pact, PactParties } from '../reports/pact.js';
import type { HarImport, HarReplay } from '../respond/har-import.js';
import type { Override, OverrideSpec } from '../respond/overrides.js';
import type { MockState, StoreSnapshot } from '../state/store.js';
import type { Faults } from '../respond/faults.js';
import type { MockControl, Outcome } from './control.js';
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
} from './operation-types.js';

/** What a test reads and steers in a mock in its own process, typed by openapi-typescript's `operations`. */
export interface TestApi<Ops = UntypedOperations> extends Typed<Ops> {
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
  /**
   * Replaces the faults in force (latency, failures, drops) for every session, as `PUT /__mock/faults` does:
   * checked the same way, a refused spec throws a TypeError naming why.
   * @example mock.setFaults({ latency: '100-300', failureRate: 0.1 })
   */
  setFaults(spec: Faults): Faults;
  /** Removes every fault in force. */
  clearFaults(): void;
}

/** The test API as it is built: any operationId, checked at run time. */
export type UntypedTestApi = Omit<TestApi, 'calls' | 'waitForCall' | 'override'> & {
  calls(filter?: CallFilter, session?: string): CallRecord[];
  waitForCall(match: CallMatch, options?: WaitOptions & { session?: string }): Promise<CallRecord>;
  override(spec: OverrideSpec, session?: string): Override;
};

/**
 * The test API of a mock, carrying its control surface.
 * @example const api = createTestApi(createControl(context, { creator })); api.calls({ operationId: 'listPasses' })
 */
export function createTestApi(control: MockControl): UntypedTestApi {
  return {
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
    setFaults: (spec) => valueOf('setFaults()', control.setFaults(spec)),
    clearFaults: () => control.clearFaults(),
  };
}

/** The value of a control's outcome; its refusal thrown as a TypeError (`calls(): "createPas" is not …`). */
export function valueOf<T>(method: string, outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  throw new TypeError(method ? `${method}: ${outcome.error.detail}` : outcome.error.detail);
}
