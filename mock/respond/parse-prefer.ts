// Reads the `Prefer` header (RFC 7240) for the mock's controls: code=, example=, dynamic=.

/** What a request prefers; every field is optional. */
export interface Preferences {
  /** Answer with this documented status code. */
  code?: number;
  /** Answer with the named example of the contract. */
  example?: string;
  /** Generate the body (`true`) or serve an example (`false`). */
  dynamic?: boolean;
}

export type PreferResult = { ok: true; preferences: Preferences } | { ok: false; message: string };

/**
 * Parses `Prefer: code=404, example=empty, dynamic=false`. Unknown preferences are ignored, as RFC 7240
 * asks; a known one with a bad value is refused so the client learns why nothing happened.
 * @example parsePrefer('code=404') // { ok: true, preferences: { code: 404 } }
 */
export function parsePrefer(header: string | string[] | undefined): PreferResult {
  const preferences: Preferences = {};
  if (header === undefined) return { ok: true, preferences };
  const text = Array.isArray(header) ? header.join(',') : header;
  for (const part of text.split(/[,;]/)) {
    const [rawName = '', ...rest] = part.split('=');
    const name = rawName.trim().toLowerCase();
    const value = rest.join('=').trim().replace(/^"(.*)"$/, '$1');
    if (name === 'code') {
      // 1xx are interim answers, never a final response a client could be given.
      if (!/^[2-5]\d\d$/.test(value)) return { ok: false, message: `Prefer code=${value} is not a final HTTP status code (200-599).` };
      preferences.code = Number(value);
    } else if (name === 'example') {
      if (value === '') return { ok: false, message: 'Prefer example= needs the name of an example.' };
      preferences.example = value;
    } else if (name === 'dynamic') {
      if (value !== 'true' && value !== 'false') return { ok: false, message: `Prefer dynamic=${value} must be true or false.` };
      preferences.dynamic = value === 'true';
    }
  }
  return { ok: true, preferences };
}
