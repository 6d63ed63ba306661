// Everything one mock instance owns, built once from the contract and the options.
import type { IHttpOperation } from '@stoplight/types';
import type { Contract, Operation } from '../contract/load-contract.js';
import { createBodyGenerator, type BodyGenerator } from '../generate/generate-body.js';
import { Journal } from '../journal/journal.js';
import type { ResolvedMockOptions } from '../options.js';

/** The per-instance state every request of one mock shares. Nothing here is a module global. */
export interface MockContext {
  contract: Contract;
  options: ResolvedMockOptions;
  journal: Journal;
  generator: BodyGenerator;
  /** Prism's operations, in contract order, for the router. */
  specs: IHttpOperation[];
  /** From Prism's operation back to ours. */
  operations: Map<IHttpOperation, Operation>;
  /** How many times each non-idempotent operation was generated for, so each create differs. */
  occurrences: Map<string, number>;
}

/** Builds the context of a new mock instance. */
export function createMockContext(contract: Contract, options: ResolvedMockOptions): MockContext {
  return {
    contract,
    options,
    journal: new Journal(options.journalLimit),
    generator: createBodyGenerator(options.seed),
    specs: contract.operations.map((op) => op.spec),
    operations: new Map(contract.operations.map((op) => [op.spec, op])),
    occurrences: new Map(),
  };
}

/** Returns the instance to its first state: an empty journal, generation counters from zero. */
export function resetMockContext(context: MockContext): void {
  context.journal.clear();
  context.occurrences.clear();
}
