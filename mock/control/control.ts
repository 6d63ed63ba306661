// The one control surface of a mock: everything a test or a person steers or reads (calls, waits, overrides,
// faults, state, reset, coverage, Pact, HAR), implemented once with every input check and limit in it. The
// in-process test API (app.ts), the admin endpoints (admin/) and connectMock (through the endpoints) carry it.
import type { ProblemKind } from '../http/problems.js';
import type { Contract } from '../contract/contract.js';
import { warnGuardedPatterns } from '../contract/guarded-patterns.js';
import {
  dropSession,
  placeholdersOf,
  resetSession,
  restoreState,
  sessionOf,
  sessionsByUse,
  stateChanged,
  type MockContext,
} from '../instance/mock-context.js';
import { serve } from '../plan/serve.js';
import { checkSnapshot } from '../state/check-snapshot.js';
import { PlaceholderSource } from '../state/placeholders.js';
import { replaceState, replaceStateGradually, type ReplaceStateResult } from '../instance/replace-state.js';
import { ALONE } from '../instance/replication.js';
import { checkCallMatch, unknownOperation, type CallMatch } from '../journal/call-match.js';
import {
  callNumber,
  JournalClosedError,
  notACallId,
  type CallFilter,
  type CallRecord,
  type Journal,
} from '../journal/journal.js';
import { apiNames, mountOf, unknownApi } from '../contract/combine-contracts.js';
import { NEAR_MISS_WINDOW, waitForCall, waitTimeout } from '../journal/wait-for-call.js';
import { checkResponseBody } from '../prism/check-response.js';
import { CallTally, type Coverage } from '../reports/coverage.js';
import { harText, type HarCreator } from '../reports/har-export.js';
import { operationsSeen, type OperationSeen } from '../reports/operations-seen.js';
import { toPact, type Pact, type PactParties } from '../reports/pact.js';
import { readFaults, type Faults } from '../respond/faults.js';
import {
  importHar,
  TOO_MANY_HAR_ENTRIES,
  type HarImport,
  type HarReplay,
  type SetOverride,
} from '../respond/har-import.js';
import {
  MAX_OVERRIDES,
  OVERRIDE_BUDGET,
  overrideWeight,
  readOverride,
  sizeErrors,
  valueWeight,
  type CheckResponse,
  type Override,
} from '../respond/overrides.js';
import type { StateError } from '../state/check-snapshot.js';
import type { StoreSnapshot } from '../state/store.js';

/** Why an override does not fit a session that holds as many as it may. */
const SESSION_FULL =
  `this session already holds ${MAX_OVERRIDES} overrides, the most it may; ` +
  'remove some (DELETE /__mock/overrides, clearOverrides()) or let their times run out';

/** A refusal of the control surface: the problem to answer, and the input at fault. */
export interface ControlError {
  kind: ProblemKind;
  detail: string;
  /** The input at fault: a filter or option name (`operationId`, `timeout`), when one is. */
  at?: string;
  /** Each reason, when there are several (an override's, the faults'). */
  reasons?: string[];
  /** A refused state: the record and field at fault (see admin/state-endpoints.ts). */
  state?: StateError;
  /** Headers the answer carries (`Retry-After` for too many waits). */
  headers?: Record<string, string>;
}

/** What a control did: its value, or why it refused (nothing changed then). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ControlError };

/** How long a wait may last at most, and by default. */
export const MAX_WAIT = 60_000;
export { DEFAULT_WAIT } from '../journal/wait-for-call.js';
/** The most waits open at once across every session of a mock; past it, a wait is refused (429). */
export const MAX_WAITS = 1000;
/** What the matches of every open wait may weigh together (see valueWeight); past it, a wait is refused (429). */
export const WAIT_BUDGET = 16 * 1024 * 1024;
/** The filter names calls are read by. */
export const FILTERS = ['operationId', 'contract', 'method', 'path'] as const;

/** What a wait takes besides its match. */
export interface WaitRequest {
  /** Milliseconds, 0 to {@link MAX_WAIT}. @default 5000 */
  timeout?: unknown;
  /** Only calls after this one (`call-12`). */
  since?: unknown;
  /** Ends the wait early (its client left). */
  signal?: AbortSignal;
}

