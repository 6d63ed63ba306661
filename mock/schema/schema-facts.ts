// Small facts about JSON values and JSON Schemas, and a keyword-aware way to rebuild a schema.
import { isObject, type JsonObject } from '../lib/json-value.js';
import { LISTS, MAPS, SINGLE } from './schema-keywords.js';

export { isObject, type JsonObject };

/** Whether a schema allows `null` (OpenAPI 3.0 `nullable`, or a `null` type). */
export function isNullable(schema: unknown): boolean {
  return isObject(schema) && (schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null')));
}

/** The `properties` of an object schema, or `{}`. */
export function propertiesOf(schema: unknown): Record<string, JsonObject> {
  return isObject(schema) && isObject(schema.properties) ? (schema.properties as Record<string, JsonObject>) : {};
}

/**
 * Rebuilds a JSON Schema keyword by keyword, handing every schema object in it to `change`, deepest first
 * (its subschemas already rebuilt). A property named like a keyword (`items`) is a property, not a keyword;
 * values of other keywords (`enum`, `default`, `example`) are kept as they are. The schema is not changed.
 * @example mapSchema(schema, ({ $id, ...rest }) => rest) // the schema without any $id
 */
export function mapSchema(schema: unknown, change: (node: JsonObject) => JsonObject): unknown {
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, mapSchema(child, change)]));
    } else if (LISTS.has(key) && Array.isArray(value)) out[key] = value.map((child) => mapSchema(child, change));
    else if (SINGLE.has(key) && !Array.isArray(value)) out[key] = mapSchema(value, change);
    else out[key] = value;
  }
  return change(out);
}

/**
 * Hands every schema object of a JSON Schema to `visit`, once each, keyword by keyword as mapSchema reads
 * them (a property named `items` is a property); `visit` may change the object it is handed.
 * @example eachSchemaNode(schema, (node) => delete node.description)
 */
export function eachSchemaNode(schema: unknown, visit: (node: JsonObject) => void, seen = new Set<object>()): void {
  if (!isObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  for (const [key, value] of Object.entries(schema)) {
    if (MAPS.has(key) && isObject(value)) for (const child of Object.values(value)) eachSchemaNode(child, visit, seen);
    else if (LISTS.has(key) && Array.isArray(value)) for (const child of value) eachSchemaNode(child, visit, seen);
    else if (SINGLE.has(key)) eachSchemaNode(value, visit, seen);
  }
  visit(schema);
}
