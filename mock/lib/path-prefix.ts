// A path under a prefix, segment-wise: `/payments` and `/payments/charges` are under `/payments`, `/paymentsX` is not.

/**
 * Whether `path` is `prefix` or below it.
 * @example isUnder('/__mock/calls', '/__mock') // true
 */
export function isUnder(path: string, prefix: string): boolean {
  return path === prefix || (path.startsWith(prefix) && path.charCodeAt(prefix.length) === 0x2f);
}

/**
 * `path` with `prefix` taken off (`/` for the prefix itself); `path` as it is when it is not under it.
 * @example withoutPrefix('/payments/charges', '/payments') // '/charges'
 */
export function withoutPrefix(path: string, prefix: string): string {
  return isUnder(path, prefix) ? path.slice(prefix.length) || '/' : path;
}
