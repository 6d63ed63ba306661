// A YAML contract with a character past U+00FF anywhere (an arrow in a description) is read into strings as
// narrow as their characters allow: V8 kept every string js-yaml cut out of such a text two bytes a character.
import { serialize } from 'node:v8';
import { readFileSync } from 'node:fs';
import { load as loadYaml } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../mock/contract/parse-document.js';

/** Whether V8 keeps a string two bytes a character: its serializer says so in the string's tag ('c', not '"'). */
function isWide(text: string): boolean {
  const bytes = serialize(text);
  let at = 2; // after the header and the version
  while (bytes[at] === 0) at++; // padding, which aligns a wide string's characters
  return bytes[at] === 0x63;
}

/** Every key and string value under `value`, with its path. */
function stringsOf(value: unknown, path = '', out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string') out.push([path, value]);
  else if (Array.isArray(value)) value.forEach((item, index) => stringsOf(item, `${path}/${index}`, out));
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) {
      out.push([`${path} (key)`, key]);
      stringsOf(item, `${path}/${key}`, out);
    }
  return out;
}

/** A name no source file holds, so V8 has not interned it before the document is read. */
const unseen = (stem: string) => `${stem}_${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;

/** A contract whose field names, operation id and enum values are new to the process, and one wide character. */
function wideYaml() {
  const names = { operation: unseen('op'), field: unseen('field'), value: unseen('value') };
  const text = `
openapi: 3.1.0
info: { title: Passes, version: "1", description: "members → passes" }
paths:
  /members/{member_id}/passes:
    post:
      operationId: ${names.operation}
      responses:
        "201":
          description: Créé
          content:
            application/json:
              schema: { type: object, properties: { ${names.field}: { enum: [pin, "${names.value}"] } } }
`;
  return { names, text };
}

describe('parseDocument: strings as narrow as they can be', () => {
  it('makes every key and string of a YAML text with a wide character narrow, but those that need two bytes', () => {
    const { names, text } = wideYaml();
    const strings = stringsOf(parseDocument(text, 'the contract'));
    expect(strings.map(([, string]) => string)).toEqual(expect.arrayContaining(Object.values(names)));
    const wide = strings.filter(([, string]) => isWide(string)).map(([path, string]) => `${path}: ${string}`);
    expect(wide).toEqual(['/info/description: members → passes']);
  });

  it('is not vacuous: js-yaml alone gives the same text wide keys and values', () => {
    const { names, text } = wideYaml();
    const strings = stringsOf(loadYaml(text)).map(([, string]) => string);
    for (const name of Object.values(names)) expect(isWide(strings.find((string) => string === name)!)).toBe(true);
  });

  it('reads a text with a byte order mark, and only Latin-1 characters after it, into narrow strings', () => {
    const field = unseen('field');
    const document = parseDocument(`\uFEFFtitle: Créé\n${field}: { type: string }\n`, 'the contract') as object;
    expect(Object.keys(document)).toEqual(['title', field]);
    expect(stringsOf(document).filter(([, string]) => isWide(string))).toEqual([]);
  });

  it('reads the bundled contract (which has arrows and dashes past U+00FF) into narrow strings, keys too', () => {
    const text = readFileSync(new URL('../../contracts/membership.openapi.yaml', import.meta.url), 'utf8');
    expect(text).toMatch(/[^\0-\xff]/);
    const strings = stringsOf(parseDocument(text, 'the contract'));
    expect(strings.filter(([path]) => path.endsWith('/operationId'))).toHaveLength(7);
    expect(strings.some(([path, string]) => path.endsWith('(key)') && string === 'last_used_at')).toBe(true);
    // Only what has a character past U+00FF is wide.
    const wide = strings.filter(([, string]) => isWide(string) !== /[^\0-\xff]/.test(string));
    expect(wide).toEqual([]);
  });

  it('keeps what js-yaml read: values, their order, a __proto__ field, and a subtree shared through an alias', () => {
    const text = [
      'title: "→"',
      'when: 2026-11-29T01:00:00Z',
      'numbers: [1, 2.5, -3, .inf]',
      'flags: { yes: true, no: false, none: null }',
      '__proto__: { polluted: "yes" }',
      'shared: &shared { type: string, maxLength: 30 }',
      'again: *shared',
      '"10": ten',
      '"2": two',
    ].join('\n');
    const document = parseDocument(text, 'the document') as Record<string, unknown>;
    expect(document).toEqual(loadYaml(text));
    expect(Object.keys(document)).toEqual(Object.keys(loadYaml(text) as object));
    expect(document.when).toBe('2026-11-29T01:00:00Z'); // js-yaml 5 reads YAML 1.2: a timestamp is a string
    expect(Object.getPrototypeOf(document)).toBe(Object.prototype);
    expect(Object.hasOwn(document, '__proto__')).toBe(true);
    expect(document.again).toBe(document.shared);
  });

  it('reads a wide document of 2^40 leaves by aliases at once, its shared subtrees shared', () => {
    const lines = ['l0: &l0 [leaf, "→"]'];
    for (let level = 1; level <= 40; level++) lines.push(`l${level}: &l${level} [*l${level - 1}, *l${level - 1}]`);
    const document = parseDocument(lines.join('\n'), 'the document') as Record<string, unknown[]>;
    expect(document.l40![0]).toBe(document.l39);
    expect(document.l40![1]).toBe(document.l39);
    expect(isWide((document.l0 as string[])[0]!)).toBe(false);
  });

  it('leaves a JSON text to JSON.parse, whose strings are narrow already', () => {
    const document = parseDocument('{"description": "→", "operationId": "createPassForAMember"}', 'the contract') as {
      operationId: string;
    };
    expect(isWide(document.operationId)).toBe(false);
  });
});
