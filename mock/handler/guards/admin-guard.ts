// Protects the admin API with a bearer token, compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import { problem } from '../../http/problems.js';
import { problemReply, type Reply } from '../../http/reply.js';

/** The 401 for an admin request without the token, or `undefined` to let it through. */
export type AdminGuard = (authorization: string | undefined, instance: string) => Reply | undefined;

/**
 * Lets a request through only with `Authorization: Bearer <token>`; without a token set, lets everything through.
 * @example adminGuard('s3cret')('Bearer s3cret', '/__mock/calls') // undefined: allowed
 */
export function adminGuard(token: string | undefined): AdminGuard {
  if (!token) return () => undefined;
  const expected = digest(token);
  return (authorization, instance) => {
    const given = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
    if (given !== undefined && timingSafeEqual(digest(given), expected)) return undefined;
    const detail =
      'The admin API needs the admin token: send Authorization: Bearer <token> (--admin-token or MOCK_ADMIN_TOKEN).';
    const message = given === undefined ? 'missing' : 'not the admin token';
    const body = problem('unauthorized', detail, {
      instance,
      violations: [{ location: 'header', pointer: '/authorization', message }],
    });
    return problemReply(body, { 'WWW-Authenticate': 'Bearer realm="membership-mock admin"' });
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
