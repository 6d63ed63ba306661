// Waits for a call to arrive, for apps that call the API asynchronously.
import { answered, differences, matchesCall, type CallMatch } from './call-match.js';
import { callNumber, copyOfCall, JournalClosedError, type CallRecord, type Journal } from './journal.js';

/** How many of the newest calls a timed-out wait looks through for the closest ones. */
export const NEAR_MISS_WINDOW = 200;

/** How long a wait lasts unless told: 5 s. */
export const DEFAULT_WAIT = 5000;

/** How long to wait, and from where. */
export interface WaitOptions {
  /** Milliseconds before giving up. @default 5000 */
  timeout?: number;
  /** Only calls recorded after the call with this id (`call-12`). @default every call in the journal */
  since?: string;
  /** Ends the wait early: it then rejects with the signal's reason (a client that left, say). @default none */
  signal?: AbortSignal;
}

/**
 * Resolves with the first call that matches (one already recorded counts), or with `undefined` after the
 * timeout. The call is a copy; waits ended by the same call share one. A matcher that throws (an asymmetric
 * matcher, say) rejects the wait with its error, whether the call was already there or arrives later. The
 * wait also rejects when its session is dropped (a {@link JournalClosedError}), or when `signal` aborts.
 * @example const call = await waitForCall(journal, { operationId: 'createPass' }, { timeout: 2000 });
 */
export function waitForCall(
  journal: Journal,
  match: CallMatch,
  { timeout = DEFAULT_WAIT, since, signal }: WaitOptions = {},
): Promise<CallRecord | undefined> {
  const after = since === undefined ? 0 : (callNumber(since) ?? 0);
  if (signal?.aborted) return Promise.reject(signal.reason);
  let found: CallRecord | undefined;
  try {
    // Looked for in place: only the call found is copied.
    found = journal.find((call) => matchesCall(call, match), after);
  } catch (error) {
    return Promise.reject(error);
  }
  if (found) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      stop();
      signal?.removeEventListener('abort', abort);
      finish();
    };
    const timer = setTimeout(() => settle(() => resolve(undefined)), timeout);
    const abort = () => settle(() => reject(signal!.reason));
    signal?.addEventListener('abort', abort, { once: true });
    const stop = journal.subscribe(
      (call) => {
        try {
          if (callNumber(call.id)! > after && matchesCall(call, match)) settle(() => resolve(copyOfCall(call)));
        } catch (error) {
          settle(() => reject(error));
        }
      },
      () => settle(() => reject(new JournalClosedError())),
    );
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

/** A match in words: `createPass with {"body":…}`. */
export function describeMatch(match: CallMatch): string {
  const { operationId, ...rest } = match;
  const details = Object.keys(rest).length ? ` with ${JSON.stringify(rest)}` : '';
  return `${operationId ?? 'to any operation'}${details}`;
}

/** Why no call matched, in words: the calls closest to the match, each with how it differs. */
export function explainMisses(calls: CallRecord[], match: CallMatch): string {
  const misses = nearMisses(calls, match);
  if (calls.length === 0) return 'The mock received no calls.';
  if (misses.length === 0) return `Received: ${calls.map((c) => `${c.id} ${c.operationId ?? '-'}`).join(', ')}.`;
  const lines = misses.map(({ call, differences }) => {
    const head = `  ${call.id} ${call.method} ${call.path} (${call.operationId ?? 'no operation'}, ${answered(call)}):`;
    return [head, ...differences.map((d) => `    - ${d}`)].join('\n');
  });
  return `Closest calls:\n${lines.join('\n')}`;
}

/** A test waited for a call that did not come: what was awaited, and what arrived instead. */
export class CallWaitTimeout extends Error {
  override name = 'CallWaitTimeout';
}

/**
 * The error for a wait that timed out, naming the match, the time waited and the closest calls received.
 * @example throw waitTimeout({ operationId: 'deletePass' }, 2000, mock.calls())
 */
export function waitTimeout(match: CallMatch, timeout: number, calls: CallRecord[]): CallWaitTimeout {
  return new CallWaitTimeout(
    `waitForCall: no call ${describeMatch(match)} arrived within ${timeout} ms.\n${explainMisses(calls, match)}`,
  );
}