/** A session as `GET /__mock/sessions` lists it. */
export interface SessionSummary {
  name: string;
  calls: number;
  overrides: number;
  waiters: number;
}

/** Everything a test or a person controls in a mock, for a session by name (`''` is the default one). */
export interface MockControl {
  /** Copies of the calls that pass the filter, oldest first. */
  calls(session: string, filter?: unknown): Outcome<CallRecord[]>;
  /** How many calls pass the filter. */
  count(session: string, filter?: unknown): Outcome<number>;
  /** Forgets the session's calls. */
  clearCalls(session: string): void;
  /** The first call that matches (recorded already, or still to come); `waitTimedOut` names the closest calls. */
  waitForCall(session: string, match: unknown, request?: WaitRequest): Promise<Outcome<CallRecord>>;
  overrides(session: string): readonly Override[];
  /** Checks an override against the contract and the limits (per session, and in bytes across sessions). */
  override(session: string, spec: unknown): Outcome<Override>;
  removeOverride(session: string, id: string): Outcome<void>;
  clearOverrides(session: string): void;
  faults(): Faults;
  setFaults(spec: unknown): Outcome<Faults>;
  clearFaults(): void;
  /** The session's state, by collection path (what clients changed, with its placeholders). */
  state(session: string): StoreSnapshot;
  /** The same state as the text of `{ "collections": { … } }`, made one collection at a time as it is read. */
  stateText(session: string): Iterable<string>;
  /** Replaces the session's state, records completed and checked as fixtures are, all or nothing. */
  setState(session: string, snapshot: unknown, source: string): Outcome<StoreSnapshot>;
  /** The same, a slice at a time: other requests are answered meanwhile (the admin API's way). */
  setStateGradually(
    session: string,
    snapshot: unknown,
    source: string,
  ): Outcome<StoreSnapshot> | Promise<Outcome<StoreSnapshot>>;
  /** Resets one session, or the whole mock (every named session dropped) when none is named. */
  reset(session?: string): void;
  sessions(): SessionSummary[];
  /** How every call so far, of every session, covered the contract. */
  /** The coverage of every call; with `api` (several APIs), that API's alone (an unknown one is refused). */
  coverage(api?: string): Outcome<Coverage>;
  clearCoverage(): void;
  pact(parties: unknown): Outcome<Pact>;
  /** Replays a HAR's answers as overrides of the session. */
  importHar(session: string, har: unknown, replay?: unknown): Outcome<HarImport>;
  /** The session's calls that pass the filter as the text of a HAR 1.2 document, made a call at a time. */
  exportHar(session: string, filter: unknown, host: string): Outcome<Iterable<string>>;
  /** Which documented statuses the session's kept calls saw, per operation. */
  operationsSeen(session: string): OperationSeen[];
  /**
   * Serves another version of the contract, keeping state and journal: placeholders follow its schemas,
   * coverage counts afresh, list pages made with the old envelopes are dropped.
   */
  reload(contract: Contract): void;
  /** Replaces the default session's state with complete records, checked against the contract first. */
  restore(snapshot: StoreSnapshot): void;
}

/** What the control needs besides the context: the HAR creator's name, read by the platform. */
export interface ControlSettings {
  creator: () => HarCreator;
}

/**
 * The control surface of one mock.
 * @example
 * const control = createControl(context, { creator: packageCreator });
 * control.override('', { operationId: 'getPass', status: 404 }); // { ok: true, value: { id: 'override-1', … } }
 */
