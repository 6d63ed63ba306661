// Gives every request an id: the caller's `X-Request-Id` when it is sensible, a new UUID otherwise.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SENSIBLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request, for the `X-Request-Id` response header, the logs, the journal and support. */
export function newRequestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SENSIBLE.test(given) ? given : randomUUID();
}
