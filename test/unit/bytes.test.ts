// The core's bytes and text helpers (lib/bytes.ts) give what Node's Buffer gives, so the core runs in a browser
// (no Buffer there) with the same byte counts, cursors and bodies as on the server.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  copyText,
  fromBase64,
  toBase64,
  toBase64Url,
  utf8Length,
  utf8Text,
  utf8WholeLength,
} from '../../mock/lib/bytes.js';

/** Any string, lone surrogates included (fast-check's default strings are whole code points). */
const anyText = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) });

describe('bytes without Buffer', () => {
  test('utf8Length counts as Buffer.byteLength does, lone surrogates too', () => {
    fc.assert(fc.property(anyText, (text) => utf8Length(text) === Buffer.byteLength(text)));
    expect(utf8Length('a\u00e9\u20ac\u{1f600}\ud800')).toBe(1 + 2 + 3 + 4 + 3);
    // Past one chunk (64 Ki units), a pair across the chunks' border, a lone surrogate at the very end, a lone high
    // surrogate last in a chunk with a pair after it.
    for (const text of [
      'a'.repeat(65_535) + '\u{1f600}'.repeat(3),
      '\u00e9'.repeat(200_000) + '\ud800',
      'a'.repeat(65_535) + '\ud800\ud800\udc00',
    ])
      expect(utf8Length(text)).toBe(Buffer.byteLength(text));
  });

  test("utf8Length counts as Buffer.byteLength does whatever falls on a chunk's border", () => {
    const border = fc.tuple(fc.integer({ min: 65_530, max: 65_536 }), anyText);
    const counts = ([prefix, text]: [number, string]) => {
      const whole = 'a'.repeat(prefix) + text;
      return utf8Length(whole) === Buffer.byteLength(whole);
    };
    fc.assert(fc.property(border, counts), { numRuns: 300 });
  });

  test('copyText reads as Buffer round-trips it', () => {
    fc.assert(fc.property(anyText, (text) => copyText(text) === Buffer.from(text, 'utf8').toString('utf8')));
  });

  test('utf8Text reads bytes as Buffer#toString, a byte order mark kept', () => {
    fc.assert(fc.property(fc.uint8Array(), (bytes) => utf8Text(bytes) === Buffer.from(bytes).toString('utf8')));
    expect(utf8Text(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61))).toBe('\ufeffa');
  });

  test('base64 and base64url as Buffer writes and reads them', () => {
    fc.assert(
      fc.property(fc.uint8Array(), (bytes) => {
        expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
        expect([...fromBase64(Buffer.from(bytes).toString('base64url'))]).toEqual([...bytes]);
        expect([...fromBase64(Buffer.from(bytes).toString('base64'))]).toEqual([...bytes]);
      }),
    );
    fc.assert(fc.property(anyText, (text) => toBase64Url(text) === Buffer.from(text).toString('base64url')));
  });

  test('toBase64 writes bytes longer than one chunk of its work as Buffer does', () => {
    const bytes = Uint8Array.from({ length: 20_001 }, (_, i) => (i * 131) % 256);
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });

  test('fromBase64 refuses what is not base64 (a cursor the mock did not issue)', () => {
    expect(() => fromBase64('not base64!')).toThrow();
  });
});

describe('utf8WholeLength', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);

  test('leaves out a character cut short at the end, of any length', () => {
    for (const char of ['é', '€', '😀']) {
      const bytes = utf8(`ab${char}`);
      for (let cut = 1; cut < utf8(char).length; cut++) expect(utf8WholeLength(bytes.subarray(0, 2 + cut))).toBe(2);
      expect(utf8WholeLength(bytes)).toBe(bytes.length);
    }
  });

  test('keeps bytes that are no UTF-8 as they are, and an empty start empty', () => {
    expect(utf8WholeLength(new Uint8Array([0x61, 0xff]))).toBe(2);
    expect(utf8WholeLength(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80]))).toBe(5);
    expect(utf8WholeLength(new Uint8Array([]))).toBe(0);
  });

  test('any text cut anywhere decodes, at the length found, to a start of that text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(), (text, at) => {
        const bytes = utf8(text);
        const cut = bytes.subarray(0, at % (bytes.length + 1));
        const start = new TextDecoder('utf-8', { fatal: true }).decode(cut.subarray(0, utf8WholeLength(cut)));
        expect(text.startsWith(start)).toBe(true);
      }),
    );
  });
});
