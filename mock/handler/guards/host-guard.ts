// Refuses requests whose Host names a host the mock does not know: a web page that reaches the mock through
// a name of its own (DNS rebinding) would otherwise read the journal as if it were the mock's own origin.
import { isIP } from 'node:net';
import { problem } from '../../http/problems.js';
import { problemReply, type Reply } from '../../http/reply.js';
import type { ResolvedMockOptions } from '../../instance/options.js';
import type { Exchange } from '../exchange.js';

/** The 403 for a request to a host name the mock does not answer to, or `undefined` to let it through. */
export type HostGuard = (ex: Pick<Exchange, 'req' | 'path'>) => Reply | undefined;

/**
 * Lets a request through when its `Host` is an IP address, `localhost`, a `*.localhost` name or one of
 * `allowedHosts` (`.example.com`: that name and its subdomains); the port does not matter. An admin token,
 * or `allowedHosts: true`, lets every host through. HTTP/1.0 may leave Host out; later versions may not.
 * Throws a TypeError for an entry that is not a host name.
 * @example hostGuard({ admin: {}, allowedHosts: ['.example.com'] })(ex) // undefined for Host: demo.example.com
 */
export function hostGuard({ admin, allowedHosts }: Pick<ResolvedMockOptions, 'admin' | 'allowedHosts'>): HostGuard {
  if (allowedHosts === true || (admin !== false && admin.token)) return () => undefined;
  const allowed = allowedHosts.map((entry) => {
    const subdomains = entry.startsWith('.');
    const name = hostName(subdomains ? entry.slice(1) : entry);
    if (name === undefined) throw new TypeError(`allowedHosts: ${JSON.stringify(entry)} is not a host name.`);
    return subdomains ? `.${name}` : name;
  });
  // Nearly every request names the same host: remember the last one let through.
  let last: string | undefined;
  return ({ req, path }) => {
    const header = req.headers.host;
    if (header !== undefined && header === last) return undefined;
    if (header === undefined ? req.httpVersion === '1.0' : isAllowedHost(header, allowed)) {
      last = header;
      return undefined;
    }
    const name = header === undefined ? undefined : hostName(header);
    const detail =
      (header === undefined
        ? 'The request has no Host header'
        : `The mock does not answer to the host name ${show(header)}`) +
      ': it answers IP addresses, localhost and the names it is given, so that a page of another site cannot ' +
      'reach it through DNS rebinding. ' +
      (name ? `Allow this name with --allowed-hosts ${name} (the allowedHosts option).` : 'Send Host: <host name>.');
    return problemReply(problem('forbiddenHost', detail, { instance: path }));
  };
}

/**
 * Whether a Host header names an allowed host: an IP address, `localhost`, `*.localhost`, or one of
 * `allowed` (host names as {@link hostName} gives them; `.example.com` allows the name and its subdomains).
 * @example isAllowedHost('demo.example.com:4010', ['.example.com']) // true
 */
export function isAllowedHost(header: string, allowed: readonly string[]): boolean {
  const name = hostName(header);
  if (name === undefined) return false;
  if (name.startsWith('[')) return isIP(name.slice(1, -1)) === 6;
  if (isIP(name) === 4 || name === 'localhost' || name.endsWith('.localhost')) return true;
  return allowed.some((entry) =>
    entry.startsWith('.') ? name === entry.slice(1) || name.endsWith(entry) : name === entry,
  );
}

/**
 * The host name of a Host header (or an `allowedHosts` entry): lower case, without the port or a final dot;
 * IPv6 addresses keep their brackets. `undefined` when the text is not a host with an optional port.
 * @example hostName('Demo.Example.com.:4010') // 'demo.example.com'
 */
export function hostName(text: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(?:\.[a-z0-9_-]+)*)\.?(?::\d*)?$/i.exec(text);
  return match ? match[1]!.toLowerCase() : undefined;
}

/**
 * The hosts a mock listening on `host` answers to: the name it listens on is one (an address needs no listing).
 * @example withListeningHost([], 'mock.lan') // ['mock.lan']
 */
export function withListeningHost(allowedHosts: string[] | true, host: string): string[] | true {
  if (allowedHosts === true || isIP(host) !== 0 || hostName(host) === undefined) return allowedHosts;
  return [...allowedHosts, host];
}

function show(text: string): string {
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 99)}…` : text);
}
