// Reads the `Prefer` header (RFC 7240) for the mock's controls: code=, example=, dynamic=.

/** What a request prefers; every field is optional. */
export interface Preferences {
  /** Answer with this documented status code. */
  code?: number;
  /** Answer with the named example of the contract. */
  example?: string;
  /** Generate the body (`true`) or serve an example (`false`). */
  dynamic?: boolean;
  /** Wait this many milliseconds before answering. */
  delay?: number;
}

export type PreferResult = { ok: true; preferences: Preferences } | { ok: false; message: string };

/** The answer for a request that prefers nothing (most of them): one shared, frozen result. */
const NOTHING_PREFERRED: PreferResult = Object.freeze({ ok: true, preferences: Object.freeze({}) });

/** The query parameters that stand in for `Prefer` where a client cannot set headers (an `<img>`, a link). */
export const PREFER_QUERY = ['__code', '__example', '__dynamic', '__delay'];

/** Whether a query holds any of {@link PREFER_QUERY}: an empty one (most are) is seen to hold none at once. */
export function hasPreferQuery(query: Record<string, unknown>): boolean {
  for (const _ in query) return PREFER_QUERY.some((name) => name in query);
  return false;
}

/**
 * Parses `Prefer: code=404, example=empty, dynamic=false, delay=2000`, then the `__code=404`-style query
 * parameters for what the header does not say. Unknown preferences are ignored, as RFC 7240 asks; a known
 * one with a bad value is refused so the client learns why nothing happened.
 * @example parsePrefer('code=404') // { ok: true, preferences: { code: 404 } }
 */
export function parsePrefer(header: string | string[] | undefined, query: Record<string, unknown> = {}): PreferResult {
  if (header === undefined && !hasPreferQuery(query)) return NOTHING_PREFERRED;
  const preferences: Preferences = {};
  const fromQuery = PREFER_QUERY.filter((name) => typeof query[name] === 'string').map(
    (name) => `${name.slice(2)}=${query[name] as string}`,
  );
  const text = [...(header === undefined ? [] : Array.isArray(header) ? header : [header]), ...fromQuery].join(',');
  const seen = new Set<string>();
  for (const part of text.split(/[,;]/)) {
    const [rawName = '', ...rest] = part.split('=');
    const name = rawName.trim().toLowerCase();
    const value = rest
      .join('=')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    // The header comes first: a query parameter never overrides what it said.
    if (seen.has(name)) continue;
    seen.add(name);
    if (name === 'code') {
      // 1xx are interim answers, never a final response a client could be given.
      if (!/^[2-5]\d\d$/.test(value))
        return { ok: false, message: `Prefer code=${value} is not a final HTTP status code (200-599).` };
      preferences.code = Number(value);
    } else if (name === 'example') {
      if (value === '') return { ok: false, message: 'Prefer example= needs the name of an example.' };
      preferences.example = value;
    } else if (name === 'dynamic') {
      if (value !== 'true' && value !== 'false')
        return { ok: false, message: `Prefer dynamic=${value} must be true or false.` };
      preferences.dynamic = value === 'true';
    } else if (name === 'delay') {
      if (!/^\d{1,5}$/.test(value) || Number(value) > 60_000)
        return { ok: false, message: `Prefer delay=${value} must be whole milliseconds from 0 to 60000.` };
      preferences.delay = Number(value);
    }
  }
  return { ok: true, preferences };
}
