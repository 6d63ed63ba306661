// CORS for browsers: any origin by default (or a list), preflights answered from the contract's methods.
import type { RequestHandler } from 'express';
import { allowedMethods } from '../prism/prism-adapter.js';
import { problem } from '../problems/problems.js';
import type { MockContext } from './mock-context.js';
import { problemReply, sendReply } from './send-reply.js';

/**
 * Sets CORS headers on every answer to an allowed origin, echoing it so credentialed requests work too,
 * and answers preflights with 204 and the methods the contract has for the path. Preflights and refusals
 * are journaled like any request that reaches the mock. The admin API answers other origins only when
 * they are listed by name (`--cors-origin`): "any origin" would let any web page read the journal.
 */
export function cors(context: MockContext): RequestHandler {
  const { cors: allow } = context.options;
  return (req, res, next) => {
    if (allow === false) return next();
    res.vary('Origin');
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    const admin = req.path.startsWith('/__mock/') || req.path === '/__mock';
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    const listed = allow !== true && allow.includes(origin);
    if (!(listed || (allow === true && !admin))) {
      if (!preflight) return next();
      const body = problem('forbiddenOrigin', `The origin ${origin} is not allowed${admin ? ' to use the admin API' : ''}; allow it with --cors-origin.`, { instance: req.path });
      if (admin) return void res.status(403).type('application/problem+json').send(JSON.stringify(body));
      return sendReply(req, res, undefined, [], problemReply(body));
    }
    res.set({
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Expose-Headers': context.served.exposedHeaders,
    });
    if (!preflight) return next();
    const requested = String(req.headers['access-control-request-method']).toUpperCase();
    const known = admin ? [] : allowedMethods(context.served.specs, req.path);
    const headers = {
      'Access-Control-Allow-Methods': (known.length ? known : [requested]).join(', '),
      'Access-Control-Allow-Headers': String(req.headers['access-control-request-headers'] ?? ''),
      'Access-Control-Max-Age': '600',
    };
    if (admin) return void res.status(204).set(headers).end();
    sendReply(req, res, undefined, [], { status: 204, headers });
  };
}
