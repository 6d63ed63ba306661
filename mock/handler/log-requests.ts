// One log line per answer, written as the answer is written: method, path, operationId, status, ms.
import { performance } from 'node:perf_hooks';
import type { ResolvedMockOptions } from '../options.js';
import type { Exchange } from './exchange.js';

/** Writes the log line of an answer just written. */
export type RequestLogger = (ex: Exchange, status: number) => void;

/**
 * The logger of the chosen format, `undefined` when logging is off. It is called where answers are written
 * (send-reply.ts), so logging costs no listener per response. A dropped connection gets no line.
 * @example ex.log = createRequestLogger(options);
 */
export function createRequestLogger({ log, logTo }: ResolvedMockOptions): RequestLogger | undefined {
  if (log === 'off') return undefined;
  return (ex, status) => {
    const ms = Math.round((performance.now() - ex.start) * 100) / 100;
    const operationId = ex.match?.plan.operation.id ?? null;
    const { method, path, requestId } = ex;
    const line =
      log === 'json'
        ? JSON.stringify({ time: new Date().toISOString(), requestId, method, path, operationId, status, ms })
        : `${method} ${path} ${operationId ?? '-'} ${status} ${ms}ms ${requestId}`;
    try {
      logTo(line);
    } catch {
      // A logger that fails (a closed stream, a throwing `logTo`) loses the line, never the process.
    }
  };
}
