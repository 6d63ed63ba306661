// Which requests go to a real backend (the upstream) and when the mock answers in its place: the proxy's rules
// as data, read by decide() and by the handler that forwards. Nothing here sends a request.
import { unknownOperation } from '../journal/call-match.js';
import { isSendableHeader } from '../http/reply.js';

/**
 * The most bytes of an upstream's answer the proxy holds (as they come, compressed or not) to check it, journal
 * it and record it whole (`--record`); a larger one is passed on as it arrives, its body unchecked.
 */
export const CHECKED_BYTES = 1024 * 1024;

/** A mock in front of a real backend: what the team gives (`proxy` of startMock/createApp, `--proxy*` flags). */
export interface ProxyOptions {
  /**
   * The upstream's base URL, `http:` or `https:`; a request goes to its path under the URL's own path
   * (`https://staging.example.com/api` + `/members/m1/passes`). Fixed at start: never taken from a request.
   */
  url: string;
  /**
   * When the mock answers in the upstream's place. `auto`: the upstream answered 501, or a 404 or 405 the
   * contract does not describe (an undocumented status, or a body unlike the documented one: a framework's "no
   * such route" page rather than the API's "no such pass"), or it was unreachable or slower than `timeout`. A
   * list of statuses: those statuses, unreachable and slow. `off`: never (an unreachable upstream answers 502,
   * a slow one 504).
   * @default 'auto'
   */
  fallback?: 'auto' | 'off' | number[];
  /** Milliseconds the upstream has to answer (its status and headers, and a body the mock checks). @default 10000 */
  timeout?: number;
  /** Operations the mock always answers (the backend lacks them); the rest go upstream. */
  mockOnly?: string[];
  /** The only operations that go upstream; the mock answers the rest. */
  proxyOnly?: string[];
  /** Headers added to every forwarded request (`Authorization` for the upstream); never journaled. */
  headers?: Record<string, string>;
  /**
   * Forward requests no operation of the contract matches, unchecked, as Prism does; off, they answer 404/405.
   * @default true
   */
  passthrough?: boolean;
  /**
   * Keep the records the upstream created, listed or read (and forget those it deleted) in the mock's state,
   * when its answer keeps the contract: with a state file, a later run without the backend serves them.
   * @default false (a record the backend made is not in the mock's state)
   */
  recordState?: boolean;
}

/** The proxy's rules, checked and compiled once per contract. */
export interface ProxyRules {
  readonly url: URL;
  readonly timeout: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly passthrough: boolean;
  /** Keep the upstream's records as the mock's state (see ProxyOptions.recordState). */
  readonly recordState: boolean;
  /**
   * The path prefix left out of forwarded paths: an API's own backend serves its paths without the mount the
   * mock serves them under; `''` forwards the path as received.
   */
  readonly mount: string;
  /** Whether a request routed to `operationId` goes upstream (before overrides, Prefer and faults). */
  proxies(operationId: string): boolean;
  /**
   * Whether the mock answers when the upstream answered `status`; `described` says whether the contract
   * describes that answer (its status documented, its media type, headers and body fitting).
   */
  fallsBackOn(status: number, described: boolean): boolean;
  /** Whether the mock answers when the upstream could not be reached or did not answer in time. */
  readonly fallsBackOnFailure: boolean;
  /** Forward a request that breaks the contract (marked in the journal and `sl-violations`); `errors` refuses it. */
  readonly forwardsInvalid: boolean;
}

/** Statuses that mean "this backend does not have the route" when the contract does not describe the answer. */
const MISSING_ROUTE = new Set([404, 405]);
/** Default milliseconds the upstream has to answer: a staging backend slower than this is down to a front-end. */
export const PROXY_TIMEOUT = 10_000;

/**
 * Checks the proxy options against the contract's operations and compiles them; a wrong option throws a
 * TypeError saying what to give (a misspelt operationId names the nearest one).
 * @example compileProxyRules({ url: 'http://127.0.0.1:8080', mockOnly: ['listCredentials'] }, ids).proxies('listPasses') // true
 */
