// One log line per request, written as its answer is written (or its connection dropped): method, path,
// operationId, status, ms, and the fault when the mock injected one.
import type { Logger } from '../instance/logger.js';
import { elapsedMs, type RequestLogger } from './exchange.js';

/**
 * The request logger of a mock, `undefined` when logging is off. It is called where answers are written
 * (send-reply.ts), so logging costs no listener per response.
 * @example ex.log = createRequestLogger(context.logger);
 */
export function createRequestLogger(logger: Logger): RequestLogger | undefined {
  if (logger.format === 'off') return undefined;
  return (ex, status) => {
    const ms = elapsedMs(ex);
    const { method, path, requestId, fault, answeredBy, api } = ex;
    const id = ex.match?.plan.operation.id;
    // Fields without a value are `undefined` rather than spread in: one shape of line, no copies (JSON leaves
    // them out all the same).
    logger.request({
      requestId,
      method,
      path,
      // With several APIs the line names the API: `payments:createCharge`.
      operationId: id === undefined ? null : api === undefined || id.startsWith(`${api}:`) ? id : `${api}:${id}`,
      contract: api,
      status: status ?? null,
      ms,
      fault: fault || undefined,
      answeredBy: answeredBy && answeredBy !== 'mock' ? answeredBy : undefined,
    });
  };
}
