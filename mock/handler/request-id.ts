// Gives every request an id: the caller's `X-Request-Id` when it is sensible, a new UUID otherwise.
import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';

const SENSIBLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of this response's request. */
export function requestIdOf(res: Response): string {
  return res.locals.requestId as string;
}

/** Sets `res.locals.requestId` and the `X-Request-Id` response header, for logs, the journal and support. */
export function assignRequestId(): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && SENSIBLE.test(given) ? given : randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}
