// Bytes and text where there may be no Node.js `Buffer` (a browser, a service worker): the platform's
// TextEncoder, TextDecoder, btoa and atob, giving what Buffer gives for the same input.

const UTF8_KEEP_BOM = new TextDecoder('utf-8', { ignoreBOM: true });
const ENCODER = new TextEncoder();

/** How much text {@link utf8Length} encodes at a time, into a buffer it keeps. */
const CHUNK = 1 << 16;
/** At most 3 bytes a UTF-16 unit, one unit more when a chunk ends inside a surrogate pair. */
const scratch = new Uint8Array(CHUNK * 3 + 4);

/**
 * How many bytes `text` takes as UTF-8, as `Buffer.byteLength` counts them (a lone surrogate is 3: U+FFFD),
 * without making them all: the text is encoded a chunk at a time into one buffer.
 * @example utf8Length('é') // 2
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let at = 0; at < text.length;) {
    let end = Math.min(at + CHUNK, text.length);
    // A pair is not cut in two: each half alone would count as U+FFFD. A lone high surrogate before another
    // high one is no pair: it stays where it is (taking the next unit would cut the pair that one starts).
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end++;
    bytes += ENCODER.encodeInto(text.slice(at, end), scratch).written;
    at = end;
  }
  return bytes;
}

/** UTF-8 bytes as text, bad sequences as U+FFFD and a byte order mark kept (as `Buffer#toString` reads them). */
export function utf8Text(bytes: Uint8Array): string {
  return UTF8_KEEP_BOM.decode(bytes);
}

/** `text` as a string of its own (no slice of a larger one kept alive), lone surrogates as U+FFFD. */
export function copyText(text: string): string {
  return UTF8_KEEP_BOM.decode(ENCODER.encode(text));
}

/** Bytes as base64 (with padding). */
export function toBase64(bytes: Uint8Array): string {
  // A chunk of characters at a time: a character at a time took 170 ms a MiB.
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += BASE64_CHUNK)
    parts.push(String.fromCharCode(...bytes.subarray(at, at + BASE64_CHUNK)));
  return btoa(parts.join(''));
}

/** How many bytes base64 text (with its padding) stands for. @example base64Size('YWI=') // 2 */
export function base64Size(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

/** Bytes made characters at once: well within the arguments a call may take. */
const BASE64_CHUNK = 8192;

/** Base64 or base64url (padding optional, white space ignored) as bytes. @throws DOMException on other characters */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  // A plain loop: Uint8Array.from with a mapping function is some 30 times slower (a HAR's 32 MiB of bodies).
  const bytes = new Uint8Array(binary.length);
  for (let at = 0; at < binary.length; at++) bytes[at] = binary.charCodeAt(at);
  return bytes;
}

/** Text as base64url of its UTF-8 bytes, without padding. */
export function toBase64Url(text: string): string {
  return toBase64(ENCODER.encode(text)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * How many of `bytes` end on a whole UTF-8 character: a sequence cut short at the end (the start of a body cut
 * at a size) is left out, so the start decodes as the text it was.
 * @example utf8WholeLength(new Uint8Array([0x61, 0xe2, 0x82])) // 1: '€' was cut after two of its three bytes
 */
export function utf8WholeLength(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let i = end - 1; i >= 0 && i >= end - 4; i--) {
    const byte = bytes[i]!;
    // A continuation byte: its sequence's lead is further back.
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf8 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return end - i < length ? i : end;
  }
  return end;
}
