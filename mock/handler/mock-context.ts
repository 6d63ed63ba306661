// Everything one mock instance owns, built once from the contract and the options.
import type { IHttpOperation } from '@stoplight/types';
import type { Contract, Operation } from '../contract/load-contract.js';
import { createBodyGenerator, type BodyGenerator } from '../generate/generate-body.js';
import { Journal } from '../journal/journal.js';
import type { ResolvedMockOptions } from '../options.js';
import { inferCollections, type CollectionMap } from '../state/infer-collections.js';
import { MemoryStore, type Store, type StoreSnapshot } from '../state/store.js';
import { recordId } from '../state/check-snapshot.js';

/** The seed clock's ticks live with the other counters, so a reset restarts them too. */
const SEED_CLOCK = '\u0000seed-clock';

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

/** The per-instance state every request of one mock shares. Nothing here is a module global. */
export interface MockContext {
  served: Served;
  options: ResolvedMockOptions;
  journal: Journal;
  generator: BodyGenerator;
  store: Store;
  /** What `reset()` returns the store to: the fixtures, or nothing (placeholders come back lazily). */
  initialState: StoreSnapshot;
  /** How many times each non-idempotent operation was generated for, so each create differs. */
  occurrences: Map<string, number>;
  /** The time a record is created at (see the `clock` option). */
  now(): Date;
}

/** Derives what the mock serves from a contract. */
export function serve(contract: Contract): Served {
  return {
    contract,
    specs: contract.operations.map((op) => op.spec),
    operations: new Map(contract.operations.map((op) => [op.spec, op])),
    collections: inferCollections(contract.operations),
    exposedHeaders: [...new Set(contract.operations.flatMap((op) => op.spec.responses.flatMap((r) => (r.headers ?? []).map((h) => h.name))))].join(', '),
  };
}

/** Builds the context of a new mock instance. */
export function createMockContext(served: Served, options: ResolvedMockOptions, initialState: StoreSnapshot = {}): MockContext {
  const context: MockContext = {
    served,
    options,
    journal: new Journal(options.journalLimit),
    generator: createBodyGenerator(options.seed),
    store: new MemoryStore(),
    initialState,
    occurrences: new Map(),
    now: () => new Date(),
  };
  if (options.clock === 'seed') {
    context.now = () => {
      const ticks = (context.occurrences.get(SEED_CLOCK) ?? 0) + 1;
      context.occurrences.set(SEED_CLOCK, ticks);
      return new Date(context.generator.anchor.getTime() + ticks * 60_000);
    };
  }
  restoreState(context, initialState);
  return context;
}

/** Replaces the store's contents with a snapshot. */
export function restoreState(context: MockContext, snapshot: StoreSnapshot): void {
  context.store.restore(snapshot, (path, record) => recordId(context.served.collections, path, record));
}

/** Returns the instance to its first state: the initial store, an empty journal, counters from zero. */
export function resetMockContext(context: MockContext): void {
  context.journal.clear();
  context.occurrences.clear();
  restoreState(context, context.initialState);
}
