// Picks the documented response to send: status code, media type and, if asked, a named example.
import type { IHttpOperationResponse, IMediaTypeContent } from '@stoplight/types';
import { statusOf, type ResponseTable } from '../spec/response-table.js';

/** The response the mock will send. `content` is absent when the response has no body. */
export interface ResponseChoice {
  status: number;
  response: IHttpOperationResponse;
  content?: IMediaTypeContent;
  /** The example asked for with `Prefer: example=NAME`. */
  exampleKey?: string;
}

/** What a request asks of the response: a status, a named example (both optional). */
export interface ResponseWish {
  code?: number;
  example?: string;
}

export type ChoiceResult =
  { ok: true; choice: ResponseChoice } | { ok: false; reason: 'prefer' | 'not-acceptable'; message: string };

/** What choosing reads of an operation: its responses, its id (for messages), and how it negotiates. */
export interface Choosing {
  operationId: string;
  responses: ResponseTable;
  negotiate(accept: string | undefined, types: readonly string[]): string | false;
}

/**
 * Chooses the response for a valid request: the documented one for `code` if given (see the response
 * table), otherwise the operation's success response. The media type follows `Accept`; an error response
 * is sent even when `Accept` does not list its type, since a client must learn what went wrong. A plan
 * remembers what it chose (see operation-plan.ts): the choice depends on nothing else.
 * @example chooseResponse(choosing, { code: 404 }, 'application/json')
 */
export function chooseResponse(operation: Choosing, wish: ResponseWish, accept: string | undefined): ChoiceResult {
  const { responses, operationId } = operation;
  const response = wish.code === undefined ? responses.success : responses.lookup(wish.code);
  if (!response) {
    const documented = responses.codes.join(', ');
    const message = `Prefer code=${wish.code} is not documented for ${operationId}; documented: ${documented}.`;
    return { ok: false, reason: 'prefer', message };
  }
  const status = statusOf(response.code, wish.code);
  // 204 and 304 never carry a body, whatever a `default` response documents.
  const contents = status === 204 || status === 304 ? [] : (response.contents ?? []).filter((c) => c.mediaType);
  if (contents.length === 0) {
    if (wish.example === undefined) return { ok: true, choice: { status, response } };
    const message = `Prefer example=${wish.example}: the ${status} response of ${operationId} has no body.`;
    return { ok: false, reason: 'prefer', message };
  }
  const types = contents.map((c) => c.mediaType);
  const accepted = operation.negotiate(accept, types);
  if (accepted === false && status < 400) {
    return { ok: false, reason: 'not-acceptable', message: `The Accept header allows none of: ${types.join(', ')}.` };
  }
  const content = contents.find((c) => c.mediaType === accepted) ?? contents[0]!;
  if (wish.example === undefined) return { ok: true, choice: { status, response, content } };
  const names = (content.examples ?? []).map((e) => e.key);
  if (!names.includes(wish.example)) {
    const known = names.length ? names.join(', ') : 'none';
    const message =
      `Prefer example=${wish.example} is not an example of the ${status} response of ${operationId}; ` +
      `examples: ${known}.`;
    return { ok: false, reason: 'prefer', message };
  }
  return { ok: true, choice: { status, response, content, exampleKey: wish.example } };
}
