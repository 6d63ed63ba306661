// CORS for browsers: any origin by default (or a list), preflights answered from the contract's methods.
import type { RequestHandler } from 'express';
import { allowedMethods } from '../prism/prism-adapter.js';
import { problem } from '../problems/problems.js';
import type { MockContext } from './mock-context.js';
import { sendReply } from './send-reply.js';

/**
 * Sets CORS headers on every answer to an allowed origin, echoing it so credentialed requests work too,
 * and answers preflights with 204 and the methods the contract has for the path. A preflight is journaled
 * like any request that reaches the mock (admin ones excepted).
 */
export function cors(context: MockContext): RequestHandler {
  const { cors: allow } = context.options;
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (allow === false || origin === undefined) return next();
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (allow !== true && !allow.includes(origin)) {
      if (!preflight) return next();
      const body = problem('forbiddenOrigin', `The origin ${origin} is not allowed; the mock allows ${allow.join(', ') || 'none'} (--cors-origin).`, { instance: req.path });
      res.status(403).type('application/problem+json').send(JSON.stringify(body));
      return;
    }
    res.set({
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Expose-Headers': context.served.exposedHeaders,
    });
    res.vary('Origin');
    if (!preflight) return next();
    const requested = String(req.headers['access-control-request-method']).toUpperCase();
    const known = req.path.startsWith('/__mock/') ? [] : allowedMethods(context.served.specs, req.path);
    const headers = {
      'Access-Control-Allow-Methods': (known.length ? known : [requested]).join(', '),
      'Access-Control-Allow-Headers': String(req.headers['access-control-request-headers'] ?? ''),
      'Access-Control-Max-Age': '600',
    };
    if (req.path.startsWith('/__mock/')) return void res.status(204).set(headers).end();
    sendReply(req, res, undefined, [], { status: 204, headers });
  };
}
