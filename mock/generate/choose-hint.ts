// Decides where a generated value should come from, by what the schema says about it, most explicit first.
import type { Faker } from '@faker-js/faker';
import type { JsonObject } from '../schema/schema-facts.js';
import { fakerCall, fakerDraw } from './faker-hint.js';
import { schemaFitter } from './fit-schema.js';
import { isBirthName, nameHint, snakeCase, type NameContext, type PersonPart } from './name-hints.js';

/**
 * A value to put in place of json-schema-faker's: one of a list, chosen by the seed, or a faker draw that must
 * fit (with the part of a person it is, if it is one).
 */
export type Hint =
  | { pick: readonly unknown[] }
  | { draw: (faker: Faker) => unknown; fits: (value: unknown) => boolean; role?: PersonPart };

/**
 * The hint a schema gives its values, in this order:
 * - its `x-faker` (or `faker`), a faker method, see {@link fakerDraw};
 * - an `examples` list (`x-examples` in OpenAPI 3.0, which has no `examples` in schemas) of two or more values
 *   that fit the schema, for a scalar that is not an identifier (no `pattern`, not named `id` or `…_id`);
 * - a `format` faker draws better than json-schema-faker: `email`, `uri`/`url`, `hostname`, `phone`, and a
 *   `date`/`date-time` named like a birth date;
 * - the property's name, for a plain string (no format, pattern or enum), see {@link nameHint};
 * - the one example of a plain string (OpenAPI 3.0's `example`, which Prism hands over as `examples: [it]`),
 *   before a name that is only a guess.
 * A hint only ever gives values the schema allows, whatever its kind: examples that do not fit are dropped, and
 * a drawn value that does not fit the whole schema (its type, bounds, lengths, pattern, format, items…: see
 * schemaFitter) is not used: the value json-schema-faker drew from the schema stays.
 * `undefined` when nothing applies (an enum, a const, an id, a string with no hint).
 * @example chooseHint({ type: 'string', maxLength: 40 }, { name: 'city', siblings: [] }) // { draw, fits }
 */
export function chooseHint(node: JsonObject, context?: NameContext): Hint | undefined {
  const faker = node['x-faker'] ?? node.faker;
  if (faker !== undefined) {
    const call = fakerCall(faker);
    if (!call) return undefined;
    const fits = schemaFitter(node);
    return { draw: fakerDraw(call, node, fits), fits };
  }
  if (['const', 'enum', '$ref', ...COMPOSITE].some((key) => node[key] !== undefined)) return undefined;
  if (context && /(^|_)(id|uuid|guid)$/.test(snakeCase(context.name))) return undefined;
  const fits = schemaFitter(node);
  // Examples are scalars: a list of objects or arrays is documentation, not values to pick from.
  const examples = examplesOf(node).filter((value) => SCALAR.has(typeof value) && fits(value));
  if (examples.length >= 2 && node.pattern === undefined) return { pick: examples };
  if (!allows(node, 'string')) return undefined;
  if (typeof node.format === 'string') {
    const draw = formatDraw(node.format, context?.name);
    if (!draw) return undefined;
    return /^(idn-)?email$/.test(node.format) ? { draw, fits, role: 'email' } : { draw, fits };
  }
  if (node.pattern !== undefined) return undefined;
  const named = context && nameHint(context);
  if (named && !named.weak) return { draw: named.draw, fits, ...(named.role ? { role: named.role } : {}) };
  if (examples.length === 1 && typeof examples[0] === 'string') return { pick: examples };
  return named && { draw: named.draw, fits };
}

const SCALAR = new Set(['string', 'number', 'boolean']);

/** Keywords of a schema made of other schemas: its values are those of its parts, hinted there. */
const COMPOSITE = [
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'properties',
  'items',
  'prefixItems',
  'additionalProperties',
];

/** A schema's examples: `x-examples` if it has them (OpenAPI 3.0), else `examples`. */
export function examplesOf(node: JsonObject): unknown[] {
  if (Array.isArray(node['x-examples'])) return node['x-examples'];
  return Array.isArray(node.examples) ? node.examples : [];
}

function formatDraw(format: string, name: string | undefined): ((faker: Faker) => unknown) | undefined {
  const image = name !== undefined && /avatar|image|photo|picture|thumbnail|logo/.test(snakeCase(name));
  switch (format) {
    case 'email':
    case 'idn-email':
      return (f) => f.internet.email();
    case 'uri':
    case 'url':
    case 'iri':
      return image ? (f) => f.image.url() : (f) => f.internet.url();
    case 'hostname':
    case 'idn-hostname':
      return (f) => f.internet.domainName();
    case 'phone':
    case 'tel':
    case 'phone-number':
    case 'e164':
      return (f) => f.phone.number({ style: 'international' });
    case 'date':
    case 'date-time':
      if (name === undefined || !isBirthName(name)) return undefined;
      return (f) => {
        const iso = f.date.birthdate({ mode: 'age', min: 18, max: 80 }).toISOString();
        return format === 'date' ? iso.slice(0, 10) : iso.replace(/\.\d{3}Z$/, 'Z');
      };
    default:
      return undefined;
  }
}

/** Whether a schema's `type` allows a JSON type (a schema without `type` allows any). */
function allows(node: JsonObject, type: string): boolean {
  if (node.type === undefined) return true;
  return Array.isArray(node.type) ? node.type.includes(type) : node.type === type;
}
