// Everything one mock instance owns, built once from the contract and the options.
import type { WireText } from '../http/reply.js';
import type { BodyGenerator } from '../generate/generate-body.js';
import { JournalBudget } from '../journal/journal-budget.js';
import { LRUCache } from 'lru-cache';
import { createLogger, type Logger } from './logger.js';
import type { ResolvedMockOptions } from './options.js';
import type { Served } from '../plan/serve.js';
import type { Faults } from '../respond/faults.js';
import type { StateTools } from '../state/answer-from-state.js';
import { collectionOf } from '../state/check-snapshot.js';
import type { DerivePlaceholders, StoredRecord, StoreSnapshot } from '../state/store.js';
import { createSession, type Session } from './session.js';
import { datedGenerators } from './dated-generators.js';
import type { CallListener } from '../journal/journal.js';
import { PlaceholderSource } from '../state/placeholders.js';
import { StateBudget } from '../state/state-budget.js';
import { ALONE, type Replication } from './replication.js';

/** The per-instance state every request of one mock shares. Nothing here is a module global. */
export interface MockContext {
  served: Served;
  options: ResolvedMockOptions;
  /** Says what happens, in the format of `options.log`, to `options.logTo`. */
  logger: Logger;
  generator: BodyGenerator;
  /** What a reset returns a store to: the fixtures, or nothing (placeholders come back lazily). */
  initialState: StoreSnapshot;
  /**
   * Sessions by name, in least recently used order (`get` makes one the most recent; `rkeys` walks from the
   * least): past the limit the least recently used named one goes, the default one never. On lru-cache: a Map
   * kept in that order by delete-and-set cost a request time in proportion to the number of sessions in V8.
   */
  sessions: LRUCache<string, Session>;
  /** Numbers calls across every session, so an id is never reused while the mock runs. */
  nextCallNumber: () => number;
  /** The number of the last call numbered, 0 before the first. */
  lastCallNumber: () => number;
  /** Numbers calls after `number` from now on (a call another replica numbered): ids stay unique across them. */
  seeCallNumber: (number: number) => void;
  /** How this mock shares its state with other replicas: not at all (`ALONE`), or through Redis (replicas.md). */
  replication: Replication;
  /** Hears each session made, once it holds its initial state (replication instruments it). */
  sessionMade?: ((session: Session) => void) | undefined;
  /** The bytes every session's journal shares (`journalBytes`): past them, the oldest call anywhere goes. */
  journalBudget: JournalBudget;
  /** The faults in force: from the options, replaced by `PUT /__mock/faults`. */
  faults: Faults;
  /**
   * Hear every call every session's journal records, whatever resets the sessions (coverage and the Pact export
   * count them so). Add and remove listeners; each is called once a call, in the order added.
   */
  callListeners: Set<CallListener>;
  /** The JSON text of list pages answered before, kept as long as they live (records' texts: Session.recordTexts). */
  texts: WeakMap<object, WireText>;
  /** The bytes what clients wrote may take in every session's memory store (`stateBytes`). */
  stateBudget: StateBudget;
  /** The placeholders of the contract served, shared by every session (a reload makes a new source). */
  placeholders: PlaceholderSource;
}

/** Builds the context of a new mock instance, with its default session. */
export function createMockContext(
  served: Served,
  options: ResolvedMockOptions,
  initialState: StoreSnapshot = {},
): MockContext {
  let calls = 0;
  const { generator, placeholders, asOf } = datedGenerators(options.seed, options.asOf);
  const context: MockContext = {
    served,
    options,
    logger: createLogger(options.log, options.logTo),
    generator,
    initialState,
    // Room for the default session, the limit, and the one made before the least recently used goes.
    sessions: new LRUCache({ max: sessionRoom(options.sessionLimit) }),
    nextCallNumber: () => ++calls,
    lastCallNumber: () => calls,
    seeCallNumber: (number) => {
      calls = Math.max(calls, number);
    },
    replication: ALONE,
    journalBudget: new JournalBudget(options.journalBytes),
    faults: options.faults,
    texts: new WeakMap(),
    callListeners: new Set(),
    stateBudget: new StateBudget(options.stateBytes),
    placeholders: new PlaceholderSource(served.collections, placeholders, options.placeholders, asOf),
  };
  sessionOf(context, '');
  return context;
}

/** The most named sessions a mock keeps (`--session-limit`'s bound too): their order is kept in arrays this long. */
export const MAX_SESSIONS = 100_000;

