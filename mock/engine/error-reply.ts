// The answer to an error thrown inside the pipeline or by a body reader: a problem+json, and a log line.
import type { MockContext } from '../instance/mock-context.js';
import { toProblem, type HttpError } from '../http/to-problem.js';
import { problemReply, type Reply } from '../http/reply.js';
import { TOO_DEEP_BODY } from '../http/body-depth.js';
import type { ContractExchange } from './contract-exchange.js';

/**
 * The problem reply for an error (a body reader's refusal, or 500 for an unexpected one): stack traces go to
 * `log`, never to the client. Call {@link forgetBody} before recording the call with it.
 */
export function errorReply(
  context: Pick<MockContext, 'options'>,
  ex: Pick<ContractExchange, 'method' | 'path'>,
  thrown: unknown,
  log: (message: string) => void,
): Reply {
  const error: HttpError = thrown instanceof Error ? thrown : new Error(String(thrown));
  const [found, violations] = toProblem(error, ex.path, context.options.bodyLimit);
  // The client hears a refused change (500, 507); whoever runs the mock must too: changes are not being kept.
  if (isStateFailure(error)) log(`${ex.method} ${ex.path} changed nothing: ${error.message}`);
  else if (found.status === 500) log(`unexpected error on ${ex.method} ${ex.path}: ${describe(error)}`);
  return problemReply(found, {}, violations);
}

/** The exchange forgets the body an error left it with (one nested too deep is recorded as a note). */
export function forgetBody(ex: ContractExchange, thrown: unknown): void {
  ex.body = undefined;
  if ((thrown as HttpError | undefined)?.type === 'entity.too.deep') ex.unrecordableBody = TOO_DEEP_BODY;
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
