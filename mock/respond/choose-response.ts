// Picks the documented response to send: status code, media type and, if asked, a named example.
import type { IHttpOperationResponse, IMediaTypeContent } from '@stoplight/types';
import type { Operation } from '../contract/load-contract.js';
import type { Preferences } from './parse-prefer.js';

/** The response the mock will send. `content` is absent when the response has no body. */
export interface ResponseChoice {
  status: number;
  response: IHttpOperationResponse;
  content?: IMediaTypeContent;
  /** The example asked for with `Prefer: example=NAME`. */
  exampleKey?: string;
}

export type ChoiceResult =
  | { ok: true; choice: ResponseChoice }
  | { ok: false; reason: 'prefer'; message: string }
  | { ok: false; reason: 'not-acceptable'; message: string };

/** Content negotiation, as Express's `req.accepts(types)` does it. */
export type Negotiate = (types: string[]) => string | false;

/**
 * Chooses the response for a valid request: `Prefer: code=` if given, otherwise the lowest documented 2xx
 * (then `2XX`, then `default`). The media type follows `Accept`; an error response is sent even when
 * `Accept` does not list its type, since a client must learn what went wrong.
 */
export function chooseResponse(operation: Operation, preferences: Preferences, negotiate: Negotiate): ChoiceResult {
  const responses = operation.spec.responses;
  const response =
    preferences.code === undefined ? defaultResponse(responses) : findResponse(responses, preferences.code);
  if (!response) {
    const codes = responses.map((r) => r.code).join(', ');
    return {
      ok: false,
      reason: 'prefer',
      message: `Prefer code=${preferences.code} is not documented for ${operation.id}; documented: ${codes}.`,
    };
  }
  const status = statusOf(response.code, preferences.code);
  // 204 and 304 never carry a body, whatever a `default` response documents.
  const contents = status === 204 || status === 304 ? [] : (response.contents ?? []).filter((c) => c.mediaType);
  if (contents.length === 0) {
    if (preferences.example !== undefined) {
      return {
        ok: false,
        reason: 'prefer',
        message: `Prefer example=${preferences.example}: the ${status} response of ${operation.id} has no body.`,
      };
    }
    return { ok: true, choice: { status, response } };
  }
  const types = contents.map((c) => c.mediaType);
  const accepted = negotiate(types);
  if (accepted === false && status < 400) {
    return { ok: false, reason: 'not-acceptable', message: `The Accept header allows none of: ${types.join(', ')}.` };
  }
  const content = contents.find((c) => c.mediaType === accepted) ?? contents[0]!;
  if (preferences.example === undefined) return { ok: true, choice: { status, response, content } };
  const names = (content.examples ?? []).map((e) => e.key);
  if (!names.includes(preferences.example)) {
    const known = names.length ? names.join(', ') : 'none';
    return {
      ok: false,
      reason: 'prefer',
      message: `Prefer example=${preferences.example} is not an example of the ${status} response of ${operation.id}; examples: ${known}.`,
    };
  }
  return { ok: true, choice: { status, response, content, exampleKey: preferences.example } };
}

function defaultResponse(responses: IHttpOperationResponse[]): IHttpOperationResponse | undefined {
  const exact = responses.filter((r) => /^2\d\d$/.test(r.code)).sort((a, b) => Number(a.code) - Number(b.code))[0];
  return (
    exact ??
    responses.find((r) => r.code.toUpperCase() === '2XX') ??
    responses.find((r) => r.code === 'default') ??
    responses[0]
  );
}

function findResponse(responses: IHttpOperationResponse[], code: number): IHttpOperationResponse | undefined {
  const text = String(code);
  return (
    responses.find((r) => r.code === text) ??
    responses.find((r) => r.code.toUpperCase() === `${text[0]}XX`) ??
    responses.find((r) => r.code === 'default')
  );
}

function statusOf(code: string, preferred: number | undefined): number {
  if (/^\d{3}$/.test(code)) return Number(code);
  if (preferred !== undefined) return preferred;
  if (/^\dXX$/i.test(code)) return Number(code[0]) * 100;
  return 200;
}
