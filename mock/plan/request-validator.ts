// Validates the requests of one operation with Prism, remembering verdicts in memos of the operation's own.
import type { IHttpOperation } from '@stoplight/types';
import {
  headersRead,
  judge,
  splitValidation,
  toPrismRequest,
  VALID,
  type Finding,
  type PreparedRequest,
  type RequestCheck,
  type RequestFacts,
} from '../prism/prism-adapter.js';
import { BoundedMemo } from '../memo/bounded-memo.js';

/** Validates a request of the operation it was made for; `checkSecurity` asks for the 401 check too. */
export type RequestValidator = (facts: RequestFacts, checkSecurity: boolean) => RequestCheck;

/** Bodies up to this many characters of JSON are remembered; larger ones are validated every time. */
const MEMO_BODY_LIMIT = 2048;
/** Entries per memo: a path per member, a body per distinct request, so a few thousand. */
const MEMO_ENTRIES = 4096;

/**
 * A validator for one operation. Prism's verdict on the path, query and headers is remembered by those
 * (the headers Prism reads, not the others): clients repeat them, one member's paths over and over. The
 * body, which varies most, is validated on its own, and remembered only when small. Every memo is bounded
 * and belongs to this validator (to its mock instance): nothing is shared between mocks.
 * @example createRequestValidator(spec)({ method: 'GET', path: '/p', query: {}, headers: {}, body: undefined }, true)
 */
export function createRequestValidator(spec: IHttpOperation): RequestValidator {
  const prism = splitValidation(spec);
  const names = headersRead(spec);
  const securities = new BoundedMemo<RequestCheck>(MEMO_ENTRIES);
  const parameters = new BoundedMemo<Finding[]>(MEMO_ENTRIES);
  const bodies = new BoundedMemo<Finding[]>(MEMO_ENTRIES);
  return (facts, checkSecurity) => {
    let prepared: PreparedRequest | undefined;
    const request = () => (prepared ??= toPrismRequest(facts));
    // Header values cannot hold NUL or line breaks: they separate the parts of the key unambiguously.
    let key = `${facts.method}\u0000${facts.path}\u0000${isEmpty(facts.query) ? '' : JSON.stringify(facts.query)}`;
    for (const name of names) {
      const value = facts.headers[name];
      key += value === undefined ? '\u0000' : `\u0000${name}\n${Array.isArray(value) ? value.join('\n') : value}`;
    }
    if (checkSecurity) {
      const security = securities.get(key) ?? securities.set(key, prism.security(request()) ?? VALID);
      if (!security.ok) return security;
    }
    const wrongParameters = parameters.get(key) ?? parameters.set(key, prism.parameters(request()));
    const text = facts.body === undefined ? '' : JSON.stringify(facts.body);
    const bodyKey = `${String(facts.headers['content-type'])}|${typeof facts.body}|${text}`;
    const remembered = text !== undefined && text.length <= MEMO_BODY_LIMIT;
    let wrongBody = remembered ? bodies.get(bodyKey) : undefined;
    if (!wrongBody) {
      wrongBody = prism.body(request());
      if (remembered) bodies.set(bodyKey, wrongBody);
    }
    if (wrongBody.length === 0 && wrongParameters.length === 0) return VALID;
    return judge([...wrongBody, ...wrongParameters], facts.body);
  };
}

function isEmpty(query: object): boolean {
  for (const _ in query) return false;
  return true;
}
