// One cookie of a `Cookie` header (RFC 6265 §4.2: `name=value` pairs joined by "; "): read, or taken out.

/** The name of one `name=value` pair. */
function nameOf(pair: string): string {
  const eq = pair.indexOf('=');
  return eq === -1 ? '' : pair.slice(0, eq).trim();
}

/**
 * The value of the cookie `name` (quotes taken off), `undefined` when it is not there.
 * @example cookieValue('theme=dark; mock-session=w1', 'mock-session') // 'w1'
 */
export function cookieValue(header: string | string[] | undefined, name: string): string | undefined {
  // Most requests carry no cookie, or none of ours: one search before any splitting.
  if (typeof header !== 'string' || !header.includes(name)) return undefined;
  const pair = header.split(';').find((one) => nameOf(one) === name);
  if (pair === undefined) return undefined;
  const value = pair.slice(pair.indexOf('=') + 1).trim();
  return value.length > 1 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}

/**
 * The header without the cookie `name`; `''` when it was the only one.
 * @example withoutCookie('theme=dark; mock-session=w1', 'mock-session') // 'theme=dark'
 */
export function withoutCookie(header: string, name: string): string {
  if (!header.includes(name)) return header;
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '' && nameOf(pair) !== name)
    .join('; ');
}
