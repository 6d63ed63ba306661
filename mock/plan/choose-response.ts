// Picks the documented response to send: status code, media type and, if asked, a named example.
import type { IHttpOperationResponse, IMediaTypeContent } from '@stoplight/types';
import Negotiator from 'negotiator';
import { statusOf, type ResponseTable } from '../schema/response-table.js';

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
  | { ok: true; choice: ResponseChoice }
  | { ok: false; reason: 'prefer' | 'not-acceptable' | 'no-response'; message: string };

/** What choosing reads of an operation: its responses, its id (for messages), and how it negotiates. */
export interface Choosing {
  operationId: string;
  responses: ResponseTable;
  negotiate(accept: string | undefined, types: readonly string[]): string | false;
}

/**
 * Chooses the response for a valid request: the documented one for `code` if given (see the response
 * table), otherwise the operation's success response (`no-response` when it documents none). The media type
 * follows `Accept`; an error response is sent even when `Accept` does not list its type, since a client must
 * learn what went wrong. A plan remembers what it chose (see operation-plan.ts): the choice depends on nothing
 * else.
 * @example chooseResponse(choosing, { code: 404 }, 'application/json')
 */
export function chooseResponse(operation: Choosing, wish: ResponseWish, accept: string | undefined): ChoiceResult {
  const { responses, operationId } = operation;
  // OpenAPI 3.1 lets an operation document no response at all: there is nothing to answer it with.
  if (responses.codes.length === 0 && wish.code === undefined) {
    return { ok: false, reason: 'no-response', message: `The operation ${operationId} documents no response.` };
  }
  const response = wish.code === undefined ? responses.success : responses.lookup(wish.code);
  if (!response) {
    const documented = responses.codes.join(', ') || 'none';
    const message = `Prefer code=${wish.code} is not documented for ${operationId}; documented: ${documented}.`;
    return { ok: false, reason: 'prefer', message };
  }
  const status = statusOf(response.code, wish.code);
  // 204 and 304 never carry a body, whatever a `default` response documents.
  const documented = status === 204 || status === 304 ? [] : (response.contents ?? []);
  const contents = documented.filter((c) => c.mediaType);
  // A body of no known media type (Swagger 2 without `produces`) is sent as none: a client that names the
  // types it reads would take that empty answer for one of them, so it gets 406, as from Prism.
  if (contents.length === 0 && documented.length > 0 && status < 400 && !acceptsAnything(accept)) {
    const message = `The ${status} response of ${operationId} has a body of no documented media type; ask for */*.`;
    return { ok: false, reason: 'not-acceptable', message };
  }
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

/**
 * The best of `types` for an Accept header (`false`: none), as Express's `req.accepts` chooses, and as
 * Prism does, again without the parameters (other than `q`) of the ranges that have some when nothing fits:
 * `application/vnd.x+json; version=1` reads a contract's `application/vnd.x+json`.
 * @example negotiateMediaType('application/vnd.x+json; version=1', ['application/vnd.x+json']) //
 * 'application/vnd.x+json'
 */
export function negotiateMediaType(accept: string | undefined, types: readonly string[]): string | false {
  const best = bestOf(accept, types);
  if (best !== false || accept === undefined || !accept.includes(';')) return best;
  const bare = accept
    .split(',')
    .map((range) => range.split(';').map((part) => part.trim()))
    .filter(([, ...params]) => params.some((param) => !/^q=/i.test(param)))
    .map(([type, ...params]) => [type, ...params.filter((param) => /^q=/i.test(param))].join(';'));
  return bare.length ? bestOf(bare.join(', '), types) : false;
}

/**
 * As Express's `req.accepts(types)` (the `accepts` package) chooses, with its negotiator, less its file-extension
 * names (`json` for application/json: a contract's media types have a `/`) and so without mime-db's 200 KB.
 */
function bestOf(accept: string | undefined, types: readonly string[]): string | false {
  if (types.length === 0) return false;
  if (!accept) return types[0]!;
  const [best] = new Negotiator({ headers: { accept } }).mediaTypes(types.filter((type) => type.includes('/')));
  return best === undefined ? false : best;
}

/** No Accept, or one with a `*\/*` range a client does not refuse (`q=0`). */
function acceptsAnything(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((part) => part.trim());
    return type === '*/*' && !params.some((param) => /^q=0(\.0*)?$/i.test(param));
  });
}
