// The answer of a replica whose shared store (Redis) does not answer in time: a 503 problem, not journaled.
import { problem } from '../http/problems.js';
import { problemReply, type Reply } from '../http/reply.js';
import type { Exchange } from './exchange.js';

const DETAIL =
  'The Redis server this mock shares its state with did not answer in time: nothing was done. Try again; ' +
  'GET /__mock/health/ready says when it answers again.';

/** A 503 `store-unavailable` problem for the request, with `Retry-After: 1`. */
export function storeUnavailable(ex: Pick<Exchange, 'path'>): Reply {
  return problemReply(problem('storeUnavailable', DETAIL, { instance: ex.path }), { 'Retry-After': '1' });
}
