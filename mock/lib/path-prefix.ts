// A path under a prefix, segment-wise: `/payments` and `/payments/charges` are under `/payments`, `/paymentsX` is not.

/**
 * Whether `path` is `prefix` or below it.
 * @example isUnder('/__mock/calls', '/__mock') // true
 */
export function isUnder(path: string, prefix: string): boolean {
  return path === prefix || (path.startsWith(prefix) && path.charCodeAt(prefix.length) === 0x2f);
}

/**
 * The part of `path` below `prefix` (`/` for the prefix itself), its segments compared percent-decoded as the
 * router reads them (`/p%61yments/charges` is below `/payments`); `undefined` when it is not below it.
 * @example below('/p%61yments/charges', '/payments') // '/charges'
 */
export function below(path: string, prefix: string): string | undefined {
  if (isUnder(path, prefix)) return path.slice(prefix.length) || '/';
  if (!path.includes('%')) return undefined;
  const wanted = prefix.split('/');
  const segments = path.split('/');
  if (segments.length < wanted.length) return undefined;
  for (let i = 1; i < wanted.length; i++) if (decoded(segments[i]!) !== wanted[i]) return undefined;
  return `/${segments.slice(wanted.length).join('/')}`;
}

/**
 * `path` with `prefix` taken off (see {@link below}); `path` as it is when it is not under it.
 * @example withoutPrefix('/payments/charges', '/payments') // '/charges'
 */
export function withoutPrefix(path: string, prefix: string): string {
  return below(path, prefix) ?? path;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
