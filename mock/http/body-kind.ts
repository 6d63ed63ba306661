// The rules of reading a request's body that do not depend on where it came from: its kind and charset from the
// Content-Type, which charsets each kind takes, and forms' fields. The Node listener (handler/parse-body.ts) and
// the MSW handlers (msw/read-fetch-body.ts) both read bodies by these, so they refuse and parse alike.
import qs from 'qs';

/** How a body is read, by its media type: JSON, a form, text, or bytes (anything else, or no Content-Type). */
export type BodyKind = 'json' | 'form' | 'text' | 'raw';

/** The most fields a form may have (as Express's parser allowed). */
export const FORM_FIELDS = 1000;

/** UTF-8, as a charset label says it. */
export const UTF8 = /^utf-?8$/i;

/** A media type's `type/subtype`, each a token (RFC 9110). */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/;
/** A `charset` parameter's value, quoted or not. */
const CHARSET = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

/**
 * A Content-Type's media type: without parameters (`charset`), lower case; `undefined` for none.
 * @example mediaTypeOf('Text/CSV; charset=utf-8') // 'text/csv'
 */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() || undefined;
}

/**
 * The kind of a body and its charset (lower case; UTF-8 unless the Content-Type names one), read from the
 * Content-Type once: a missing or malformed one reads the body as bytes, as Express's parsers did.
 * @example bodyKind('application/problem+json; charset="UTF-8"') // { kind: 'json', charset: 'utf-8' }
 */
export function bodyKind(contentType: string | undefined): { kind: BodyKind; charset: string } {
  const essence = mediaTypeOf(contentType);
  if (!essence || !MEDIA_TYPE.test(essence)) return { kind: 'raw', charset: '' };
  const found = contentType!.includes(';') ? CHARSET.exec(contentType!) : null;
  const charset = (found?.[1] ?? found?.[2])?.toLowerCase() || 'utf-8';
  const slash = essence.indexOf('/');
  const [type, subtype] = [essence.slice(0, slash), essence.slice(slash + 1)];
  if (type === 'application' && (subtype === 'json' || subtype.endsWith('+json'))) return { kind: 'json', charset };
  if (type === 'application' && subtype === 'x-www-form-urlencoded') return { kind: 'form', charset };
  if (type === 'text') return { kind: 'text', charset };
  return { kind: 'raw', charset };
}

/**
 * The error for a charset the kind does not take, or `undefined`: JSON is UTF-8 (RFC 8259: UTF-16 or UTF-32
 * is refused too, before the body is read), a form UTF-8 or ISO-8859-1, text any charset the reader can decode
 * (`decodes`); bytes are not decoded.
 */
export function refuseCharset(
  kind: BodyKind,
  charset: string,
  decodes: (charset: string) => boolean,
): Error | undefined {
  const refused =
    (kind === 'json' && !UTF8.test(charset)) ||
    (kind === 'form' && charset !== 'utf-8' && charset !== 'iso-8859-1') ||
    (kind !== 'raw' && !decodes(charset));
  if (!refused) return undefined;
  return bodyError(`unsupported charset "${charset.toUpperCase()}"`, 415, 'charset.unsupported', { charset });
}

/** Form fields as Express's parser (`extended: false`) made them: repeated names make arrays, no nesting. */
export function parseForm(text: string, charset: string): unknown {
  let fields = 1;
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1))
    if (++fields > FORM_FIELDS) throw bodyError('too many parameters', 413, 'parameters.too.many');
  return qs.parse(text, {
    allowPrototypes: true,
    arrayLimit: fields,
    depth: 0,
    charset: charset as 'utf-8' | 'iso-8859-1',
    parameterLimit: FORM_FIELDS,
    strictDepth: true,
  });
}

/** An error of reading a body, with the `status` and `type` http/to-problem.ts tells them apart by. */
export function bodyError(message: string, status: number, type: string, fields: object = {}): Error {
  return Object.assign(new Error(message), { status, type, ...fields });
}

/**
 * Form fields as {@link parseForm} made them, as urlencoded text again: each name and value encoded (a space as
 * `+`), a repeated name once a value, in the order they were parsed. What a report that writes the request
 * (Pact, HAR) sends beside `Content-Type: application/x-www-form-urlencoded`; a string (a body kept as text)
 * is already that.
 * @example formBodyText({ user: 'bob smith', tag: ['a', 'b'] }) // 'user=bob+smith&tag=a&tag=b'
 */
export function formBodyText(fields: unknown): string {
  if (typeof fields === 'string') return fields;
  if (typeof fields !== 'object' || fields === null) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields))
    for (const each of Array.isArray(value) ? value : [value]) params.append(name, String(each));
  return params.toString();
}
