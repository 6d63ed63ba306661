// Picks the session of a request from `X-Mock-Session` (or `?session=` on the admin API).
import type { Request, RequestHandler, Response } from 'express';
import { problem } from '../problems/problems.js';
import { sessionOf, type MockContext, type Session } from './mock-context.js';
import { problemReply, sendReply } from './send-reply.js';

export const SESSION_HEADER = 'x-mock-session';
const NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/** The session chosen for this response's request. */
export function currentSession(res: Response): Session {
  return res.locals.session as Session;
}

/** Sets `res.locals.session`; a malformed session name answers 400 (recorded in the default session). */
export function selectSession(context: MockContext): RequestHandler {
  return (req, res, next) => {
    const name = sessionName(req);
    res.locals.session = sessionOf(context, NAME.test(name) || name === '' ? name : '');
    if (name === '' || NAME.test(name)) return next();
    const violations = [{ location: 'header' as const, pointer: `/${SESSION_HEADER}`, message: 'must be 1-64 characters of [A-Za-z0-9_.:-]' }];
    const body = problem('invalidRequest', `The session name "${name.slice(0, 80)}" is not 1-64 characters of letters, digits, "_", ".", ":" or "-".`, { instance: req.path, violations });
    // Recorded in the default session, like any request that reaches the mock (admin requests excepted).
    if (req.path.startsWith('/__mock')) return void res.status(400).type('application/problem+json').send(JSON.stringify(body));
    sendReply(req, res, undefined, violations, problemReply(body));
  };
}

function sessionName(req: Request): string {
  const header = req.headers[SESSION_HEADER];
  if (typeof header === 'string') return header;
  const query = req.path.startsWith('/__mock/') ? req.query.session : undefined;
  return typeof query === 'string' ? query : '';
}
