// A mock's context built from a contract and its options, as every transport builds it (createApp, the MSW
// handlers): options checked, the contract served, the fixtures completed and checked, the default session filled.
import { copyOfCall } from '../journal/journal.js';
import type { Contract } from '../contract/contract.js';
import { warnGuardedPatterns } from '../contract/guarded-patterns.js';
import { serve } from '../plan/serve.js';
import { readFaults } from '../respond/faults.js';
import { checkSnapshot, wasChecked } from '../state/check-snapshot.js';
import { completeSnapshot } from '../state/complete-record.js';
import { createMockContext, restoreState, sessionOf, type MockContext } from './mock-context.js';
import { placeholdersOverLimit, resolveMockOptions, type MockOptions, type ResolvedMockOptions } from './options.js';
import { recordMakerOf } from './replace-state.js';

/**
 * The context of a new mock of `contract`; options a caller may get wrong are refused at once (TypeError).
 * @example const context = buildContext(contract, { seed: 7 });
 */
export function buildContext(contract: Contract, options: MockOptions): MockContext {
  return contextOf(contract, checkedOptions(options));
}

/** The options, defaulted, with what a caller may get wrong refused at once (as the admin API refuses it). */
export function checkedOptions(options: MockOptions): ResolvedMockOptions {
  const resolved = resolveMockOptions(options);
  if (resolved.admin !== false && resolved.admin.token === '')
    throw new TypeError('The admin token is empty: give a token, or none to leave the admin API open.');
  const crowded = placeholdersOverLimit(resolved);
  if (crowded) throw new TypeError(crowded);
  // Checked as PUT /__mock/faults checks them: a latency of another form ([100, 300]) is refused, not guessed at.
  const faults = readFaults(resolved.faults);
  if (!faults.ok) throw new TypeError(`The faults were refused: ${faults.errors.join('; ')}.`);
  return { ...resolved, faults: faults.faults };
}

/** The mock's context, its default session holding the fixtures (or the caller's store as it holds). */
function contextOf(contract: Contract, resolved: ResolvedMockOptions): MockContext {
  const served = serve(contract);
  const context = createMockContext(served, resolved);
  warnGuardedPatterns(contract.operations, context.logger.warn);
  const { onCall } = resolved;
  if (onCall) context.callListeners.add((call) => onCall(copyOfCall(call)));
  // Fixtures may leave fields out: they are made from this mock's seed, then every record is checked (once:
  // startMock's were, to name their file).
  context.initialState = wasChecked(resolved.state, served.collections)
    ? resolved.state
    : checkSnapshot(completeSnapshot(recordMakerOf(context), resolved.state), served.collections, 'the initial state');
  // A store of the caller's (the state file's) is served as it holds; it took the fixtures when it was new.
  if (!resolved.store) restoreState(context, sessionOf(context, ''), context.initialState);
  return context;
}
