// The JSON Schema keywords that hold schemas: the only places a schema's `$ref`s are followed from. Anything
// else in a schema (example, default, enum, const, x-…) is data.

/** Keywords holding one schema. */
const SINGLE = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);
/** Keywords holding a list of schemas (`items` too, in drafts before 2020-12). */
const LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords holding a map of schemas. */
const MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas', 'dependencies']);

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

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
    if (!isObject(child)) continue;
    if (Array.isArray(child)) {
      if (LISTS.has(key)) child.forEach((item, i) => isObject(item) && visit(item, [key, String(i)]));
    } else if (MAPS.has(key)) {
      for (const [name, item] of Object.entries(entriesOf(child, key))) {
        if (isObject(item) && !(name === '$ref' && typeof item === 'string')) visit(item, [key, name]);
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
    if (!isObject(child)) continue;
    if (Array.isArray(child)) {
      if (!LISTS.has(key)) continue;
      const items = dropOthers ? child.filter(isObject) : child;
      copy[key] = items.map((item) => (isObject(item) ? map(item) : item));
    } else if (MAPS.has(key)) {
      const mapped: Record<string, unknown> = {};
      for (const [name, item] of Object.entries(entriesOf(child, key)))
        mapped[name] = isObject(item) ? map(item) : item;
      copy[key] = mapped;
    } else if (SINGLE.has(key)) copy[key] = map(child);
  }
  return copy;
}
