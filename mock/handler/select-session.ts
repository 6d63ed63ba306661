// Picks the session of a request from `X-Mock-Session` (or `?session=` on the admin API).
import type { IncomingMessage } from 'node:http';
import { problem } from '../problems/problems.js';
import type { Exchange, Query } from './exchange.js';
import { problemReply, type Reply } from '../reply/reply.js';

export const SESSION_HEADER = 'x-mock-session';
const NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/** The name of the session a request names, `''` for the default one (also for a malformed name: see {@link refuseSessionName}). */
export function requestedSession(req: IncomingMessage, path: string, query: Query): string {
  const name = sessionName(req, path, query);
  return name === '' || NAME.test(name) ? name : '';
}

/** A 400 problem when the request names a malformed session; such requests are recorded in the default session. */
export function refuseSessionName(ex: Exchange): Reply | undefined {
  const name = sessionName(ex.req, ex.path, ex.query);
  if (name === '' || NAME.test(name)) return undefined;
  const violations = [
    {
      location: 'header' as const,
      pointer: `/${SESSION_HEADER}`,
      message: 'must be 1-64 characters of [A-Za-z0-9_.:-]',
    },
  ];
  return problemReply(
    problem(
      'invalidRequest',
      `The session name "${name.slice(0, 80)}" is not 1-64 characters of letters, digits, "_", ".", ":" or "-".`,
      { instance: ex.path, violations },
    ),
  );
}

function sessionName(req: IncomingMessage, path: string, query: Query): string {
  const header = req.headers[SESSION_HEADER];
  if (typeof header === 'string') return header;
  const named = path.startsWith('/__mock/') ? query.session : undefined;
  return typeof named === 'string' ? named : '';
}
