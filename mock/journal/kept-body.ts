// How the journal keeps a body: its text (the start of it past a size) and how that text reads back.
import { copyText, utf8Length } from '../lib/bytes.js';

/** A body as the journal keeps it: its text, and whether that text is JSON to parse back when handed out. */
export interface KeptBody {
  text: string;
  json: boolean;
  /** The size of the whole body in bytes, when `text` is only its start. */
  cutFrom?: number;
}

/**
 * A body as text: a string as it is, anything else as JSON (`text` when it is already serialised). Past
 * `limit` characters only the start is kept, with the size of the whole (`bytes` when known, as received).
 */
export function keepBody(value: unknown, limit: number, text?: string, bytes?: number): KeptBody | undefined {
  if (value === undefined) return undefined;
  const serialised = typeof value === 'string' ? undefined : (text ?? serialise(value));
  // What cannot be serialised (a circular body an app the mock is mounted in parsed) is kept as plain text.
  const json = serialised !== undefined;
  const whole = serialised ?? (typeof value === 'string' ? value : String(value));
  if (whole.length <= limit) return { text: whole, json };
  return { text: detach(whole, limit), json, cutFrom: bytes ?? utf8Length(whole) };
}

/** The start of a body too large to hold (`bytes` in all), kept as text cut at `limit` characters. */
export function partBody(start: string, limit: number, bytes: number): KeptBody {
  return { text: start.length <= limit ? start : detach(start, limit), json: false, cutFrom: bytes };
}

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
