// The JSON Schema keywords that hold schemas, the one table of them: the only places a schema's `$ref`s are
// followed from, and every walk of a schema reads it. Anything else in a schema (example, default, enum, const,
// x-…) is data.
import { isContainer } from '../lib/json-value.js';

/** How a keyword holds its schemas: one, a list (`items` may be either, in drafts before 2020-12), or a map. */
export type Holds = 'one' | 'list' | 'one-or-list' | 'map';

/**
 * Where a keyword's schemas apply: `inside` the value (its items, properties, the schema of its content: one level
 * deeper), `alongside` it (the same value, seen another way), or nowhere by themselves (`definitions`, reached
 * through `$ref` only).
 */
export type Applies = 'inside' | 'alongside' | 'definitions';

/**
 * Every JSON Schema keyword (drafts 4 to 2020-12, and OpenAPI's) that holds schemas: the one table every walk of a
 * schema reads (references, resolution, conversion, pruning, comparison). A property named like a keyword (a
 * property called `items`) is a property: only a keyword's own value is walked.
 */
export const SCHEMA_KEYWORDS: Readonly<Record<string, { holds: Holds; applies: Applies }>> = Object.freeze({
  items: { holds: 'one-or-list', applies: 'inside' },
  additionalItems: { holds: 'one', applies: 'inside' },
  prefixItems: { holds: 'list', applies: 'inside' },
  contains: { holds: 'one', applies: 'inside' },
  unevaluatedItems: { holds: 'one', applies: 'inside' },
  properties: { holds: 'map', applies: 'inside' },
  patternProperties: { holds: 'map', applies: 'inside' },
  additionalProperties: { holds: 'one', applies: 'inside' },
  unevaluatedProperties: { holds: 'one', applies: 'inside' },
  propertyNames: { holds: 'one', applies: 'inside' },
  contentSchema: { holds: 'one', applies: 'inside' },
  allOf: { holds: 'list', applies: 'alongside' },
  anyOf: { holds: 'list', applies: 'alongside' },
  oneOf: { holds: 'list', applies: 'alongside' },
  not: { holds: 'one', applies: 'alongside' },
  if: { holds: 'one', applies: 'alongside' },
  then: { holds: 'one', applies: 'alongside' },
  else: { holds: 'one', applies: 'alongside' },
  dependentSchemas: { holds: 'map', applies: 'alongside' },
  dependencies: { holds: 'map', applies: 'alongside' },
  definitions: { holds: 'map', applies: 'definitions' },
  $defs: { holds: 'map', applies: 'definitions' },
});

const keywordsWhere = (test: (holds: Holds) => boolean) =>
  new Set(Object.keys(SCHEMA_KEYWORDS).filter((keyword) => test(SCHEMA_KEYWORDS[keyword]!.holds)));
/** Keywords holding one schema. */
export const SINGLE = keywordsWhere((holds) => holds === 'one' || holds === 'one-or-list');
/** Keywords holding a list of schemas. */
export const LISTS = keywordsWhere((holds) => holds === 'list' || holds === 'one-or-list');
/** Keywords holding a map of schemas, whose keys are names, not keywords. */
export const MAPS = keywordsWhere((holds) => holds === 'map');

/**
 * The entries of a map of schemas (`properties`…) as `entriesOf` reads them: a map may be a reference to a map
 * (DigitalOcean's `properties: { $ref: 'attributes.yml#/…' }`), which only the caller can follow.
 */
export type EntriesOf = (map: object, keyword: string) => object;
const asIs: EntriesOf = (map) => map;

/**
 * Calls `visit` with each schema object directly inside `schema`, and the keyword path to it.
 * @example forEachSubschema({ properties: { a: { type: 'string' } } }, (s, path) => path) // ['properties', 'a']
 */
export function forEachSubschema(
  schema: object,
  visit: (child: object, path: string[]) => void,
  entriesOf: EntriesOf = asIs,
): void {
  for (const [key, child] of Object.entries(schema)) {
    if (!isContainer(child)) continue;
    if (Array.isArray(child)) {
      if (LISTS.has(key)) child.forEach((item, i) => isContainer(item) && visit(item, [key, String(i)]));
    } else if (MAPS.has(key)) {
      for (const [name, item] of Object.entries(entriesOf(child, key))) {
        if (isContainer(item) && !(name === '$ref' && typeof item === 'string')) visit(item, [key, name]);
      }
    } else if (SINGLE.has(key)) visit(child, [key]);
  }
}

/**
 * A shallow copy of `schema` whose subschemas are replaced by `map(child)`. With `dropOthers`, entries of
 * schema lists that are not objects are left out, as Prism's schema conversion does.
 */
export function mapSubschemas(
  schema: object,
  map: (child: object) => unknown,
  dropOthers = false,
  entriesOf: EntriesOf = asIs,
): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...schema };
  for (const [key, child] of Object.entries(schema)) {
    if (!isContainer(child)) continue;
    if (Array.isArray(child)) {
      if (!LISTS.has(key)) continue;
      const items = dropOthers ? child.filter(isContainer) : child;
      copy[key] = items.map((item) => (isContainer(item) ? map(item) : item));
    } else if (MAPS.has(key)) {
      const mapped: Record<string, unknown> = {};
      for (const [name, item] of Object.entries(entriesOf(child, key)))
        mapped[name] = isContainer(item) ? map(item) : item;
      copy[key] = mapped;
    } else if (SINGLE.has(key)) copy[key] = map(child);
  }
  return copy;
}
