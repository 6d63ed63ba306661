// Validates the requests of one operation with Prism, remembering verdicts in a memo of the operation's own.
import type { IHttpOperation } from '@stoplight/types';
import { headersRead, validateRequest, type RequestCheck, type RequestFacts } from '../prism/prism-adapter.js';
import { BoundedMemo } from './bounded-memo.js';

/** Validates a request of the operation it was made for; `checkSecurity` asks for the 401 check too. */
export type RequestValidator = (facts: RequestFacts, checkSecurity: boolean) => RequestCheck;

/** Bodies up to this many characters of JSON are remembered; larger ones are validated every time. */
const MEMO_BODY_LIMIT = 2048;
const MEMO_ENTRIES = 1000;

/**
 * A validator for one operation. The verdict depends only on the path, the query, the headers Prism reads
 * and the body, so it is remembered by those: front-ends repeat the same requests. The memo is bounded and
 * belongs to this validator (to its mock instance): nothing is shared between mocks.
 * @example createRequestValidator(spec)({ method: 'GET', path: '/p', query: {}, headers: {}, body: undefined }, true)
 */
export function createRequestValidator(spec: IHttpOperation): RequestValidator {
  const memo = new BoundedMemo<RequestCheck>(MEMO_ENTRIES);
  const names = headersRead(spec);
  return (facts, checkSecurity) => {
    const text = facts.body === undefined ? '' : JSON.stringify(facts.body);
    if (text === undefined || text.length > MEMO_BODY_LIMIT) return validateRequest(spec, facts, checkSecurity);
    let headers = '';
    for (const name of names) headers += `${name}=${JSON.stringify(facts.headers[name] ?? null)}&`;
    const query = JSON.stringify(facts.query);
    const key = `${checkSecurity}|${facts.method}|${facts.path}|${query}|${headers}|${typeof facts.body}|${text}`;
    return memo.get(key) ?? memo.set(key, validateRequest(spec, facts, checkSecurity));
  };
}
