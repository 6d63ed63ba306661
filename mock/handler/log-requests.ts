// One log line per request, written when the response has been sent: method, path, operationId, status, ms.
import type { ResolvedMockOptions } from '../options.js';
import type { Exchange } from './exchange.js';

/** Logs a request in the chosen format once its response is sent; does nothing when logging is off. */
export function logRequest({ log, logTo }: ResolvedMockOptions, ex: Exchange): void {
  if (log === 'off') return;
  const start = process.hrtime.bigint();
  const { method, path, requestId, res } = ex;
  res.once('finish', () => {
    const ms = Math.round(Number(process.hrtime.bigint() - start) / 10_000) / 100;
    const operationId = ex.match?.plan.operation.id ?? null;
    const line =
      log === 'json'
        ? JSON.stringify({
            time: new Date().toISOString(),
            requestId,
            method,
            path,
            operationId,
            status: res.statusCode,
            ms,
          })
        : `${method} ${path} ${operationId ?? '-'} ${res.statusCode} ${ms}ms ${requestId}`;
    try {
      logTo(line);
    } catch {
      // A logger that fails (a closed stream, a throwing `logTo`) loses the line, never the process.
    }
  });
}
