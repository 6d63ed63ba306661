// The last step of every contract request on Node: record the call in the journal (engine/record-call.ts),
// then write the response.
import type { CheckedAnswer } from '../respond/check-answer.js';
import type { Reply } from '../http/reply.js';
import { recordAnswer, recordDrop as recordDroppedCall } from '../engine/record-call.js';
import { writeReply } from './write-reply.js';
import type { Exchange } from './exchange.js';

export { recordCall } from '../engine/record-call.js';

/**
 * Records the call with an answer the check stage passed (see respond/check-answer.ts), then sends it.
 * Recording comes first so that a client that has its answer always finds its call in the journal.
 */
export function sendReply(ex: Exchange, checked: CheckedAnswer): void {
  writeAnswer(ex, recordAnswer(ex, checked));
}

/**
 * Writes an answer without recording it (the admin API's answers are not calls), with the exchange's headers,
 * then logs it.
 */
export function writeAnswer(ex: Exchange, reply: Reply): void {
  writeReply(ex.res, reply, ex.headers);
  ex.log?.(ex, reply.status);
}

/**
 * Records a call whose connection is dropped on purpose (a fault: `ex.fault` is `drop`), with no answer
 * (status 0), then closes the connection and logs it.
 */
export function recordDrop(ex: Exchange): void {
  recordDroppedCall(ex);
  ex.req.socket.destroy();
  ex.log?.(ex, undefined);
}
