// The record stage of every contract request: the call in its session's journal, before the reply is written.
import type { CheckedAnswer } from '../respond/check-answer.js';
import type { NewCall } from '../journal/journal.js';
import type { Violation } from '../http/problems.js';
import { bodyText, isEmpty, sendableHeaders, type Reply } from '../http/reply.js';
import { elapsedMs, type ContractExchange } from './contract-exchange.js';
import { BoundedMemo } from '../lib/bounded-memo.js';

/**
 * Records the call with an answer the check stage passed (see respond/check-answer.ts), and returns the reply
 * to write: its headers those that may be sent, its body serialised once (the journal keeps the same text).
 * Recording comes first so that a client that has its answer always finds its call in the journal.
 */
export function recordAnswer(ex: ContractExchange, { reply, refusal, responseViolations }: CheckedAnswer): Reply {
  const headers = sendableHeaders(reply.headers);
  // Serialised once, for the wire and for the journal (which keeps bodies as text), as the wire has it.
  const text = reply.text ?? bodyText(reply);
  const response = {
    status: reply.status,
    headers: reply.contentType ? withContentType(headers, reply.contentType) : headers,
    // A HEAD answer carries no body on the wire, so none is recorded.
    body: ex.method === 'HEAD' ? undefined : reply.body,
    text,
  };
  recordCall(ex, reply.violations ?? NONE, response, reply.violationCount, { refusal, responseViolations });
  return headers === reply.headers && text === reply.text ? reply : Object.assign({}, reply, { headers, text });
}

/**
 * The headers with the media type the writer sends. Not `{ ...headers, name }`, nor `{ ...reply, text }` above:
 * on Node 20 a spread copy given a property its source lacks takes V8's slow path (1.5 µs each, every request).
 */
function withContentType(headers: Record<string, string>, type: string): Record<string, string> {
  if (isEmpty(headers)) return TYPE_ONLY.get(type) ?? TYPE_ONLY.set(type, Object.freeze({ 'content-type': type }));
  const out = Object.assign({}, headers);
  out['content-type'] = type;
  return out;
}

/**
 * The headers of a reply that has none but its media type, one object per media type: the journal keeps a call's
 * headers as long as the call, and a list or a read would otherwise leave one more object to the collector each.
 */
const TYPE_ONLY = new BoundedMemo<Record<string, string>>(256, 1024);

/** Records a call whose connection is dropped on purpose (a fault: `ex.fault` is `drop`): no answer, status 0. */
export function recordDrop(ex: ContractExchange): void {
  recordCall(ex, NONE, { status: 0, headers: {} });
}

/** No violations: one shared list, since every valid call would otherwise keep an empty one of its own. */
const NONE: Violation[] = Object.freeze([]) as unknown as Violation[];

/** Records a call as the journal keeps it: secrets redacted (unless `journalSecrets`), who answered, any fault. */
export function recordCall(
  ex: ContractExchange,
  violations: Violation[],
  response: NewCall['response'],
  violationCount?: number,
  verdict: Pick<NewCall, 'refusal' | 'responseViolations'> = {},
): void {
  const sent = { headers: ex.requestHeaders as Record<string, string | string[]>, query: ex.query };
  // Kept as they are, not copied, when nothing is secret: nothing changes them after the request, and the
  // journal hands out copies.
  const { headers, query } = ex.redact ? ex.redact(sent.headers, sent.query) : sent;
  const answered = ex.redact ? ex.redact(response.headers, NO_QUERY).headers : response.headers;
  // Every field named, those without a value `undefined`: the journal keeps a call field by field (kept-call.ts),
  // and a literal of one shape costs less than one spread per optional field.
  ex.session.journal.record({
    requestId: ex.requestId,
    // As the log line measures it (log-requests.ts), to the hundredth of a millisecond.
    ms: elapsedMs(ex),
    operationId: ex.match?.plan.operation.id ?? null,
    contract: ex.api,
    method: ex.method,
    path: ex.path,
    pathParams: ex.match?.pathParams ?? {},
    query,
    headers,
    body: ex.unrecordableBody ?? ex.bodyBase64 ?? ex.body,
    bodyEncoding: ex.unrecordableBody === undefined && ex.bodyBase64 !== undefined ? 'base64' : undefined,
    bodyBytes: ex.bodyBytes,
    bodyPartOf: ex.bodyPartOf,
    // The text as it came (a refused or unrecordable body has none to keep).
    sentJson: ex.body === undefined || ex.unrecordableBody !== undefined ? undefined : ex.sentJson(),
    response: answered === response.headers ? response : { ...response, headers: answered },
    violations,
    violationCount,
    refusal: verdict.refusal || undefined,
    responseViolations: verdict.responseViolations || undefined,
    fault: ex.fault || undefined,
    answeredBy: ex.answeredBy || undefined,
    fallback: ex.fallback,
  });
}

const NO_QUERY: Record<string, string> = Object.freeze({}) as Record<string, string>;
