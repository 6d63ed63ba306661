// GET /__mock/operations: the contract's operations, their documented statuses, and what a session saw of them.
import type { Journal } from '../journal/journal.js';
import type { OperationPlan } from '../plan/operation-plan.js';

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
 * Every operation, in contract order, with what the session's journal keeps of its calls: the journal is
 * bounded (`journalLimit`), so the counts are of the calls kept, not of every call ever made.
 * @example operationsSeen(context.served.plans, session.journal)[0] // { operationId: 'listPasses', seen: { '200': 3 }, ... }
 */
export function operationsSeen(plans: readonly OperationPlan[], journal: Journal): OperationSeen[] {
  const byId = new Map<string, OperationSeen>();
  const operations = plans.map(({ operation, responses }) => {
    const seen: OperationSeen = {
      operationId: operation.id,
      method: operation.method.toUpperCase(),
      path: operation.path,
      ...(operation.spec.summary ? { summary: operation.spec.summary } : {}),
      documented: [...responses.codes],
      seen: {},
      calls: 0,
      violations: 0,
    };
    byId.set(operation.id, seen);
    return seen;
  });
  // One walk over the journal, reading each call in place (no copies).
  journal.find((call) => {
    const operation = call.operationId === null ? undefined : byId.get(call.operationId);
    if (operation) {
      const status = String(call.response.status);
      operation.seen[status] = (operation.seen[status] ?? 0) + 1;
      operation.calls++;
      if (call.violations.length > 0) operation.violations++;
    }
    return false;
  });
  return operations;
}
