// One log line per request, written when the response has been sent: method, path, operationId, status, ms.
import type { RequestHandler } from 'express';
import type { ResolvedMockOptions } from '../options.js';

/** Logs each request in the chosen format; does nothing when logging is off. */
export function logRequests({ log, logTo }: ResolvedMockOptions): RequestHandler {
  return (req, res, next) => {
    if (log === 'off') return next();
    const start = process.hrtime.bigint();
    // Read now: routers mounted below (the admin API) rewrite the path while they run.
    const path = req.path;
    res.once('finish', () => {
      const ms = Math.round(Number(process.hrtime.bigint() - start) / 10_000) / 100;
      const operationId = (res.locals.operationId as string | undefined) ?? null;
      if (log === 'json') {
        logTo(JSON.stringify({ time: new Date().toISOString(), requestId: res.locals.requestId, method: req.method, path, operationId, status: res.statusCode, ms }));
      } else {
        logTo(`${req.method} ${path} ${operationId ?? '-'} ${res.statusCode} ${ms}ms ${res.locals.requestId as string}`);
      }
    });
    next();
  };
}
