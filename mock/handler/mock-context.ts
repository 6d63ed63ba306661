// Everything one mock instance owns, built once from the contract and the options.
import type { IHttpOperation } from '@stoplight/types';
import type { Contract, Operation } from '../contract/load-contract.js';
import { createBodyGenerator, type BodyGenerator } from '../generate/generate-body.js';
import { Journal } from '../journal/journal.js';
import type { ResolvedMockOptions } from '../options.js';
import type { Faults } from '../respond/faults.js';
import type { Override } from '../respond/overrides.js';
import { recordId } from '../state/check-snapshot.js';
import { inferCollections, type CollectionMap } from '../state/infer-collections.js';
import { MemoryStore, type Store, type StoreSnapshot } from '../state/store.js';

/** What the mock serves, derived from one contract; replaced whole when the contract is reloaded. */
export interface Served {
  contract: Contract;
  /** Prism's operations, in contract order, for the router. */
  specs: IHttpOperation[];
  /** From Prism's operation back to ours. */
  operations: Map<IHttpOperation, Operation>;
  collections: CollectionMap;
  /** The response headers the contract documents, for `Access-Control-Expose-Headers`. */
  exposedHeaders: string;
}

/**
 * What one test session sees: its journal, state, overrides and counters. Requests name theirs with
 * `X-Mock-Session`; the unnamed session `''` is the default one, and the only one persisted.
 */
export interface Session {
  name: string;
  journal: Journal;
  store: Store;
  overrides: Override[];
  /** How many times each non-idempotent operation was generated for, so each create differs. */
  occurrences: Map<string, number>;
  /** The time a record is created at (see the `clock` option). */
  now(): Date;
}

/** The per-instance state every request of one mock shares. Nothing here is a module global. */
export interface MockContext {
  served: Served;
  options: ResolvedMockOptions;
  generator: BodyGenerator;
  /** What a reset returns a store to: the fixtures, or nothing (placeholders come back lazily). */
  initialState: StoreSnapshot;
  /** Sessions, least recently used first; the default one is never evicted. */
  sessions: Map<string, Session>;
  /** Numbers calls across every session, so an id is never reused while the mock runs. */
  nextCallNumber: () => number;
  /** The faults in force: from the options, replaced by `PUT /__mock/faults`. */
  faults: Faults;
  /** The generated part of each list envelope (its fields besides the records), made once per operation. */
  envelopes: WeakMap<Operation, Record<string, unknown>>;
}

/** Derives what the mock serves from a contract. */
export function serve(contract: Contract): Served {
  return {
    contract,
    specs: contract.operations.map((op) => op.spec),
    operations: new Map(contract.operations.map((op) => [op.spec, op])),
    collections: inferCollections(contract.operations),
    exposedHeaders: [
      ...new Set([
        'X-Request-Id',
        ...contract.operations.flatMap((op) => op.spec.responses.flatMap((r) => (r.headers ?? []).map((h) => h.name))),
      ]),
    ].join(', '),
  };
}

/** Builds the context of a new mock instance, with its default session. */
export function createMockContext(
  served: Served,
  options: ResolvedMockOptions,
  initialState: StoreSnapshot = {},
): MockContext {
  let calls = 0;
  const context: MockContext = {
    served,
    options,
    generator: createBodyGenerator(options.seed),
    initialState,
    sessions: new Map(),
    nextCallNumber: () => ++calls,
    faults: options.faults,
    envelopes: new WeakMap(),
  };
  sessionOf(context, '');
  return context;
}

/**
 * The named session, created (with the initial state) on first use. Past `sessionLimit` named sessions,
 * the least recently used one is dropped, so a stream of new names cannot grow memory without end.
 */
export function sessionOf(context: MockContext, name: string): Session {
  let session = context.sessions.get(name);
  if (session) {
    if (name !== '') {
      context.sessions.delete(name);
      context.sessions.set(name, session);
    }
    return session;
  }
  if (name !== '' && context.sessions.size > context.options.sessionLimit) {
    // A session someone is waiting on (a long-poll) is kept until the wait ends.
    const oldest = [...context.sessions.entries()].find(([key, s]) => key !== '' && !s.journal.awaited)?.[0];
    if (oldest !== undefined) context.sessions.delete(oldest);
  }
  const occurrences = new Map<string, number>();
  session = {
    name,
    journal: new Journal(context.options.journalLimit, context.nextCallNumber),
    store: new MemoryStore(),
    overrides: [],
    occurrences,
    now: () => new Date(),
  };
  if (context.options.clock === 'seed') {
    session.now = () => {
      const ticks = (occurrences.get(SEED_CLOCK) ?? 0) + 1;
      occurrences.set(SEED_CLOCK, ticks);
      return new Date(context.generator.anchor.getTime() + ticks * 60_000);
    };
  }
  context.sessions.set(name, session);
  restoreState(context, session, context.initialState);
  return session;
}

/** The seed clock's ticks live with the other counters, so a reset restarts them too. */
const SEED_CLOCK = '\u0000seed-clock';

/** Replaces a session's store contents with a snapshot. */
export function restoreState(context: MockContext, session: Session, snapshot: StoreSnapshot): void {
  session.store.restore(snapshot, (path, record) => recordId(context.served.collections, path, record));
}

/** Returns a session to its first state: the initial store, an empty journal, no overrides, counters from zero. */
export function resetSession(context: MockContext, session: Session): void {
  session.journal.clear();
  session.occurrences.clear();
  session.overrides.length = 0;
  restoreState(context, session, context.initialState);
}