function sessionRoom(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SESSIONS)
    throw new RangeError(`The session limit must be a whole number from 1 to ${MAX_SESSIONS}, not ${limit}.`);
  return limit + 2;
}

/**
 * The named session, created (with the initial state) on first use. Past `sessionLimit` named sessions,
 * the least recently used one is dropped, even one a wait is open on (the wait ends), so a stream of new
 * names cannot grow memory without end.
 */
export function sessionOf(context: MockContext, name: string): Session {
  let session = context.sessions.get(name);
  if (session) return session;
  if (name !== '' && context.sessions.size > context.options.sessionLimit) {
    for (const key of context.sessions.rkeys()) {
      if (key === '') continue;
      dropSession(context, key);
      break;
    }
  }
  const { journalLimit, journalBodyLimit, collectionLimit, clock } = context.options;
  session = createSession(name, {
    journalLimit,
    journalBudget: context.journalBudget,
    journalBodyLimit,
    stateLimits: { collection: collectionLimit, budget: context.stateBudget },
    derive: placeholdersOf(context),
    nextCallNumber: context.nextCallNumber,
    clock: clock === 'seed' ? { start: context.generator.anchor } : 'system',
    // The default session may keep a store of its own (the state file's), served as it is.
    store: name === '' ? context.options.store : undefined,
    observe: (call, adopted) => {
      for (const listener of context.callListeners) listener(call, adopted);
    },
  });
  context.sessions.set(name, session);
  if (session.store !== context.options.store) restoreState(context, session, context.initialState);
  context.sessionMade?.(session);
  return session;
}

/**
 * A session store's placeholders: read through the context, where a reload puts a new source (and tells each
 * store, see control.ts's reload, so what it counted over the old ones is counted again).
 */
export function placeholdersOf(context: MockContext): DerivePlaceholders {
  return (key) => context.placeholders.of(key);
}

/**
 * The sessions, least recently used first: a replica that makes them again in this order, or applies their
 * changes in it, ends with the same one the most recent.
 */
export function* sessionsByUse(context: MockContext): Generator<Session> {
  for (const session of context.sessions.rvalues()) if (session !== undefined) yield session;
}

/** The named session if it exists (it is then the most recently used), else the default one: never creates one. */
export function knownSession(context: MockContext, name: string): Session {
  return context.sessions.has(name) ? sessionOf(context, name) : sessionOf(context, '');
}

/** Forgets a named session: its journal's bytes are released, and the waits open on it end. */
export function dropSession(context: MockContext, name: string): void {
  const session = context.sessions.get(name);
  if (session === undefined || name === '') return;
  context.sessions.delete(name);
  session.journal.close();
  // Its records give their bytes back to the budget every session shares.
  session.store.close();
}

/**
 * Replaces a session's store contents with a snapshot: fixtures (never refused), or what a client sent
 * (`charged`: refused, nothing changed, past the state budget).
 */
export function restoreState(
  context: MockContext,
  session: Session,
  snapshot: StoreSnapshot,
  charged = false,
): 'stored' | 'state-full' {
  // Each record's id field by its collection's path, found once per path (fixtures hold thousands a path).
  const idFields = new Map<string, string>();
  const idOf = (path: string, record: StoredRecord) => {
    let field = idFields.get(path);
    if (field === undefined)
      idFields.set(path, (field = collectionOf(context.served.collections, path)?.idField ?? 'id'));
    return String(record[field]);
  };
  return session.store.restore(snapshot, idOf, charged);
}

/**
 * After a change to a session's state: the default session's is handed to `onStateChange` (the state file keeps it).
 */
export function stateChanged(context: MockContext, session: Session): void {
  if (session.name === '') context.options.onStateChange(() => session.store.snapshot());
}

/** Returns a session to its first state: the initial store, an empty journal, no overrides, counters from zero. */
export function resetSession(context: MockContext, session: Session): void {
  session.journal.clear();
  session.counters.clear();
  session.pages.clear();
  session.recordTexts.clear();
  session.overrides.length = 0;
  restoreState(context, session, context.initialState);
}

/** What a session's state is kept in and made with, for answers from state (the contract's or the admin API's). */
export function stateToolsOf(context: MockContext, session: Session): StateTools {
  return {
    store: session.store,
    pages: session.pages,
    generator: context.generator,
    now: () => session.now(),
  };
}
