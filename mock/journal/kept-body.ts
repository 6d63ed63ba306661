// How the journal keeps a body: its text (the start of it past a size) and how that text reads back.
import { copyText, utf8Length } from '../lib/bytes.js';
import { bodyKind, parseForm } from '../http/body-kind.js';
import { formText } from '../http/request-body.js';

/** A body as the journal keeps it: its text, and whether that text is JSON to parse back when handed out. */
export interface KeptBody {
  text: string;
  json: boolean;
  /**
   * Set when the body read back does not say how it was sent: `json`, a JSON string (`"hello"` reads back as
   * `hello`, as a text body would: the record says `bodyJson`); `form`, a form's urlencoded text as sent (read
   * back as its fields, which lose `%20` against `+` and the order of repeated names: the record hands `text`
   * out as `bodyText`). Never set on a cut body, whose text is handed out as the body.
   */
  sent?: 'json' | 'form';
  /** The size of the whole body in bytes, when `text` is only its start. */
  cutFrom?: number;
}

/**
 * A request's body as text: as {@link keepBody} keeps any body (`text` its JSON as sent), but a form the mock
 * parsed as the text it was sent as, not as its fields' JSON (the fields are parsed from it again when read).
 */
export function keepRequestBody(value: unknown, limit: number, text?: string, bytes?: number): KeptBody | undefined {
  // A JSON body comes with its text: the common case is decided before a form is looked for.
  const form = text === undefined ? formText(value) : undefined;
  if (form === undefined) return keepBody(value, limit, text, bytes);
  return cutBody(form, false, 'form', limit, bytes);
}

/**
 * A body as text: a string as it is, anything else as JSON (`text` when it is already serialised), and a
 * string whose `text` is JSON (a JSON string: `"hello"` for `hello`) as that JSON. Past `limit` characters
 * only the start is kept, with the size of the whole (`bytes` when known, as received).
 */
export function keepBody(value: unknown, limit: number, text?: string, bytes?: number): KeptBody | undefined {
  if (value === undefined) return undefined;
  // A string is text unless its text says it was JSON: JSON's text of a string starts with a quote, and a
  // string sent as text is its own text (an XML answer's text starts with its tag).
  if (typeof value === 'string') {
    const quoted = text !== undefined && text !== value && JSON_STRING.test(text);
    return quoted ? cutBody(text, true, 'json', limit, bytes) : cutBody(value, false, undefined, limit, bytes);
  }
  const serialised = text ?? serialise(value);
  // What cannot be serialised (a circular body an app the mock is mounted in parsed) is kept as plain text.
  if (serialised === undefined) return cutBody(String(value), false, undefined, limit, bytes);
  return cutBody(serialised, true, undefined, limit, bytes);
}

/** A JSON text that is a string: a quote after any whitespace JSON allows. */
const JSON_STRING = /^[\t\n\r ]*"/;

/** A body's whole text as kept: past `limit` characters its start, with the size of the whole. */
function cutBody(
  whole: string,
  json: boolean,
  sent: KeptBody['sent'],
  limit: number,
  bytes: number | undefined,
): KeptBody {
  if (whole.length <= limit) return sent === undefined ? { text: whole, json } : { text: whole, json, sent };
  return { text: detach(whole, limit), json, cutFrom: bytes ?? utf8Length(whole) };
}

/** The start of a body too large to hold (`bytes` in all), kept as text cut at `limit` characters. */
export function partBody(start: string, limit: number, bytes: number): KeptBody {
  return { text: start.length <= limit ? start : detach(start, limit), json: false, cutFrom: bytes };
}

/**
 * A request's body as handed out: as {@link readBody}, but a form's fields parsed again from its text, in the
 * charset its `contentType` names.
 */
export function readRequestBody(body: KeptBody | undefined, contentType: string | undefined): unknown {
  if (body?.sent !== 'form') return readBody(body);
  // A form is UTF-8 or ISO-8859-1 (refuseCharset refused any other when it was read).
  const { charset } = bodyKind(contentType);
  try {
    return parseForm(body.text, charset === 'iso-8859-1' ? charset : 'utf-8');
  } catch {
    return body.text; // never the reason a journal cannot be read
  }
}

/** A body as handed out: its JSON parsed, or its text (a cut body's start, whatever it was). */
export function readBody(body: KeptBody | undefined): unknown {
  if (body === undefined) return undefined;
  if (!body.json || body.cutFrom !== undefined) return body.text;
  try {
    return JSON.parse(body.text);
  } catch {
    return body.text; // never the reason a journal cannot be read
  }
}

/** A body someone else parsed (an app the mock is mounted in) may not be JSON: `undefined` then. */
function serialise(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * The first `length` characters of `text` as a string of their own: a plain slice would keep the whole text
 * alive behind it. A surrogate pair is not cut in two.
 */
function detach(text: string, length: number): string {
  const end = length > 0 && isHighSurrogate(text.charCodeAt(length - 1)) ? length - 1 : length;
  return copyText(text.slice(0, end));
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
