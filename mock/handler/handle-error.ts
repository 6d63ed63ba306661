// The one error answer: body-parser failures and unexpected errors leave as problem+json, and are recorded.
import type { MockContext } from '../instance/mock-context.js';
import { toProblem, type HttpError } from '../http/to-problem.js';
import { problemReply, type Reply } from '../http/reply.js';
import type { Exchange } from './exchange.js';
import { TOO_DEEP_BODY } from '../http/body-depth.js';
import { writeAnswer } from './send-reply.js';

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
    const error: HttpError = thrown instanceof Error ? thrown : new Error(String(thrown));
    const [found, violations] = toProblem(error, ex.path, context.options.bodyLimit);
    // The client hears a refused change (500, 507); whoever runs the mock must too: changes are not being kept.
    if (isStateFailure(error)) log(`${ex.method} ${ex.path} changed nothing: ${error.message}`);
    else if (found.status === 500) log(`unexpected error on ${ex.method} ${ex.path}: ${describe(error)}`);
    if (ex.res.headersSent) return void ex.res.destroy();
    ex.body = undefined;
    if (error.type === 'entity.too.deep') ex.unrecordableBody = TOO_DEEP_BODY;
    // The problem carries the request id alone: a header gathered before the failure may be what failed.
    ex.headers.splice(2);
    const reply = problemReply(found, {}, violations);
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

/** Whether the state file refused a change, or is gone (see sqlite-store.ts's StateWriteError). */
export function isStateFailure(error: unknown): error is Error {
  const type = (error as HttpError | undefined)?.type;
  return type === 'state.unsaved' || type === 'state.disk.full' || type === 'state.file.gone';
}

/** An error's stack (or message) for the log. */
export function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
