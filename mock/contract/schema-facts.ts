// Small facts about JSON values and JSON Schemas that the state modules share.

export type JsonObject = Record<string, unknown>;

/** A plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a schema allows `null` (OpenAPI 3.0 `nullable`, or a `null` type). */
export function isNullable(schema: unknown): boolean {
  return isObject(schema) && (schema.nullable === true || (Array.isArray(schema.type) && schema.type.includes('null')));
}

/** The `properties` of an object schema, or `{}`. */
export function propertiesOf(schema: unknown): Record<string, JsonObject> {
  return isObject(schema) && isObject(schema.properties) ? (schema.properties as Record<string, JsonObject>) : {};
}
