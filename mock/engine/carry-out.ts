// Carries out an answer's body source: the mock's own problem, the contract (example, generated or an
// override's body), or state, which may change the store.
import { stateToolsOf, type MockContext } from '../instance/mock-context.js';
import type { Session } from '../instance/session.js';
import type { Reply, WireText } from '../http/reply.js';
import { renderResponse, type RenderRequest } from '../respond/render-response.js';
import { answerFromState, type StateAnswer } from '../state/answer-from-state.js';
import type { Answer } from '../respond/decide.js';

/** The request facts an answer's body may take from (state reads the query and body). */
export interface CarryOutRequest extends RenderRequest {
  query: Record<string, string | string[]>;
  body: unknown;
  /** The body's media type, as sent. */
  contentType: string | undefined;
}

/**
 * Makes the reply of an answer; for a state answer it creates, lists, reads, updates or deletes in the session's
 * store, and says whether the store changed.
 */
export function carryOut(
  context: MockContext,
  session: Session,
  request: CarryOutRequest,
  answer: Answer,
): StateAnswer {
  const { source } = answer;
  if (source.from === 'problem') return { reply: source.reply, changed: false };
  const { rendering } = source;
  const render = (stored?: unknown, as = rendering): Reply => {
    const reply = renderResponse(context.generator, as, request, stored);
    return answer.headers ? { ...reply, headers: { ...reply.headers, ...answer.headers } } : reply;
  };
  if (source.from === 'contract') return { reply: render(source.body), changed: false };
  const tools = stateToolsOf(context, session);
  // Written out, not spread: on Node 20 `{ ...request, more }` takes V8's slow path (about 2 µs a request).
  const { path, pathParams, query, body, contentType } = request;
  const { operationId, key } = rendering;
  const stateRequest = { path, pathParams, query, body, contentType, operationId, key };
  // A PUT that creates answers with its 201 (the same headers an override adds).
  const { created } = source;
  const renderCreated = created && ((stored: unknown) => render(stored, created));
  const result = answerFromState(source.collection, tools, stateRequest, render, renderCreated);
  const { role } = source.collection;
  // Records and pages are frozen: one read before is sent as the text it was sent as (and the journal keeps
  // that same string). Pages keep theirs as long as they live (the page memo is bounded); records read lately
  // keep theirs in a bounded memo of the session, since every record keeping its text would double the state.
  // Their bytes are kept beside the text, so the writer neither measures nor encodes it again.
  if (isJsonReply(result.reply) && (role === 'list' || role === 'read')) {
    const wire =
      role === 'list' ? textOf(context.texts, result.reply.body) : recordText(session, request.path, result.reply.body);
    result.reply.text = wire.text;
    result.reply.wire = wire;
  }
  return result;
}

function isJsonReply(reply: Reply): reply is Reply & { body: object } {
  const { body, contentType } = reply;
  return typeof body === 'object' && body !== null && Object.isFrozen(body) && /[/+]json\b/i.test(contentType ?? '');
}

/**
 * A record's text, charged to the memo twice its characters: the text, and the bytes a server's writer keeps
 * with it (as many as its characters, or more for other than ASCII; the charge bounds the memo, it is no count).
 */
function recordText(session: Session, path: string, record: object): WireText {
  const known = session.recordTexts.get(path);
  if (known?.record === record) return known.wire;
  const wire = { text: JSON.stringify(record) };
  return session.recordTexts.set(path, { record, wire }, 2 * wire.text.length).wire;
}

function textOf(texts: WeakMap<object, WireText>, body: object): WireText {
  let wire = texts.get(body);
  if (wire === undefined) texts.set(body, (wire = { text: JSON.stringify(body) }));
  return wire;
}
