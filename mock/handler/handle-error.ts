// The one error answer: body-parser failures and unexpected errors leave as problem+json, and are recorded.
import { problem, type Problem, type Violation } from '../problems/problems.js';
import type { Exchange } from './exchange.js';
import type { MockContext } from './mock-context.js';
import { problemReply, sendReply } from './send-reply.js';

interface HttpError extends Error {
  type?: string;
  status?: number;
  limit?: number;
  length?: number;
  charset?: string;
  encoding?: string;
}

/**
 * Answers an error thrown inside the pipeline or passed on by a body parser. Stack traces go to the log,
 * never to the client; when the answer had already started, the connection is closed instead. It never
 * throws: if even the answer fails, the connection is closed and the process goes on.
 */
export function handleError(
  context: MockContext,
  ex: Exchange,
  thrown: unknown,
  log: (message: string) => void = console.error,
): void {
  try {
    const error: HttpError = thrown instanceof Error ? thrown : new Error(String(thrown));
    const [found, violations] = toProblem(error, ex.path, context.options.bodyLimit);
    if (found.status === 500)
      log(`membership-mock: unexpected error on ${ex.method} ${ex.path}: ${error.stack ?? error.message}`);
    if (ex.res.headersSent) return void ex.res.destroy();
    ex.body = undefined;
    sendReply(ex, problemReply(found, {}, violations));
  } catch (failure) {
    log(
      `membership-mock: could not answer ${ex.method} ${ex.path} after an error: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}`,
    );
    ex.res.destroy();
  }
}

/** The problem for an error of the body parsers (or an unexpected one: 500), with its violations. */
export function toProblem(error: HttpError, instance: string, bodyLimit: number): [Problem, Violation[]] {
  const at = (location: Violation['location'], pointer: string, message: string): Violation[] => [
    { location, pointer, message },
  ];
  switch (error.type) {
    case 'entity.parse.failed': {
      const message = `The body is not valid JSON: ${error.message}.`;
      return [
        problem('malformedJson', message, { instance, violations: at('body', '', message) }),
        at('body', '', message),
      ];
    }
    case 'encoding.invalid': {
      const message = 'The body is not valid UTF-8.';
      return [
        problem('invalidRequest', message, { instance, violations: at('body', '', message) }),
        at('body', '', message),
      ];
    }
    case 'entity.too.large': {
      const message = `The body has ${error.length ?? 'more than the limit of'} bytes; the limit is ${bodyLimit} bytes.`;
      return [
        problem('payloadTooLarge', message, { instance, violations: at('body', '', message) }),
        at('body', '', message),
      ];
    }
    case 'charset.unsupported':
    case 'encoding.unsupported': {
      const message = `The body's ${error.charset ? `charset "${error.charset}"` : `encoding "${error.encoding}"`} is not supported; send UTF-8 JSON without compression.`;
      return [
        problem('unsupportedMediaType', message, { instance, violations: at('header', '/content-type', message) }),
        at('header', '/content-type', message),
      ];
    }
    case 'request.aborted':
    case 'request.size.invalid': {
      const message = 'The body ended before its announced length.';
      return [
        problem('invalidRequest', message, { instance, violations: at('body', '', message) }),
        at('body', '', message),
      ];
    }
    default:
      // Other body-reading failures (a corrupt compressed body, say) are the client's, as their 4xx status says.
      if (error.status !== undefined && error.status >= 400 && error.status < 500) {
        const message = `The body could not be read: ${error.message}.`;
        return [
          problem('invalidRequest', message, { instance, violations: at('body', '', message) }),
          at('body', '', message),
        ];
      }
      return [
        problem('internal', 'The mock failed to answer this request; the server log has the details.', { instance }),
        [],
      ];
  }
}
