// Protects the admin API with a bearer token, compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { problemReply, writeReply } from '../handler/send-reply.js';
import { problem } from '../problems/problems.js';

/** Lets a request through only with `Authorization: Bearer <token>`; without a token set, lets everything through. */
export function adminGuard(token: string | undefined): RequestHandler {
  if (!token) return (_req, _res, next) => next();
  const expected = digest(token);
  return (req, res, next) => {
    const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (given !== undefined && timingSafeEqual(digest(given), expected)) return next();
    const body = problem(
      'unauthorized',
      'The admin API needs the admin token: send Authorization: Bearer <token> (--admin-token or MOCK_ADMIN_TOKEN).',
      {
        instance: req.originalUrl,
        violations: [
          {
            location: 'header',
            pointer: '/authorization',
            message: given === undefined ? 'missing' : 'not the admin token',
          },
        ],
      },
    );
    writeReply(res, problemReply(body, { 'WWW-Authenticate': 'Bearer realm="membership-mock admin"' }));
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
