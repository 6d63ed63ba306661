// Finds the `$ref`s of an OpenAPI document that are references, and only those: a `$ref` key inside an
// example, a default, an enum or an `x-…` extension is data (GitHub's SCIM examples hold `"$ref": "https://…"`),
// and is never followed. It also finds where schemas start (`schema`, `components/schemas`, `definitions`).
import { forEachSubschema } from '../schema/schema-keywords.js';

/**
 * How the walk reads an object: as an OpenAPI object, as a JSON Schema (whose keywords it knows), as a map of
 * schemas (`properties`…), as an Example Object (a reference, or data); `data` is the mode of an example
 * value given whole as a reference (DigitalOcean's `example: { $ref: 'examples.yml#/…' }`), whose target is data.
 */
export type Mode = 'node' | 'schema' | 'schemas' | 'example' | 'data';

/** An object holding a `$ref` string. */
export type RefHolder = Record<string, unknown> & { $ref: string };

/** What the walk reports. */
export interface ReferenceVisitor {
  /**
   * A reference; `mode` is how its target is to be read, `path` where the holder is, `at` the object and key
   * holding it (to put the target in its place).
   */
  reference(holder: RefHolder, mode: Mode, path: readonly string[], at: Place | undefined): void;
  /** A schema reached from an OpenAPI object: `parent[key]`. */
  schema(parent: Record<string, unknown>, key: string): void;
}

/** Where a value is held: `parent[key]`. */
export interface Place {
  parent: Record<string, unknown>;
  key: string;
}

/** What the walk needs besides the value: where it is, who hears, what was walked already. */
export interface Walk {
  visitor: ReferenceVisitor;
  /** The objects walked, with the modes they were walked in (a bit each). */
  seen: Map<object, number>;
  /** Swagger 2.0: `examples` maps media types to example values, never to Example Objects. */
  swagger2: boolean;
}

/** Values that are data in an OpenAPI object, whatever they hold. */
const DATA = new Set(['example', 'examples', 'default', 'enum', 'const']);
/** OpenAPI maps whose keys are names chosen by the author (so a key there is never a keyword). */
const NAMED = new Set([
  'paths',
  'webhooks',
  'parameters',
  'responses',
  'requestBodies',
  'headers',
  'securitySchemes',
  'securityDefinitions',
  'links',
  'callbacks',
  'pathItems',
  'content',
  'encoding',
  'variables',
]);
const isRef = (value: unknown): value is RefHolder =>
  typeof value === 'object' && value !== null && typeof (value as RefHolder).$ref === 'string';
const BITS: Record<Mode, number> = { node: 1, schema: 2, schemas: 4, example: 8, data: 16 };
/** OpenAPI maps of schemas. */
const SCHEMA_MAPS = new Set(['schemas', 'definitions']);

/**
 * Walks `value` read as `mode`, each object once per mode.
 * @param path where `value` is (segments, changed during the walk and restored)
 */
export function walkReferences(value: unknown, mode: Mode, path: string[], walk: Walk, at?: Place): void {
  if (typeof value !== 'object' || value === null) return;
  const bit = BITS[mode];
  const marks = walk.seen.get(value) ?? 0;
  if (marks & bit) return;
  walk.seen.set(value, marks | bit);
  const into = (child: unknown, childMode: Mode, keys: readonly string[]) => {
    const [first, second] = keys as [string, string?];
    const container = (second === undefined ? value : (value as Record<string, unknown>)[first]) as Place['parent'];
    path.push(...keys);
    walkReferences(child, childMode, path, walk, { parent: container, key: second ?? first });
    path.length -= keys.length;
  };
  if (Array.isArray(value)) {
    if (mode === 'node') value.forEach((item, i) => into(item, 'node', [String(i)]));
    return;
  }
  const object = value as Record<string, unknown>;
  if (typeof object.$ref === 'string') walk.visitor.reference(object as RefHolder, mode, path, at);
  if (mode === 'data') return;
  if (mode === 'example') return void (isRef(object.value) && into(object.value, 'data', ['value']));
  if (mode === 'schemas') {
    for (const [name, schema] of Object.entries(object)) if (name !== '$ref') into(schema, 'schema', [name]);
    return;
  }
  if (mode === 'schema') {
    // A map of schemas may itself be a reference: reported, and its own entries walked.
    const entriesOf = (map: object, keyword: string) => {
      if (typeof (map as RefHolder).$ref === 'string') {
        path.push(keyword);
        walk.visitor.reference(map as RefHolder, 'schemas', path, { parent: object, key: keyword });
        path.pop();
      }
      return map;
    };
    return forEachSubschema(object, (child, keys) => into(child, 'schema', keys), entriesOf);
  }
  for (const key of Object.keys(object)) {
    const child = object[key];
    if (typeof child !== 'object' || child === null || key.startsWith('x-')) continue;
    if (key === 'examples' && !walk.swagger2 && !Array.isArray(child)) {
      for (const [name, example] of Object.entries(child)) into(example, 'example', [key, name]);
    } else if (key === 'example' && isRef(child)) into(child, 'data', [key]);
    else if (DATA.has(key)) continue;
    else if (key === 'schema') {
      walk.visitor.schema(object, key);
      into(child, 'schema', [key]);
    } else if (SCHEMA_MAPS.has(key) && !Array.isArray(child)) {
      for (const [name, schema] of Object.entries(child)) {
        walk.visitor.schema(child as Record<string, unknown>, name);
        into(schema, 'schema', [key, name]);
      }
    } else if (NAMED.has(key) && !Array.isArray(child)) {
      for (const [name, entry] of Object.entries(child)) into(entry, 'node', [key, name]);
    } else into(child, 'node', [key]);
  }
}