export function createControl(context: MockContext, { creator }: ControlSettings): MockControl {
  // Every call of every session, whatever resets them; a reload counts afresh.
  let tally = new CallTally(context.served);
  context.callListeners.add((call) => tally.add(call));
  // What each override in force weighs (see overrideWeight): kept by this mock alone.
  const weights = new WeakMap<Override, number>();
  let overrides = 0;
  let waits = 0;
  let waitWeight = 0;
  const check: CheckResponse = (operation, status, body) => checkResponseBody(operation.spec, body, status);

  const readFilter = (filter: unknown): Outcome<CallFilter> => {
    if (filter === undefined) return ok({});
    if (typeof filter !== 'object' || filter === null) return refuse('invalidRequest', 'A filter is an object.');
    for (const [name, value] of Object.entries(filter)) {
      if (!(FILTERS as readonly string[]).includes(name))
        return refuse('invalidRequest', `Unknown filter "${name}"; filter calls by ${FILTERS.join(', ')}.`, name);
      if (value !== undefined && typeof value !== 'string')
        return refuse('invalidRequest', `The filter "${name}" must be given once, as text.`, name);
    }
    const { operationId, contract } = filter as CallFilter;
    const unknown = operationId === undefined ? undefined : unknownOperation(operationId, context.served.operationIds);
    if (unknown) return refuse('invalidRequest', unknown, 'operationId');
    const apis = apiNames(context.served.contract);
    if (contract !== undefined && !apis.includes(contract))
      return refuse('invalidRequest', unknownApi(contract, apis), 'contract');
    return ok(filter as CallFilter);
  };

  const control: MockControl = {
    calls(session, filter) {
      const read = readFilter(filter);
      return read.ok ? ok(sessionOf(context, session).journal.list(read.value)) : read;
    },
    count(session, filter) {
      const read = readFilter(filter);
      return read.ok ? ok(sessionOf(context, session).journal.count(read.value)) : read;
    },
    clearCalls: (session) => sessionOf(context, session).journal.clear(),
    async waitForCall(session, match, { timeout = 5000, since, signal } = {}) {
      if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 0 || timeout > MAX_WAIT)
        return refuse('invalidRequest', `timeout must be milliseconds from 0 to ${MAX_WAIT}.`, 'timeout');
      // A since that names no call would count every call, and answer an old one at once.
      const wrongSince = since === undefined ? undefined : notACallId('since', since);
      if (wrongSince) return refuse('invalidRequest', wrongSince, 'since');
      const shape = checkCallMatch(match);
      if (shape) return refuse('invalidRequest', shape, 'match');
      // A match is held as long as its wait: bounded as an override's is (64 KiB, 64 levels, 4096 values).
      const [tooLarge] = sizeErrors('match', match);
      if (tooLarge) return refuse('payloadTooLarge', `The wait was refused: ${tooLarge}.`, 'match');
      const { operationId } = match as CallMatch;
      const unknown =
        operationId === undefined ? undefined : unknownOperation(operationId, context.served.operationIds);
      if (unknown) return refuse('invalidRequest', unknown, 'operationId');
      const weight = valueWeight(match);
      if (waits >= MAX_WAITS || waitWeight + weight > WAIT_BUDGET) {
        const held = waits >= MAX_WAITS ? `${MAX_WAITS} waits` : `waits holding ${waitWeight} of ${WAIT_BUDGET} bytes`;
        const detail = `${held} are open on this mock, the most it keeps: wait again in a second, or end some.`;
        return { ok: false, error: { kind: 'tooManyWaits', detail, headers: { 'Retry-After': '1' } } };
      }
      const { journal, name } = sessionOf(context, session);
      waits++;
      waitWeight += weight;
      try {
        // A since past the newest call is a call of an earlier run (the mock restarted, and its ids began
        // again): every call of this run is newer, as the event stream takes it.
        const past = since !== undefined && callNumber(since as string)! > context.lastCallNumber();
        const call = await waitForCall(journal, match as CallMatch, {
          timeout,
          since: past ? undefined : (since as string | undefined),
          signal,
        });
        if (call) return ok(call);
        if (signal?.aborted) return refuse('waitTimedOut', 'The client left before a call came.');
        // The closest calls are looked for among the newest: a full journal would cost its whole copy a timeout.
        const recent = journal.recent(NEAR_MISS_WINDOW);
        return refuse('waitTimedOut', waitTimeout(match as CallMatch, timeout, recent).message);
      } catch (error) {
        if (!(error instanceof JournalClosedError)) throw error;
        const detail =
          `The session "${name}" was dropped while this wait was open: more named sessions than ` +
          'the session limit were used, or the mock was reset. Its calls are gone; a new wait starts it afresh.';
        return refuse('sessionDropped', detail);
      } finally {
        waits--;
        waitWeight -= weight;
      }
    },
    overrides: (session) => sessionOf(context, session).overrides,
    override(name, spec) {
      const session = sessionOf(context, name);
      if (session.overrides.length >= MAX_OVERRIDES) return refuseOverride('tooManyOverrides', [SESSION_FULL]);
      // Past every id in force, another replica's too (replicas.md): ids never collide.
      overrides = Math.max(overrides, highestOverride(context));
      const result = readOverride(spec, `override-${++overrides}`, context.served.plans, check);
      if (!result.ok) return refuseOverride('invalidOverride', result.errors);
      // Every session's overrides together stay within a budget, so many sessions cannot fill the memory.
      const weight = overrideWeight(result.override);
      let held = 0;
      for (const { overrides: kept } of context.sessions.values())
        for (const override of kept) held += weights.get(override) ?? 0;
      if (held + weight > OVERRIDE_BUDGET) {
        const reason =
          `the overrides of all sessions already hold ${held} of the ${OVERRIDE_BUDGET} bytes they may; ` +
          'remove some (DELETE /__mock/overrides, clearOverrides()), reset, or send smaller ones';
        return refuseOverride('tooManyOverrides', [reason]);
      }
      weights.set(result.override, weight);
      session.overrides.push(result.override);
      return ok(result.override);
    },
    removeOverride(name, id) {
      const { overrides: held } = sessionOf(context, name);
      const index = held.findIndex((o) => o.id === id);
      if (index < 0) return refuse('notFound', `There is no override ${id} in this session.`);
      held.splice(index, 1);
      return ok(undefined);
    },
    clearOverrides: (session) => void (sessionOf(context, session).overrides.length = 0),
    faults: () => context.faults,
    setFaults(spec) {
      const result = readFaults(spec);
      if (!result.ok)
        return {
          ok: false,
          error: {
            kind: 'invalidRequest',
            detail: `The faults were refused: ${result.errors.join('; ')}.`,
            reasons: result.errors,
          },
        };
      context.faults = result.faults;
      return ok(context.faults);
    },
    clearFaults: () => void (context.faults = {}),
    state: (session) => sessionOf(context, session).store.snapshot(),
    *stateText(session) {
      const { store } = sessionOf(context, session);
      yield '{"collections":{';
      let separator = '';
      for (const name of store.collections()) {
        yield `${separator}${JSON.stringify(name)}:${JSON.stringify(store.list(name))}`;
        separator = ',';
      }
      yield '}}';
    },
    setState: (session, snapshot, source) =>
      stateOutcome(replaceState(context, sessionOf(context, session), snapshot, source)),
    // A replica replaces it at once, in its section: published before it is answered, never outside the lock.
    setStateGradually: (session, snapshot, source) =>
      context.replication === ALONE
        ? replaceStateGradually(context, sessionOf(context, session), snapshot, source).then(stateOutcome)
        : stateOutcome(replaceState(context, sessionOf(context, session), snapshot, source)),
    reset(session) {
      // A session named, the default one too (`''`, as the inspector names it), resets alone; none named, all.
      if (session !== undefined) {
        const one = sessionOf(context, session);
        resetSession(context, one);
        // The default session's state is what the state file keeps.
        if (session === '') stateChanged(context, one);
        return;
      }
      for (const name of [...context.sessions.keys()]) dropSession(context, name);
      const main = sessionOf(context, '');
      resetSession(context, main);
      stateChanged(context, main);
    },
    sessions: () =>
      [...sessionsByUse(context)].map((s) => ({
        name: s.name,
        calls: s.journal.count(),
        overrides: s.overrides.length,
        waiters: s.journal.waiters,
      })),
    coverage(api) {
      const apis = apiNames(context.served.contract);
      if (api !== undefined && !apis.includes(api)) return refuse('invalidRequest', unknownApi(api, apis), 'api');
      return ok(tally.coverage(api));
    },
    clearCoverage: () => tally.clear(),
    pact(parties) {
      const { consumer, provider } = (parties ?? {}) as Partial<PactParties>;
      for (const [name, value] of Object.entries({ consumer, provider }))
        if (typeof value !== 'string' || !/^[\w.-]{1,100}$/.test(value))
          return refuse(
            'invalidRequest',
            `${name} must be given once: a name of letters, digits, ".", "-" or "_".`,
            name,
          );
      const { calls, leftOut } = tally.shapes();
      const { api } = parties as PactParties;
      if (api === undefined)
        return ok(toPact(calls, context.served.plans, { consumer, provider } as PactParties, leftOut));
      const apis = apiNames(context.served.contract);
      if (!apis.includes(api)) return refuse('invalidRequest', unknownApi(api, apis), 'api');
      // The provider serves its paths without the mount this mock put them under.
      const mount = mountOf(context.served.contract, api);
      const own = calls
        .filter((call) => call.contract === api)
        .map((call) => (mount === '/' ? call : { ...call, path: call.path.slice(mount.length) || '/' }));
      const plans = context.served.plans.filter((plan) => plan.operation.api === api);
      return ok(toPact(own, plans, { consumer, provider } as PactParties, leftOut));
    },
    importHar(session, har, replay = 'sequence') {
      if (replay !== 'sequence' && replay !== 'last')
        return refuse(
          'invalidRequest',
          'replay must be "sequence" (each entry answers once, in order) or "last".',
          'replay',
        );
      const set: SetOverride = (spec) => {
        const done = control.override(session, spec);
        if (done.ok) return { ok: true, override: done.value };
        return { ok: false, errors: done.error.reasons ?? [], full: done.error.kind === 'tooManyOverrides' };
      };
      // A body is read only when its override may fit.
      const noRoom = () => (sessionOf(context, session).overrides.length >= MAX_OVERRIDES ? [SESSION_FULL] : undefined);
      const imported = importHar(har, context.served, replay as HarReplay, set, noRoom);
      if (typeof imported !== 'string') return ok(imported);
      return refuse(imported === TOO_MANY_HAR_ENTRIES ? 'payloadTooLarge' : 'invalidRequest', imported, 'har');
    },
    exportHar(session, filter, host) {
      const read = readFilter(filter);
      if (!read.ok) return read;
      return ok(harText(callsOf(sessionOf(context, session).journal, read.value), creator(), host));
    },
    operationsSeen: (session) => operationsSeen(context.served, sessionOf(context, session).journal),
    reload(next) {
      context.served = serve(next);
      warnGuardedPatterns(next.operations, context.logger.warn);
      tally = new CallTally(context.served);
      const { generator, count, asOf } = context.placeholders;
      context.placeholders = new PlaceholderSource(context.served.collections, generator, count, asOf);
      for (const session of context.sessions.values()) {
        session.pages.clear();
        // Other placeholders may show under what clients wrote: the stores count their collections again.
        session.store.usePlaceholders(placeholdersOf(context));
      }
    },
    restore(snapshot) {
      const checked = checkSnapshot(snapshot, context.served.collections, 'the restored state');
      restoreState(context, sessionOf(context, ''), checked);
    },
  };
  return control;
}

