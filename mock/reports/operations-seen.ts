// GET /__mock/operations: the contract's operations, their documented statuses, and what a session saw of them.
import type { Journal } from '../journal/journal.js';
import { CoverageCount, type ServedContract } from './coverage.js';

/** One operation as the inspector lists it. */
export interface OperationSeen {
  operationId: string;
  /** Upper-case, as requests name it. */
  method: string;
  path: string;
  summary?: string;
  /** The response codes the contract documents, as it writes them (`200`, `4XX`, `default`), in its order. */
  documented: string[];
  /** How many of the calls kept answered each status (`"0"`: dropped, no answer sent). */
  seen: Record<string, number>;
  /** How many of the calls kept reached the operation. */
  calls: number;
  /** How many of those broke the contract (their request had violations). */
  violations: number;
}

/**
 * Every operation, in contract order, with what the session's journal keeps of its calls (counted as
 * coverage counts them): the journal is bounded (`journalLimit`), so the counts are of the calls kept, not
 * of every call ever made (that is `GET /__mock/coverage`).
 * @example operationsSeen(context.served, session.journal)[0] // { operationId: 'listPasses', seen: { '200': 3 }, ... }
 */
export function operationsSeen(served: ServedContract, journal: Journal): OperationSeen[] {
  const count = new CoverageCount(served);
  // One walk over the journal, reading each call in place (no copies).
  journal.find((call) => (count.add(call), false));
  return count.coverage().operations.map((o, i) => {
    const summary = served.plans[i]?.operation.spec.summary;
    return {
      operationId: o.operationId,
      method: o.method,
      path: o.path,
      ...(summary ? { summary } : {}),
      documented: o.statuses.documented,
      seen: o.statuses.seen,
      calls: o.calls,
      violations: o.violationCount,
    };
  });
}
