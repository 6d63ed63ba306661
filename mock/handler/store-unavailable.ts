// The answer of a replica whose shared store (Redis) does not answer in time: a 503 problem, not journaled.
import { problem } from '../http/problems.js';
import { problemReply, type Reply } from '../http/reply.js';
import type { Unavailable } from '../instance/replication.js';
import type { Exchange } from './exchange.js';

const AGAIN = 'Try again; GET /__mock/health/ready says when it answers again.';

const DETAILS: Record<Unavailable | 'timeout', string> = {
  timeout: `The Redis server this mock shares its state with did not answer in time: nothing was done. ${AGAIN}`,
  'queue-full':
    'This replica already has as many requests waiting for the Redis server it shares its state with as it ' +
    `keeps (?maxQueued= of --store): nothing was done. ${AGAIN}`,
  'not-published':
    "The Redis server this mock shares its state with did not confirm this request's changes in time: they " +
    `may or may not have reached the other replicas. ${AGAIN}`,
};

/** A 503 `store-unavailable` problem for the request, with `Retry-After: 1`; `why` says what failed. */
export function storeUnavailable(ex: Pick<Exchange, 'path'>, why?: Unavailable): Reply {
  return problemReply(problem('storeUnavailable', DETAILS[why ?? 'timeout'], { instance: ex.path }), {
    'Retry-After': '1',
  });
}
