// The one error answer of the Node listener: body-parser failures and unexpected errors leave as problem+json
// (engine/error-reply.ts makes it), and are recorded; a reply already started closes the connection instead.
import type { MockContext } from '../instance/mock-context.js';
import type { Reply } from '../http/reply.js';
import type { Exchange } from './exchange.js';
import { describe, errorReply, forgetBody, isStateFailure } from '../engine/error-reply.js';
import { writeAnswer } from './send-reply.js';

export { describe, isStateFailure };

/**
 * Answers an error thrown inside the pipeline or passed on by a body parser, through `finish` (the listener's
 * check, record and write). Stack traces go to the log, never to the client; when the answer had already
 * started, the connection is closed instead. It never throws: if even the answer fails, the connection is
 * closed and the process goes on.
 */
export function handleError(
  context: Pick<MockContext, 'options' | 'logger'>,
  ex: Exchange,
  thrown: unknown,
  finish: (ex: Exchange, reply: Reply) => void,
  log: (message: string) => void = (message) => context.logger.error(message),
): void {
  try {
    const reply = errorReply(context, ex, thrown, log);
    if (ex.res.headersSent) return void ex.res.destroy();
    forgetBody(ex, thrown);
    // The problem keeps the request id and CORS's headers (a browser hides an answer without them from the
    // page's script), unless Node refused to write a header: then one of them may be what failed.
    if (isHeaderError(thrown)) ex.headers.splice(2);
    try {
      finish(ex, reply);
    } catch (failure) {
      // Recording failed too (the session or the journal is what broke): the client still gets its answer.
      // (Had the write failed instead, the headers would be sent: the outer catch closes the connection.)
      if (ex.res.headersSent) throw failure;
      log(`could not record ${ex.method} ${ex.path}: ${describe(failure)}`);
      writeAnswer(ex, reply);
    }
  } catch (failure) {
    log(`could not answer ${ex.method} ${ex.path} after an error: ${describe(failure)}`);
    ex.res.destroy();
  }
}

/** Node's refusals of a header name or value it was asked to write. */
const HEADER_ERRORS = new Set(['ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_HTTP_INVALID_HEADER_VALUE']);

function isHeaderError(thrown: unknown): boolean {
  return HEADER_ERRORS.has((thrown as { code?: unknown } | null)?.code as string);
}
