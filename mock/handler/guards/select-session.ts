// Picks the session of a request from `X-Mock-Session` (or `?session=` on the admin API).
import { problem } from '../../http/problems.js';
import { problemReply, type Reply } from '../../http/reply.js';

/** What the session of a request is read from: its headers, its path and its query. */
interface Named {
  headers: Record<string, string | string[] | undefined>;
  path: string;
  query: Record<string, string | string[]>;
}

export const SESSION_HEADER = 'x-mock-session';
const NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * The name of the session a request names, `''` for the default one (also for a malformed name: see {@link
 * refuseSessionName}).
 */
export function requestedSession(request: Named): string {
  const name = sessionName(request);
  return name === '' || NAME.test(name) ? name : '';
}

/** A 400 problem when the request names a malformed session; such requests are recorded in the default session. */
export function refuseSessionName(request: Named): Reply | undefined {
  const name = sessionName(request);
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
      { instance: request.path, violations },
    ),
  );
}

function sessionName({ headers, path, query }: Named): string {
  const header = headers[SESSION_HEADER];
  if (typeof header === 'string') return header;
  const named = path.startsWith('/__mock/') ? query.session : undefined;
  return typeof named === 'string' ? named : '';
}
