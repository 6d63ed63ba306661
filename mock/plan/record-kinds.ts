// The kinds of a record (`Pet: oneOf: [Cat, Dog]`, or `anyOf`): each one whole, as the mock reads, draws and
// checks it. One reader for the collection's inference and for the records it makes.
import { mergedSchema } from '../prism/schema-check.js';
import { isObject, propertiesOf, type JsonObject } from '../schema/schema-facts.js';

const kindsMemo = new WeakMap<object, JsonObject[]>();

/**
 * The kinds of a record schema, each whole: its `allOf` merged, and the record's own part (its fields beside the
 * `oneOf`) merged in, so a kind drawn has the record's `id` and `name` too. `oneOf` before `anyOf`; a branch that
 * is not a schema object is left out; none: `[]`. Made once per schema object.
 * @example kindsOf({ oneOf: [cat, dog] }).map((kind) => Object.keys(kind.properties))
 */
export function kindsOf(schema: JsonObject): JsonObject[] {
  let kinds = kindsMemo.get(schema);
  if (kinds === undefined) {
    const { oneOf, anyOf, ...own } = schema;
    const hasOwn = Object.keys(propertiesOf(own)).length > 0 || Array.isArray(own.required);
    kinds = branchesOf(schema)
      .filter(isObject)
      .map((branch) => mergedSchema(hasOwn ? { allOf: [own, branch] } : branch));
    kindsMemo.set(schema, kinds);
  }
  return kinds;
}

/** The branches of a record of kinds as written, `oneOf` before `anyOf`; none: `[]`. */
export function branchesOf(schema: JsonObject): unknown[] {
  return Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
}

/** The properties a record may have: its own, and its kinds' (the first kind that declares one says it). */
export function recordProperties(schema: JsonObject): Record<string, JsonObject> {
  const kinds = kindsOf(schema).map(propertiesOf);
  return Object.assign({}, ...kinds.reverse(), propertiesOf(schema)) as Record<string, JsonObject>;
}

const shapes = new WeakMap<object, JsonObject>();

/**
 * The record's fields as one object schema, whatever its kind: its own and its kinds' properties (see
 * {@link recordProperties}), and as required what it requires itself or every kind requires. The schema itself
 * when it has no kinds. What an update may set, keeps and stamps is read from it; the record is checked whole
 * against its schema after.
 * @example propertiesOf(recordShape(petSchema)) // the cat's and the dog's fields
 */
export function recordShape(schema: JsonObject): JsonObject {
  const kinds = kindsOf(schema);
  if (kinds.length === 0) return schema;
  let shape = shapes.get(schema);
  if (shape === undefined) {
    const requiredOf = (part: JsonObject) => (Array.isArray(part.required) ? (part.required as string[]) : []);
    const byEvery = requiredOf(kinds[0]!).filter((name) => kinds.every((kind) => requiredOf(kind).includes(name)));
    const required = [...new Set([...requiredOf(schema), ...byEvery])];
    shape = { type: 'object', properties: recordProperties(schema), required };
    shapes.set(schema, shape);
  }
  return shape;
}
