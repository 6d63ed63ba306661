// CORS for browsers: any origin by default (or a list), preflights answered from the contract's methods.
import vary from 'vary';
import { problem } from '../../http/problems.js';
import type { Exchange } from '../exchange.js';
import type { MockContext } from '../../instance/mock-context.js';
import { problemReply, type Reply } from '../../http/reply.js';

/**
 * Sets CORS headers on every answer to an allowed origin, echoing it so credentialed requests work too,
 * and answers preflights with 204 allowing the method and headers asked for. The admin API answers
 * other origins only when they are listed by name (`--cors-origin`): "any origin" would let any web page
 * read the journal. `Origin: null` gets `*` without credentials from the contract API, and is never listed.
 * Returns the answer when the request is a preflight or a refused one.
 */
export function applyCors(context: MockContext, ex: Exchange, admin: boolean): Reply | undefined {
  const { cors: allow } = context.options;
  if (allow === false) return undefined;
  const { req, res } = ex;
  // Vary joins a Vary the host app may have set (when the mock is mounted); otherwise it is ours alone.
  if (res.hasHeader('Vary')) vary(res, 'Origin');
  else ex.headers.push('Vary', 'Origin');
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
  // `Origin: null` (a sandboxed frame, a file, a redirect) can be any page: never credentials, never listed.
  const opaque = origin === 'null';
  const listed = allow !== true && !opaque && allow.includes(origin);
  if (!(listed || (allow === true && !admin))) {
    if (!preflight) return undefined;
    return problemReply(
      problem(
        'forbiddenOrigin',
        `The origin ${origin} is not allowed${admin ? ' to use the admin API' : ''}; allow it with --cors-origin.`,
        { instance: ex.path },
      ),
    );
  }
  if (opaque) ex.headers.push('Access-Control-Allow-Origin', '*');
  else ex.headers.push('Access-Control-Allow-Origin', origin, 'Access-Control-Allow-Credentials', 'true');
  ex.headers.push('Access-Control-Expose-Headers', context.served.exposedHeaders);
  if (!preflight) return undefined;
  // The method asked for is allowed whether or not the contract has it: the request then reaches the mock,
  // which answers it with a 404 or 405 problem a script can read (and journals it), not an opaque CORS error.
  const requested = String(req.headers['access-control-request-method']).toUpperCase();
  const headers = {
    'Access-Control-Allow-Methods': requested,
    'Access-Control-Allow-Headers': String(req.headers['access-control-request-headers'] ?? '*'),
    'Access-Control-Max-Age': '600',
  };
  return { status: 204, headers };
}
