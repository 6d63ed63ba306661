// The long-polls of /__mock/calls/wait: a bounded number across the mock, each ended as soon as its client
// leaves or its session is dropped, so an abandoned wait holds nothing.
import type { Exchange } from '../handler/exchange.js';
import type { CallMatch } from '../journal/call-match.js';
import { JournalClosedError } from '../journal/journal.js';
import { waitForCall } from '../journal/wait-for-call.js';
import { problem } from '../http/problems.js';
import { problemReply, type Reply } from '../http/reply.js';

/** The most waits open at once across every session of a mock; past it, a wait answers 429. */
export const MAX_WAITS = 1000;

/** Waits for a call in the exchange's session: 200 with it, 408 after the timeout, 410 if the session goes. */
export type OpenWait = (ex: Exchange, match: CallMatch, timeout: number, since: string | undefined) => Promise<Reply>;

/**
 * The waits of one mock, at most `max` open at once.
 * @example const wait = createWaits(); await wait(ex, { operationId: 'createPass' }, 5000, undefined);
 */
export function createWaits(max = MAX_WAITS): OpenWait {
  let open = 0;
  return async (ex, match, timeout, since) => {
    if (open >= max) {
      const detail = `${max} waits are open on this mock, the most it keeps: wait again in a second, or end some.`;
      return problemReply(problem('tooManyWaits', detail), { 'Retry-After': '1' });
    }
    const left = new AbortController();
    const leave = () => left.abort();
    ex.res.once('close', leave);
    if (ex.res.destroyed) left.abort();
    open++;
    try {
      const call = await waitForCall(ex.session.journal, match, { timeout, since, signal: left.signal });
      if (call) return { status: 200, headers: {}, contentType: 'application/json', body: { call } };
      return problemReply(
        problem('waitTimedOut', `No call matching ${JSON.stringify(match)} arrived within ${timeout} ms.`),
      );
    } catch (error) {
      if (error instanceof JournalClosedError) {
        const detail =
          `The session "${ex.session.name}" was dropped while this wait was open: more named sessions than ` +
          'the session limit were used, or the mock was reset. Its calls are gone; a new wait starts it afresh.';
        return problemReply(problem('sessionDropped', detail));
      }
      // The client left: nobody reads the answer (the admin API does not write it).
      if (left.signal.aborted) return problemReply(problem('waitTimedOut', 'The client left before a call came.'));
      throw error;
    } finally {
      open--;
      ex.res.off('close', leave);
    }
  };
}
