// Parses one document of a contract: JSON with JSON.parse (a hundred times faster than a YAML parser on a 4 MB
// file), YAML with js-yaml.
import { CORE_SCHEMA, defineScalarTag, load as loadYaml, strTag } from 'js-yaml';
import { ContractError } from './contract-error.js';

/** Whether a location is an http(s) URL rather than a file path. */
export const isUrl = (location: string): boolean => /^https?:\/\//i.test(location);

/**
 * Parses YAML or JSON text. Aliases are limited as the YAML parser before did (1000), and a document that
 * contains itself through an alias is refused: every step after this one walks documents as trees.
 */
export function parseDocument(text: string, what: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (/^\s*[{[]/.test(body)) {
    try {
      return JSON.parse(body);
    } catch {
      // Not JSON after all: YAML's flow style starts the same way.
    }
  }
  let document: unknown;
  try {
    // A wide text (its byte order mark counts) is read with strings made narrow: see NARROW_SCHEMA.
    const schema = WIDE.test(text) ? { schema: NARROW_SCHEMA } : {};
    document = loadYaml(body, { maxAliases: 1000, maxDepth: 1000, ...schema });
  } catch (error) {
    throw new ContractError(`${capitalise(what)} is not valid YAML or JSON: ${describe(error)}`);
  }
  if (/(?:^|[\s[{,:])&[^\s[\]{},]/.test(body) && containsItself(document)) {
    throw new ContractError(`${capitalise(what)} contains itself through a YAML alias (an anchor used inside itself).`);
  }
  return document;
}

/** A character past U+00FF: V8 keeps a text that has one (a byte order mark too) at two bytes a character. */
const WIDE = /[^\0-\xff]/;

/**
 * js-yaml's own schema (CORE_SCHEMA, its default) with every string made anew as it is read, each with the
 * narrowest characters it can have. js-yaml cuts its strings out of the text, and V8 keeps every cut of a wide
 * text wide: one "→" in a description made each operation id, media type, field name and enum value two bytes a
 * character, and with them every log line, header block and record text they went into (written out character
 * by character as UTF-8, and twice the heap for what the state keeps). JSON.parse writes new strings narrow when
 * they fit. Made while js-yaml reads, not after: a key it had made wide is interned, and V8 hands the interned
 * one back for any copy of it.
 */
const NARROW_SCHEMA = CORE_SCHEMA.withTags(
  defineScalarTag(strTag.tagName, {
    ...strTag,
    resolve: (source, explicit, name) => {
      const value = strTag.resolve(source, explicit, name);
      return typeof value === 'string' ? (JSON.parse(JSON.stringify(value)) as string) : value;
    },
  }),
);

function containsItself(value: unknown, open = new Set<object>(), done = new Set<object>()): boolean {
  if (typeof value !== 'object' || value === null || done.has(value)) return false;
  if (open.has(value)) return true;
  open.add(value);
  for (const child of Object.values(value)) if (containsItself(child, open, done)) return true;
  open.delete(value);
  done.add(value);
  return false;
}

/** An error's message for people: its first line, and the cause fetch hides its reason in. */
export function describe(error: unknown): string {
  const { message, cause } = error as Error & { cause?: Error };
  // fetch says "fetch failed" and puts the reason (DNS, refused, timeout) in its cause.
  return cause?.message ? `${message} (${cause.message})` : message.split('\n')[0]!;
}

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
