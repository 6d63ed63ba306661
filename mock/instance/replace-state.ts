// Replaces the whole state of one session with a snapshot from outside: setState() and PUT /__mock/state.
import type { Served } from '../plan/serve.js';
import { checkSnapshot, collectionOf, StateError, unwrapSnapshot } from '../state/check-snapshot.js';
import { completeRecord, recordMaker, type RecordMaker } from '../state/complete-record.js';
import bytes from 'bytes';
import type { StoreLimits, StoreSnapshot } from '../state/store.js';
import { isObject } from '../schema/schema-facts.js';
import { restoreState, stateChanged, type MockContext } from './mock-context.js';
import type { Session } from './session.js';

/** The state now in force, or why nothing changed: a record at fault, or more than the session may hold. */
export type ReplaceStateResult =
  | { ok: true; snapshot: StoreSnapshot }
  | { ok: false; error: StateError; full: boolean; tooLarge?: boolean; dropped?: boolean };

/** One maker per contract served: a reload serves another. */
const makers = new WeakMap<Served, RecordMaker>();

/** The record maker of what a mock serves now, with its generator (see complete-record.ts). */
export function recordMakerOf(context: MockContext): RecordMaker {
  let maker = makers.get(context.served);
  if (!maker) makers.set(context.served, (maker = recordMaker(context.served.collections, context.generator)));
  return maker;
}

/** The most records one replace of a session's state may hold: past it, 413 and nothing changes. */
export const MAX_STATE_RECORDS = 10_000;
/**
 * Why a state past {@link MAX_STATE_RECORDS} is refused (413), whoever counts its records (`total` unknown when
 * counting stopped at the first one too many).
 * @example tooManyRecords('PUT /__mock/state', 10_001)
 */
export function tooManyRecords(source: string, total?: number): string {
  const has = total === undefined ? 'more records than' : `${total} records, more than`;
  return (
    `${source}: the state has ${has} the ${MAX_STATE_RECORDS} one replace may hold; send it in parts (a ` +
    'collection or a record at a time, below /__mock/state), or start from --data. Nothing was changed.'
  );
}
/** Milliseconds of work a gradual replace does before it lets other requests be answered. */
const SLICE_MS = 20;

/**
 * Replaces a session's state with `given` (what `GET /__mock/state` answers, or the bare map), its records
 * completed and checked as fixtures are, all or nothing. Unlike fixtures, it must keep within
 * {@link MAX_STATE_RECORDS} and the collection limit (counted before anything is made, so a large body costs no
 * more than its parsing) and the state budget. The default session's new state is saved (onStateChange). Done at
 * once: an in-process caller waits for its own call; the admin API uses {@link replaceStateGradually}.
 * @example replaceState(context, sessionOf(context, 's1'), { '/members/m1/passes': [{ status: 'suspended' }] },
 * 'setState()')
 */
export function replaceState(
  context: MockContext,
  session: Session,
  given: unknown,
  source: string,
): ReplaceStateResult {
  const steps = replaceSteps(context, session, given, source);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * {@link replaceState} a slice of about 20 ms at a time, letting other requests be answered between slices:
 * a large state never holds the event loop for long.
 */
export async function replaceStateGradually(
  context: MockContext,
  session: Session,
  given: unknown,
  source: string,
): Promise<ReplaceStateResult> {
  const steps = replaceSteps(context, session, given, source);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** The replace as steps: it yields whenever a slice of work is done, and returns what became of it. */
function* replaceSteps(
  context: MockContext,
  session: Session,
  given: unknown,
  source: string,
): Generator<void, ReplaceStateResult> {
  const map = unwrapSnapshot(given);
  const beyond = beyondLimits(map, session.store.limits, source);
  if (beyond) return { ok: false, error: beyond.error, full: true, ...(beyond.tooLarge ? { tooLarge: true } : {}) };
  let sliceStart = performance.now();
  const spent = () => {
    if (performance.now() - sliceStart < SLICE_MS) return false;
    sliceStart = performance.now();
    return true;
  };
  try {
    const snapshot: StoreSnapshot = {};
    // Each collection under the path its requests use, and the path it was given as (two may name one).
    const givenAs = new Map<string, string>();
    if (!isObject(map)) checkSnapshot(map, context.served.collections, source);
    const maker = recordMakerOf(context);
    for (const [path, records] of Object.entries(map as Record<string, unknown>)) {
      const collection = collectionOf(context.served.collections, path);
      const completed: unknown[] = [];
      for (const [index, record] of (Array.isArray(records) && collection ? records : []).entries()) {
        completed.push(completeRecord(maker, collection!, path, record, `state|${path}|${index}`));
        if (spent()) yield;
      }
      // Checked a collection at a time, with the messages a whole snapshot gets.
      const part = { [path]: Array.isArray(records) && collection ? completed : records };
      Object.assign(snapshot, checkSnapshot(part, context.served.collections, source, givenAs));
      if (spent()) yield;
    }
    // A reset, or the session limit, dropped the session between two slices: what it would keep has no home.
    if (session.name !== '' && context.sessions.get(session.name) !== session) {
      const error = new StateError(
        `${source}: the session "${session.name}" was dropped (a reset, or the session limit) while its state was ` +
          'being replaced. Nothing was changed.',
      );
      return { ok: false, error, full: false, dropped: true };
    }
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

/**
 * Why a map of collections holds more than one replace may (records in all: `tooLarge`) or a store may (records
 * in one collection), or nothing.
 */
function beyondLimits(
  map: unknown,
  limits: Readonly<StoreLimits>,
  source: string,
): { error: StateError; tooLarge?: boolean } | undefined {
  if (!isObject(map)) return undefined;
  let total = 0;
  for (const [path, records] of Object.entries(map)) {
    const size = Array.isArray(records) ? records.length : 0;
    total += size;
    if (size > limits.collection) {
      const error = new StateError(
        `${source}: "${path}" has ${size} records, more than the ${limits.collection} a collection may hold ` +
          '(collectionLimit, --collection-limit). Nothing was changed.',
        { collection: path },
      );
      return { error };
    }
  }
  if (total <= MAX_STATE_RECORDS) return undefined;
  const error = new StateError(tooManyRecords(source, total));
  return { error, tooLarge: true };
}
