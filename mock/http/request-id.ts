// The id of a request: the caller's `X-Request-Id` when it is sensible, a new counted UUID otherwise. The Node
// listener (handler/exchange.ts) and the MSW handlers (msw/fetch-exchange.ts) both take theirs from here.

const SENSIBLE = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request, for the `X-Request-Id` response header, the logs, the journal and support. */
export function requestIdFrom(given: string | string[] | undefined): string {
  return typeof given === 'string' && SENSIBLE.test(given) ? given : countedUUID();
}

/**
 * The first 80 bits of every counted UUID (`xxxxxxxx-xxxx-4xxx-yxxx-`), 74 of them random: drawn once a process
 * (or page), with its first id, not when the module loads (some runtimes refuse random numbers at global scope).
 * `globalThis.crypto` is Web Crypto, in Node.js as in browsers and service workers; a page served over plain
 * HTTP from another host than localhost has `getRandomValues` but no `randomUUID`.
 */
let drawn: string | undefined;

/** What the drawn start needs of Web Crypto. */
export interface RandomSource {
  getRandomValues(array: Uint8Array): unknown;
}

/** `xxxxxxxx-xxxx-4xxx-yxxx-` from ten random bytes, its version and variant bits set as RFC 9562 says. */
export function drawnStart(crypto: RandomSource): string {
  const bytes = new Uint8Array(10);
  crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-`;
}

/** The last 48 bits: the requests given an id so far. */
let counted = 0;
const MAX_COUNT = 2 ** 48 - 1;

/**
 * A new UUID of version 4's form, its last 48 bits counting up: unique within the process by the count, and
 * between processes (replicas, restarts, tabs) by the 74 random bits drawn once. In a log the ids of a run share
 * their start and count up in order. `randomUUID` formats 16 random bytes on every call: about 1,700
 * instructions, a sixtieth of a read.
 * @example countedUUID() // '3f2b9c1e-7d4a-4f0e-9b21-000000000001'
 */
export function countedUUID(): string {
  counted = counted === MAX_COUNT ? 1 : counted + 1;
  drawn ??= drawnStart(globalThis.crypto);
  return drawn + counted.toString(16).padStart(12, '0');
}