export function compileProxyRules(
  options: ProxyOptions,
  operationIds: readonly string[],
  { errors = false, mount = '' }: { errors?: boolean; mount?: string } = {},
): ProxyRules {
  const url = upstreamUrl(options.url);
  const timeout = options.timeout ?? PROXY_TIMEOUT;
  if (!Number.isInteger(timeout) || timeout < 1 || timeout > 600_000)
    throw new TypeError(`The proxy timeout must be a whole number of milliseconds from 1 to 600000, not ${timeout}.`);
  if (options.mockOnly?.length && options.proxyOnly?.length)
    throw new TypeError('Give mockOnly or proxyOnly, not both: one names the exceptions to the other.');
  const mockOnly = new Set(checkedNames('mockOnly', options.mockOnly ?? [], operationIds));
  const proxyOnly = options.proxyOnly?.length
    ? new Set(checkedNames('proxyOnly', options.proxyOnly, operationIds))
    : undefined;
  const fallback = options.fallback ?? 'auto';
  const statuses = Array.isArray(fallback) ? new Set(fallback.map(checkedStatus)) : undefined;
  if (!Array.isArray(fallback) && fallback !== 'auto' && fallback !== 'off')
    throw new TypeError(
      `The proxy fallback must be "auto", "off" or a list of statuses, not ${JSON.stringify(fallback)}.`,
    );
  return {
    url,
    timeout,
    headers: checkedHeaders(options.headers ?? {}),
    passthrough: options.passthrough ?? true,
    recordState: options.recordState ?? false,
    mount: mount === '/' ? '' : mount,
    proxies: (id) => (proxyOnly ? proxyOnly.has(id) : !mockOnly.has(id)),
    fallsBackOn(status, described) {
      if (statuses) return statuses.has(status);
      if (fallback === 'off') return false;
      return status === 501 || (MISSING_ROUTE.has(status) && !described);
    },
    fallsBackOnFailure: fallback !== 'off',
    forwardsInvalid: !errors,
  };
}

/** The upstream's URL: absolute, http(s), no credentials, query or fragment (they would go to every request). */
function upstreamUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(
      `The proxy URL must be an absolute http or https URL, such as http://localhost:8080, not "${text}".`,
    );
  }
  // `localhost:8080` parses as a URL of scheme `localhost:`: the scheme was left out.
  if (!text.includes('//'))
    throw new TypeError(`The proxy URL must be an absolute http or https URL: did you mean http://${text}?`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`The proxy URL must be http or https, not ${url.protocol.slice(0, -1)} ("${text}").`);
  if (url.username || url.password)
    throw new TypeError('The proxy URL may not hold credentials: give them as a header (--proxy-header).');
  if (url.search || url.hash)
    throw new TypeError(`The proxy URL may not have a query or fragment ("${text}"): requests bring their own.`);
  return url;
}

function checkedNames(option: string, names: readonly string[], known: readonly string[]): string[] {
  for (const name of names) {
    const wrong = unknownOperation(name, known);
    if (wrong) throw new TypeError(`${option}: ${wrong}`);
  }
  return [...names];
}

function checkedStatus(status: unknown): number {
  // A success is the backend's own answer: the mock answering in its place would hide the backend it proxies.
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599) return status;
  throw new TypeError(
    `A proxy fallback status is one of the backend's failures, from 400 to 599, not ${JSON.stringify(status)}.`,
  );
}

/**
 * Header names are tokens and values printable (Node refuses a whole request otherwise); hop-by-hop ones are
 * not ours to set.
 */
function checkedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!isSendableHeader(name, value))
      throw new TypeError(
        `The proxy header "${name}" is not a valid HTTP header (a token name and a printable value).`,
      );
    if (HOP_BY_HOP.has(name.toLowerCase()) || name.toLowerCase() === 'host')
      throw new TypeError(`The proxy header "${name}" is set by the proxy itself, not by an option.`);
    out[name.toLowerCase()] = value;
  }
  return out;
}

/** Why a GET or HEAD with a body is not forwarded (the core's refusal and the passthrough's say it alike). */
export function bodyNotForwarded(method: string): string {
  return (
    `A ${method} request with a body is not forwarded: RFC 9110 gives it no meaning, and servers and proxies ` +
    'on the way drop or refuse it.'
  );
}

/** Headers that belong to one connection, not to the message (RFC 9110 §7.6.1): never forwarded. */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
