// Secrets kept out of the journal: a credential is recorded as its scheme and a short fingerprint, so a test
// can still see that a bearer token was sent (and which one), while the journal never holds the token.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { SecretNames } from '../contract/secret-names.js';
import { BoundedMemo, BoundedTrieMemo } from '../lib/bounded-memo.js';

export { secretNames, type SecretNames } from '../contract/secret-names.js';

type Values = Record<string, string | string[] | undefined>;

/** Headers that carry credentials whatever the contract says. */
const ALWAYS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
const SCHEMED = new Set(['authorization', 'proxy-authorization']);
const COOKIES = new Set(['cookie', 'set-cookie']);

/** Copies of headers and query with every secret value replaced; the originals when there is none. */
export type Redactor = <H extends Values, Q extends Values>(headers: H, query: Q) => { headers: H; query: Q };

/** Fingerprints remembered per mock: clients send the same few tokens again and again. */
const FINGERPRINTS = 1024;
/** Characters of a header (name and value) whose redacted value is kept, and of the redacted values kept in all. */
const REDACTED_KEY = 1024;
const REDACTED_CHARACTERS = 262_144;

/**
 * The redactor of one mock: `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, and the
 * header, query and cookie names of the contract's API keys (read at each call: the contract may be reloaded).
 * @example createRedactor(() => served.secrets)({ authorization: 'Bearer abc' }, {}).headers.authorization
 *   // 'Bearer [redacted sha256:ba7816bf]'
 */
export function createRedactor(names: () => SecretNames): Redactor {
  const memo = new BoundedMemo<string>(FINGERPRINTS);
  const mark = (secret: string) => memo.get(secret) ?? memo.set(secret, fingerprint(secret));
  // Whole values redacted, by header name and value: the same token comes on every request. A redacted value
  // may be longer than the one sent (a cookie of many empty pairs), so what is kept is bounded by its length.
  const values = new BoundedTrieMemo<string>(FINGERPRINTS, REDACTED_KEY, REDACTED_CHARACTERS);
  const redactOne = (name: string, value: string) => {
    const known = values.get([name, value]);
    if (known !== undefined) return known;
    const redacted = redactValue(name, value, mark);
    return values.set([name, value], redacted, redacted.length);
  };
  return (headers, query) => {
    const { headers: keyHeaders, query: keyParams } = names();
    let outHeaders: Values | undefined;
    for (const name in headers) {
      const value = headers[name];
      const lower = name.toLowerCase();
      if (value === undefined || !(ALWAYS.has(lower) || keyHeaders.has(lower))) continue;
      outHeaders ??= { ...headers };
      outHeaders[name] = mapValues(value, (one) => redactOne(lower, one));
    }
    let outQuery: Values | undefined;
    if (keyParams.size > 0)
      for (const name in query) {
        const value = query[name];
        if (value === undefined || !keyParams.has(name)) continue;
        outQuery ??= { ...query };
        outQuery[name] = mapValues(value, mark);
      }
    return { headers: (outHeaders ?? headers) as typeof headers, query: (outQuery ?? query) as typeof query };
  };
}

/**
 * What the journal records for a credential header's value: its scheme, then a fingerprint of the rest.
 * @example redactSecret('Bearer test-token') // 'Bearer [redacted sha256:…]', as in `call.headers.authorization`
 */
export function redactSecret(value: string): string {
  return redactValue('authorization', value, fingerprint);
}

function redactValue(name: string, value: string, mark: (secret: string) => string): string {
  if (SCHEMED.has(name)) {
    const space = value.indexOf(' ');
    return space > 0 ? `${value.slice(0, space)} ${mark(value.slice(space + 1).trim())}` : mark(value);
  }
  if (COOKIES.has(name)) return redactCookies(value, name === 'set-cookie', mark);
  return mark(value);
}

/** `a=1; b=2` keeps its names; a `Set-Cookie` keeps its attributes (`Path`, `HttpOnly`...) too. */
function redactCookies(value: string, setCookie: boolean, mark: (secret: string) => string): string {
  const parts = value.split(';');
  const pairs = setCookie ? parts.slice(0, 1) : parts;
  const redacted = pairs.map((pair) => {
    const equals = pair.indexOf('=');
    return equals < 0 ? mark(pair.trim()) : `${pair.slice(0, equals).trim()}=${mark(pair.slice(equals + 1).trim())}`;
  });
  return [...redacted, ...(setCookie ? parts.slice(1).map((p) => p.trim()) : [])].join('; ');
}

function mapValues(value: string | string[], map: (one: string) => string): string | string[] {
  return Array.isArray(value) ? value.map(map) : map(value);
}

function fingerprint(secret: string): string {
  return `[redacted sha256:${bytesToHex(sha256(utf8ToBytes(secret))).slice(0, 8)}]`;
}
