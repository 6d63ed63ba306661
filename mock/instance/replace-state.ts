// Replaces the whole state of one session with a snapshot from outside: setState() and PUT /__mock/state.
import type { Served } from '../plan/serve.js';
import { checkSnapshot, StateError, unwrapSnapshot } from '../state/check-snapshot.js';
import { completeSnapshot, recordMaker, type RecordMaker } from '../state/complete-record.js';
import bytes from 'bytes';
import type { StoreLimits, StoreSnapshot } from '../state/store.js';
import { isObject } from '../schema/schema-facts.js';
import { restoreState, stateChanged, type MockContext } from './mock-context.js';
import type { Session } from './session.js';

/** The state now in force, or why nothing changed: a record at fault, or more than the session may hold. */
export type ReplaceStateResult =
  { ok: true; snapshot: StoreSnapshot } | { ok: false; error: StateError; full: boolean };

/** One maker per contract served: a reload serves another. */
const makers = new WeakMap<Served, RecordMaker>();

/** The record maker of what a mock serves now, with its generator (see complete-record.ts). */
export function recordMakerOf(context: MockContext): RecordMaker {
  let maker = makers.get(context.served);
  if (!maker) makers.set(context.served, (maker = recordMaker(context.served.collections, context.generator)));
  return maker;
}

/**
 * Replaces a session's state with `given` (what `GET /__mock/state` answers, or the bare map), its records
 * completed and checked as fixtures are, all or nothing. Unlike fixtures, it must keep within the collection
 * limit (counted before anything is made, so a large body costs no more than its parsing) and the state budget. The
 * default session's new state is saved (onStateChange).
 * @example replaceState(context, sessionOf(context, 's1'), { '/members/m1/passes': [{ status: 'suspended' }] },
 * 'setState()')
 */
export function replaceState(
  context: MockContext,
  session: Session,
  given: unknown,
  source: string,
): ReplaceStateResult {
  const full = beyondLimits(unwrapSnapshot(given), session.store.limits, source);
  if (full) return { ok: false, error: full, full: true };
  try {
    const snapshot = checkSnapshot(completeSnapshot(recordMakerOf(context), given), context.served.collections, source);
    if (restoreState(context, session, snapshot, true) === 'state-full') {
      const { budget } = session.store.limits;
      const error = new StateError(
        `${source}: the state does not fit the state budget: what clients wrote may take ${bytes.format(budget.bytes)} ` +
          `(stateBytes, --state-bytes), and the other sessions hold ${bytes.format(budget.used - session.store.usage().bytes)}. ` +
          'Nothing was changed.',
      );
      return { ok: false, error, full: true };
    }
  } catch (error) {
    if (error instanceof StateError) return { ok: false, error, full: false };
    throw error;
  }
  stateChanged(context, session);
  return { ok: true, snapshot: session.store.snapshot() };
}

/** Why a map of collections holds more records in one collection than a store may, or nothing. */
function beyondLimits(map: unknown, limits: Readonly<StoreLimits>, source: string): StateError | undefined {
  if (!isObject(map)) return undefined;
  for (const [path, records] of Object.entries(map)) {
    const size = Array.isArray(records) ? records.length : 0;
    if (size > limits.collection)
      return new StateError(
        `${source}: "${path}" has ${size} records, more than the ${limits.collection} a collection may hold ` +
          '(collectionLimit, --collection-limit). Nothing was changed.',
        { collection: path },
      );
  }
  return undefined;
}
