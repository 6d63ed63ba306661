// The one explanation of a request nothing answers, for the contract's paths and the admin API's alike: a 404
// whose detail lists what there is, and a 405 that says which methods the path takes (with `Allow`). Both are
// the mock's own problem with no other member: no operation's schema describes them, and a contract's closed
// problem schema (ours) would refuse one.
import { problem } from './problems.js';
import { problemReply, type Reply } from './reply.js';

/** What was asked: the method, the path as routed, and the target as the client sent it (the problem's instance). */
export interface Unmatched {
  method: string;
  path: string;
  instance?: string;
}

/**
 * 404: the path is none of `surface`'s (`the contract`, `the admin API`), listing what it has (`note` adds
 * where else it is served).
 * @example unmatchedPath({ method: 'GET', path: '/pets' }, 'the contract', ['GET /members/{member_id}/passes'])
 */
export function unmatchedPath(
  { method, path, instance = path }: Unmatched,
  surface: string,
  has: readonly string[],
  note = '',
): Reply {
  const detail = `${method} ${path} matches no path of ${surface}. It has: ${has.join(', ') || 'nothing'}.${note}`;
  return problemReply(problem('routeNotFound', detail, { instance }));
}

/**
 * 405 with `Allow`: the path is `surface`'s, the method is not one it takes.
 * @example unmatchedMethod({ method: 'PUT', path: '/__mock' }, 'the admin API', ['GET', 'HEAD'])
 */
export function unmatchedMethod(
  { method, path, instance = path }: Unmatched,
  surface: string,
  allow: readonly string[],
): Reply {
  const allowed = allow.join(', ');
  const detail = `${method} is not defined for ${path}; ${surface} has: ${allowed}.`;
  return problemReply(problem('methodNotAllowed', detail, { instance }), { Allow: allowed });
}