/**
 * The journal's calls that pass the filter, oldest first, read a hundred at a time as they are taken: a reader
 * that stops between pages holds no more than that, and the journal may change meanwhile.
 */
function* callsOf(journal: Journal, filter: CallFilter): Generator<CallRecord> {
  let last = 0;
  for (;;) {
    const page: CallRecord[] = [];
    for (const call of journal.since(last, filter)) if (page.push(call) === 100) break;
    yield* page;
    if (page.length < 100) return;
    last = callNumber(page.at(-1)!.id)!;
  }
}

/** A replaced state, or why not: 413 past the records one replace may hold, 507 past the budget, else 422. */
function stateOutcome(result: ReplaceStateResult): Outcome<StoreSnapshot> {
  if (result.ok) return ok(result.snapshot);
  const kind = result.tooLarge
    ? 'payloadTooLarge'
    : result.full
      ? 'storageFull'
      : result.dropped
        ? 'sessionDropped'
        : 'invalidBody';
  return { ok: false, error: { kind, detail: result.error.message, state: result.error } };
}

function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

function refuse(kind: ProblemKind, detail: string, at?: string): { ok: false; error: ControlError } {
  return { ok: false, error: at === undefined ? { kind, detail } : { kind, detail, at } };
}

function refuseOverride(kind: ProblemKind, reasons: string[]): { ok: false; error: ControlError } {
  return { ok: false, error: { kind, detail: `The override was refused: ${reasons.join('; ')}.`, reasons } };
}

/** The highest number of an override in force in any session, 0 when none is. */
function highestOverride(context: MockContext): number {
  let highest = 0;
  for (const session of context.sessions.values())
    for (const { id } of session.overrides) highest = Math.max(highest, Number(/^override-(\d+)$/.exec(id)?.[1] ?? 0));
  return highest;
}
