// Whether a value a hint offers fits the schema it is offered for, at every level of it: a hint may only pick
// values the schema allows (an `x-faker` string for an array schema is not one).
import { compileContractPattern } from '../lib/pattern-engine.js';
import { formatFits } from '../prism/schema-check.js';
import { isObject, type JsonObject } from '../schema/schema-facts.js';

/** Whether a value fits. */
export type Fits = (value: unknown) => boolean;

/**
 * Keywords whose meaning is not checked here (composition, references, conditions, dynamic properties): a schema
 * that has one fits nothing, so a hint for it is never used and json-schema-faker's draw stays.
 */
const UNCHECKED = new Set([
  ...['$ref', '$dynamicRef', '$recursiveRef', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'],
  ...['patternProperties', 'propertyNames', 'dependencies', 'dependentRequired', 'dependentSchemas'],
  ...['contains', 'minContains', 'maxContains', 'unevaluatedItems', 'unevaluatedProperties'],
]);

/** How many schema objects one check is made of at most: a hint's schema is a value's, seldom more than a few. */
const MAX_NODES = 256;
const MAX_DEPTH = 16;

const NOTHING: Fits = () => false;
const ANYTHING: Fits = () => true;

/**
 * A check that a value fits a schema as validation reads it (draft-07, with `prefixItems` read as 2020-12
 * reads it, as generation draws it): type, enum, const, bounds, multipleOf, lengths, pattern (in linear time),
 * format (as Prism's ajv checks it), items, tuples, properties, required, additionalProperties, counts. The
 * check is made now, from the schema as it is now (generation rewrites patterns into formats afterwards). It
 * is conservative: a schema with a keyword it does not check (see UNCHECKED), a pattern that does not
 * compile, or too many parts fits nothing; a value that is not JSON (a Date, NaN) fits nothing.
 * @example schemaFitter({ type: 'array', items: { type: 'string' } })('LE4mf0pt90') // false
 */
export function schemaFitter(schema: unknown): Fits {
  return compile(schema, { nodes: 0 }, 0);
}

function compile(schema: unknown, budget: { nodes: number }, depth: number): Fits {
  if (schema === true) return ANYTHING;
  if (!isObject(schema) || ++budget.nodes > MAX_NODES || depth > MAX_DEPTH) return NOTHING;
  if (Object.keys(schema).some((key) => UNCHECKED.has(key))) return NOTHING;
  const checks: Fits[] = [];
  const types = typesOf(schema);
  if (types) checks.push((value) => types.has(jsonType(value) ?? '') || (isInteger(value) && types.has('number')));
  else checks.push((value) => jsonType(value) !== undefined);
  if (Array.isArray(schema.enum)) {
    const allowed = schema.enum;
    checks.push((value) => allowed.some((one) => sameJson(one, value)));
  }
  if (schema.const !== undefined) {
    const only = schema.const;
    checks.push((value) => sameJson(only, value));
  }
  const number = numberCheck(schema);
  if (number) checks.push((value) => typeof value !== 'number' || number(value));
  const string = stringCheck(schema);
  if (string === null) return NOTHING;
  if (string) checks.push((value) => typeof value !== 'string' || string(value));
  const array = arrayCheck(schema, budget, depth);
  if (array) checks.push((value) => !Array.isArray(value) || array(value));
  const object = objectCheck(schema, budget, depth);
  if (object) checks.push((value) => jsonType(value) !== 'object' || object(value as JsonObject));
  return (value) => checks.every((check) => check(value));
}

/** The JSON types a schema allows (OpenAPI 3.0's `nullable` adds null); `undefined` when any is. */
function typesOf(schema: JsonObject): Set<string> | undefined {
  if (schema.type === undefined) return undefined;
  const types = new Set((Array.isArray(schema.type) ? schema.type : [schema.type]).map(String));
  if (schema.nullable === true) types.add('null');
  return types;
}

/** A value's JSON type (`integer` for a whole number); `undefined` for what JSON cannot hold. */
function jsonType(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'number')
    return Number.isFinite(value) ? (Number.isInteger(value) ? 'integer' : 'number') : undefined;
  if (typeof value === 'string' || typeof value === 'boolean') return typeof value;
  if (Array.isArray(value)) return value.every((item) => jsonType(item) !== undefined) ? 'array' : undefined;
  if (typeof value !== 'object') return undefined;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  return Object.values(value).every((item) => jsonType(item) !== undefined) ? 'object' : undefined;
}

function isInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value);
}

function numberCheck(schema: JsonObject): ((value: number) => boolean) | undefined {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
  const checks: ((value: number) => boolean)[] = [];
  // Draft 4's boolean exclusiveMinimum/Maximum make minimum/maximum exclusive.
  if (typeof minimum === 'number') checks.push(exclusiveMinimum === true ? (v) => v > minimum : (v) => v >= minimum);
  if (typeof maximum === 'number') checks.push(exclusiveMaximum === true ? (v) => v < maximum : (v) => v <= maximum);
  if (typeof exclusiveMinimum === 'number') checks.push((v) => v > exclusiveMinimum);
  if (typeof exclusiveMaximum === 'number') checks.push((v) => v < exclusiveMaximum);
  if (typeof multipleOf === 'number' && multipleOf > 0) checks.push((v) => Number.isInteger(v / multipleOf));
  return checks.length === 0 ? undefined : (value) => checks.every((check) => check(value));
}

/** The string keywords' check; `null` when the pattern does not compile (nothing is known to fit it). */
function stringCheck(schema: JsonObject): ((value: string) => boolean) | null | undefined {
  const { minLength, maxLength, pattern, format } = schema;
  let compiled: ((value: string) => boolean) | undefined;
  if (typeof pattern === 'string') {
    try {
      const engine = compileContractPattern(pattern);
      compiled = (value) => engine.test(value);
    } catch {
      return null;
    }
  }
  if (minLength === undefined && maxLength === undefined && !compiled && typeof format !== 'string') return undefined;
  return (value) => {
    // Lengths count code points, as validation counts them.
    const length = [...value].length;
    if (typeof minLength === 'number' && length < minLength) return false;
    if (typeof maxLength === 'number' && length > maxLength) return false;
    if (compiled && !compiled(value)) return false;
    return typeof format !== 'string' || formatFits(format, value);
  };
}

/** The array keywords' check: `items` (a schema, or a draft-4 tuple with `additionalItems`), `prefixItems`. */
function arrayCheck(
  schema: JsonObject,
  budget: { nodes: number },
  depth: number,
): ((value: unknown[]) => boolean) | undefined {
  const { minItems, maxItems, uniqueItems } = schema;
  const tuple = Array.isArray(schema.items)
    ? schema.items
    : Array.isArray(schema.prefixItems)
      ? schema.prefixItems
      : [];
  const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  const firsts = tuple.map((item) => part(item, budget, depth));
  const others = rest === undefined ? ANYTHING : part(rest, budget, depth);
  const counted = typeof minItems === 'number' || typeof maxItems === 'number' || uniqueItems === true;
  if (firsts.length === 0 && rest === undefined && !counted) return undefined;
  return (value) => {
    if (typeof minItems === 'number' && value.length < minItems) return false;
    if (typeof maxItems === 'number' && value.length > maxItems) return false;
    if (!value.every((item, i) => (i < firsts.length ? firsts[i]! : others)(item))) return false;
    return uniqueItems !== true || value.every((item, i) => value.slice(i + 1).every((o) => !sameJson(item, o)));
  };
}

function objectCheck(
  schema: JsonObject,
  budget: { nodes: number },
  depth: number,
): ((value: JsonObject) => boolean) | undefined {
  const { required, minProperties, maxProperties, additionalProperties } = schema;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const named = new Map(Object.entries(properties).map(([name, child]) => [name, part(child, budget, depth)]));
  const others = additionalProperties === undefined ? ANYTHING : part(additionalProperties, budget, depth);
  const names = Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
  const counted = typeof minProperties === 'number' || typeof maxProperties === 'number';
  if (named.size === 0 && additionalProperties === undefined && names.length === 0 && !counted) return undefined;
  return (value) => {
    const keys = Object.keys(value);
    if (typeof minProperties === 'number' && keys.length < minProperties) return false;
    if (typeof maxProperties === 'number' && keys.length > maxProperties) return false;
    if (!names.every((name) => Object.hasOwn(value, name))) return false;
    return keys.every((key) => (named.get(key) ?? others)(value[key]));
  };
}

/** A subschema's check; a boolean schema is its value. */
function part(schema: unknown, budget: { nodes: number }, depth: number): Fits {
  if (schema === false) return NOTHING;
  return compile(schema, budget, depth + 1);
}

/** Whether two JSON values are equal, as `enum`, `const` and `uniqueItems` compare them. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameJson((a as JsonObject)[key], (b as JsonObject)[key]));
}
