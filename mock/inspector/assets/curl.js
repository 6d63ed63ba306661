// A recorded call as a curl command, to send it again from a terminal.

/** Headers curl or the connection sets itself, and ones that would make a replay wrong. */
const SKIPPED = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'transfer-encoding']);

/** A `.` or `..` segment, which curl resolves unless told `--path-as-is`. */
const DOT_SEGMENT = /\/\.\.?(\/|$)/;

/**
 * The curl command that sends `call` again to the mock at `origin` (its headers as recorded; a credential the
 * journal redacted stays redacted, which the mock accepts as any other value). The URL is the origin and the path
 * as recorded, never the path resolved against the origin: a path that starts with `//` names a host, and must
 * still go to the mock. Everything is single-quoted, `--globoff` keeps curl from expanding `[1-9]` and `{a,b}`,
 * and `--path-as-is` keeps a `..` segment.
 * @example toCurl({ method: 'GET', path: '/members/m1/passes', query: {}, headers: {} }, 'http://127.0.0.1:4010')
 * // curl --globoff 'http://127.0.0.1:4010/members/m1/passes'
 */
export function toCurl(call, origin) {
  const path = call.path.startsWith('/') ? call.path : `/${call.path}`;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(call.query ?? {})) {
    for (const one of [value].flat()) query.append(name, one);
  }
  const search = String(query) === '' ? '' : `?${query}`;
  const parts = ['curl', '--globoff'];
  if (DOT_SEGMENT.test(path)) parts.push('--path-as-is');
  if (call.method !== 'GET') parts.push('-X', /^[A-Za-z-]+$/.test(call.method) ? call.method : quote(call.method));
  parts.push(quote(`${new URL(origin).origin}${path}${search}`));
  for (const [name, value] of Object.entries(call.headers ?? {})) {
    if (SKIPPED.has(name) || name.startsWith('sec-') || name.startsWith(':')) continue;
    for (const one of [value].flat()) parts.push('-H', quote(`${name}: ${one}`));
  }
  // Bytes that are no text were journaled as base64: decoded on the way, sent as they came.
  if (call.body !== undefined && call.bodyEncoding === 'base64') {
    parts.push('--data-binary', '@-');
    return `printf '%s' ${quote(call.body)} | base64 -d | ${parts.join(' ')}`;
  }
  if (call.body !== undefined) {
    parts.push('--data-raw', quote(bodyText(call)));
  }
  return parts.join(' ');
}

/**
 * The body as it was sent: a form's `bodyText` when the journal kept it, text as it is (a string sent as JSON,
 * `bodyJson`, quoted), form fields encoded again (a journal of an older mock), anything else as JSON.
 */
function bodyText(call) {
  if (typeof call.bodyText === 'string') return call.bodyText;
  if (typeof call.body === 'string' && !call.bodyJson) return call.body;
  const type = [call.headers?.['content-type'] ?? ''].flat()[0];
  if (type.startsWith('application/x-www-form-urlencoded') && call.body !== null && typeof call.body === 'object') {
    return new URLSearchParams(
      Object.entries(call.body).flatMap(([k, v]) => [v].flat().map((one) => [k, one])),
    ).toString();
  }
  return JSON.stringify(call.body);
}

/** Single-quoted for a POSIX shell: a quote inside ends the string, adds an escaped quote, and starts again. */
function quote(text) {
  return `'${String(text).replace(/'/g, `'\\''`)}'`;
}
