// One log line per request, written when the response has been sent: method, path, operationId, status, ms.
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ResolvedMockOptions } from '../options.js';
import type { Exchange } from './exchange.js';

/** Writes the log line of a finished response. */
export type RequestLogger = (ex: Exchange) => void;

const LOGGED = Symbol('membership-mock log');
type Logged = ServerResponse & { [LOGGED]?: { ex: Exchange; start: number } };

/**
 * A logger for the chosen format; `undefined` when logging is off. One `finish` listener serves every
 * response (it finds its request on the response), so logging costs no closure per request.
 * @example const log = createRequestLogger(options); log?.(ex);
 */
export function createRequestLogger({ log, logTo }: ResolvedMockOptions): RequestLogger | undefined {
  if (log === 'off') return undefined;
  function onFinish(this: Logged): void {
    const entry = this[LOGGED];
    if (!entry) return;
    const { ex, start } = entry;
    const ms = Math.round((performance.now() - start) * 100) / 100;
    const operationId = ex.match?.plan.operation.id ?? null;
    const { method, path, requestId } = ex;
    const line =
      log === 'json'
        ? JSON.stringify({
            time: new Date().toISOString(),
            requestId,
            method,
            path,
            operationId,
            status: this.statusCode,
            ms,
          })
        : `${method} ${path} ${operationId ?? '-'} ${this.statusCode} ${ms}ms ${requestId}`;
    try {
      logTo(line);
    } catch {
      // A logger that fails (a closed stream, a throwing `logTo`) loses the line, never the process.
    }
  }
  return (ex) => {
    const res = ex.res as Logged;
    res[LOGGED] = { ex, start: performance.now() };
    // `on`, not `once`: a response finishes once, and `once` would wrap the listener anew each time.
    res.on('finish', onFinish);
  };
}
