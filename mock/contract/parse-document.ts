// Parses one document of a contract: JSON with JSON.parse (a hundred times faster than a YAML parser on a 4 MB
// file), YAML with js-yaml.
import { load as loadYaml } from 'js-yaml';
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
    document = loadYaml(body, { maxAliases: 1000, maxDepth: 1000 });
  } catch (error) {
    throw new ContractError(`${capitalise(what)} is not valid YAML or JSON: ${describe(error)}`);
  }
  if (/(?:^|[\s[{,:])&[^\s[\]{},]/.test(body) && containsItself(document)) {
    throw new ContractError(`${capitalise(what)} contains itself through a YAML alias (an anchor used inside itself).`);
  }
  return document;
}

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
