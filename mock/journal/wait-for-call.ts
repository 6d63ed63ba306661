// Waits for a call to arrive, for apps that call the API asynchronously.
import { differences, matchesCall, type CallMatch } from './call-match.js';
import type { CallRecord, Journal } from './journal.js';

/** How long to wait, and from where. */
export interface WaitOptions {
  /** Milliseconds before giving up. @default 5000 */
  timeout?: number;
  /** Only calls recorded after the call with this id (`call-12`). @default every call in the journal */
  since?: string;
}

/**
 * Resolves with the first call that matches (one already recorded counts), or with `undefined` after the
 * timeout. The call is a copy. A matcher that throws (an asymmetric matcher, say) rejects the wait with
 * its error, whether the call was already there or arrives later.
 * @example const call = await waitForCall(journal, { operationId: 'createPass' }, { timeout: 2000 });
 */
export function waitForCall(
  journal: Journal,
  match: CallMatch,
  { timeout = 5000, since }: WaitOptions = {},
): Promise<CallRecord | undefined> {
  const after = since === undefined ? 0 : Number(/^call-(\d+)$/.exec(since)?.[1] ?? 0);
  const fits = (call: CallRecord) => Number(call.id.slice(5)) > after && matchesCall(call, match);
  let found: CallRecord | undefined;
  try {
    found = journal.list().find(fits);
  } catch (error) {
    return Promise.reject(error);
  }
  if (found) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      resolve(undefined);
    }, timeout);
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      stop();
      finish();
    };
    const stop = journal.subscribe((call) => {
      try {
        if (fits(call)) settle(() => resolve(structuredClone(call)));
      } catch (error) {
        settle(() => reject(error));
      }
    });
  });
}

/** The calls closest to a match (fewest differences first), each with how it differs: for failure messages. */
export function nearMisses(
  calls: CallRecord[],
  match: CallMatch,
  limit = 3,
): { call: CallRecord; differences: string[] }[] {
  const sameOperation =
    match.operationId === undefined ? calls : calls.filter((c) => c.operationId === match.operationId);
  const pool = sameOperation.length ? sameOperation : calls;
  return pool
    .map((call) => ({ call, differences: differences(call, match) }))
    .filter((m) => m.differences.length > 0)
    .sort((a, b) => a.differences.length - b.differences.length)
    .slice(0, limit);
}
