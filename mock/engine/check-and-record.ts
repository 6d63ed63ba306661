// The check and record stages of every contract request, as one function a transport calls before it writes.
import type { MockContext } from '../instance/mock-context.js';
import type { Reply } from '../http/reply.js';
import { createAnswerCheck } from '../respond/check-answer.js';
import type { ContractExchange } from './contract-exchange.js';
import { recordAnswer } from './record-call.js';

/** Checks an answer against the contract, records the call, and returns the reply to write. */
export type CheckAndRecord = (ex: ContractExchange, reply: Reply) => Reply;

/**
 * The check and record stages of one mock (its answer check is made once).
 * @example const checked = createCheckAndRecord(context); write(ex, checked(ex, reply));
 */
export function createCheckAndRecord(context: MockContext): CheckAndRecord {
  const checkAnswer = createAnswerCheck({
    generator: context.generator,
    errors: context.options.errors,
    warn: (msg, fields) => context.logger.warn(msg, fields),
  });
  return (ex, reply) =>
    recordAnswer(ex, checkAnswer({ hit: ex.match, path: ex.path, headers: ex.requestHeaders, query: ex.query }, reply));
}
