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

const WIDE_YAML = `
openapi: 3.1.0
info: { title: Passes, version: "1", description: "members → passes" }
paths:
  /members/{member_id}/passes:
    post:
      operationId: createPassForAMember
      responses:
        "201":
          description: Créé
          content:
            application/json:
              schema: { type: object, properties: { kind: { enum: [pin, card, mobile_wallet_credential] } } }
`;

describe('parseDocument: strings as narrow as they can be', () => {
  it('makes every key and string of a YAML text with a wide character narrow, but those that need two bytes', () => {
    const document = parseDocument(WIDE_YAML, 'the contract');
    const strings = stringsOf(document);
    expect(strings.length).toBeGreaterThan(20);
    const wide = strings.filter(([, text]) => isWide(text)).map(([path, text]) => `${path}: ${text}`);
    expect(wide).toEqual(['/info/description: members → passes']);
    // What js-yaml gives for the same text is wide throughout: the check above is not vacuous.
    const operationId = (loadYaml(WIDE_YAML) as { paths: Record<string, { post: { operationId: string } }> }).paths[
      '/members/{member_id}/passes'
    ]!.post.operationId;
    expect(isWide(operationId)).toBe(true);
  });

  it('reads the bundled contract (which has arrows and dashes past U+00FF) into narrow operation ids', () => {
    const text = readFileSync(new URL('../../contracts/membership.openapi.yaml', import.meta.url), 'utf8');
    expect(text).toMatch(/[^\0-\xff]/);
    const document = parseDocument(text, 'the contract') as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).flatMap((operation) =>
        typeof operation?.operationId === 'string' ? [operation.operationId] : [],
      ),
    );
    expect(ids).toHaveLength(7);
    expect(ids.filter(isWide)).toEqual([]);
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
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(document.again).toBe(document.shared);
  });

  it('makes a subtree an alias repeats once: a document of 2^40 leaves by aliases is read at once', () => {
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
