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
import { BoundedTrieMemo, keyCharacters, type KeyPart } from '../lib/bounded-memo.js';

/** Validates a request of the operation it was made for; `checkSecurity` asks for the 401 check too. */
export type RequestValidator = (facts: RequestFacts, checkSecurity: boolean) => RequestCheck;

/** Entries in the memo: a path per member and client, so a few thousand. */
const MEMO_ENTRIES = 4096;
/**
 * Characters of keys the memo holds in all: keys may be 4096 characters long (a long query), and 4096 of
 * those per operation would be tens of megabytes a hostile client could fill.
 */
const MEMO_KEY_CHARACTERS = 1_048_576;

/** Prism's verdict on what is not the body: the 401 refusal if any, and what is wrong with path, query, headers. */
interface ParameterVerdict {
  security: RequestCheck;
  parameters: Finding[];
}

/**
 * A validator for one operation. Prism's verdict on the path, query and headers is remembered by those
 * (the headers Prism reads, not the others): clients repeat them, one member's paths over and over. The
 * body, which varies most, is checked every time (a JSON body costs a few µs: see json-body-check.ts).
 * The memo is bounded and belongs to this validator (to its mock instance): nothing is shared between mocks.
 * @example createRequestValidator(spec)({ method: 'GET', path: '/p', query: {}, headers: {}, body: undefined }, true)
 */
export function createRequestValidator(
  spec: IHttpOperation,
  prepared: WeakMap<object, unknown> = new WeakMap(),
): RequestValidator {
  const prism = splitValidation(spec, prepared);
  const names = headersRead(spec);
  const verdicts = new BoundedTrieMemo<ParameterVerdict>(MEMO_ENTRIES, 4096, MEMO_KEY_CHARACTERS);
  // The key's parts: the method, the query, each header read, and last the path, the part that varies most (a
  // new path adds an entry to a map, not a map per part). The path is one string per path, handed out by the
  // operation's memo of its routed paths: V8 hashes it once.
  const key: KeyPart[] = new Array<KeyPart>(3 + names.length);
  return (facts, checkSecurity) => {
    let prepared: PreparedRequest | undefined;
    const request = () => (prepared ??= toPrismRequest(facts));
    key[0] = facts.method;
    key[1] = isEmpty(facts.query) ? '' : JSON.stringify(facts.query);
    // Header values cannot hold line breaks: the values of a header sent twice are told apart by them.
    for (let i = 0; i < names.length; i++) {
      const value = facts.headers[names[i]!];
      key[2 + i] = Array.isArray(value) ? value.join('\n') : value;
    }
    key[2 + names.length] = facts.path;
    const verdict =
      verdicts.get(key) ??
      verdicts.set(
        key,
        { security: prism.security(request()) ?? VALID, parameters: prism.parameters(request()) },
        keyCharacters(key),
      );
    if (checkSecurity && !verdict.security.ok) return verdict.security;
    const { parameters } = verdict;
    // Without a body (every GET) Prism's body check needs no request made ready: its headers copied, its query.
    const body = facts.body === undefined ? prism.noBody() : prism.body(request());
    if (body.length === 0 && parameters.length === 0) return VALID;
    return judge([...body, ...parameters], facts.body);
  };
}

function isEmpty(query: object): boolean {
  for (const _ in query) return false;
  return true;
}
