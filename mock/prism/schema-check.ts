// Plain-value wrappers over Prism's allOf merger and ajv, for the state code to read record schemas and to
// check values against them without touching fp-ts, and for generation to check a hint's value's format.
import { eachSchemaNode, isObject } from '../schema/schema-facts.js';
import {
  bodyParts,
  convertAjvErrors,
  sharedSchemaCompiler,
  type Diagnostic,
  type SchemaCheck,
} from './prism-modules.js';

/** Prism's context for requests and for responses (its `ValidationContext.Input` and `Output`). */
export const INPUT = 0;
const OUTPUT = 1;
const merged = new WeakMap<object, object>();

/**
 * The schema with its `allOf` merged into one object schema (deeply), made once per schema object; the schema
 * itself when it has no `allOf` or cannot be merged (conflicting types, say).
 * @example mergedSchema({ allOf: [{ $ref… }, { properties: { id: { type: 'string' } } }] }).properties.id
 */
export function mergedSchema<T extends object>(schema: T): T {
  let known = merged.get(schema);
  if (known === undefined) {
    try {
      known = hasAllOf(schema)
        ? bodyParts.mergeAllOf(schema, { deep: true, ignoreAdditionalProperties: true })
        : schema;
    } catch {
      known = schema;
    }
    merged.set(schema, known);
  }
  return known as T;
}

const answered = new WeakMap<object, object>();

/**
 * A response schema as an answer shows it: its write-only properties left out (Prism's strip, which Prism's
 * generator applies before it draws a body, and its check before it checks one), made once per schema; the
 * schema itself when it has none. A record, a placeholder or a generated body never shows a `password`.
 * @example answeredSchema({ properties: { password: { type: 'string', writeOnly: true } } }).properties // {}
 */
export function answeredSchema<T extends object>(schema: T): T {
  let known = answered.get(schema);
  if (known === undefined) {
    // A schema that holds itself is answered as written where it holds itself (a recursive `Node`).
    answered.set(schema, schema);
    known = hasWriteOnly(schema) ? withoutWriteOnly(schema) : schema;
    answered.set(schema, known);
  }
  return known as T;
}

const answeredBundles = new WeakMap<object, Record<string, unknown>>();

/**
 * An operation's `__bundled__` (the schemas that contain themselves) as an answer shows it: each schema
 * {@link answeredSchema}, so a write-only field is drawn at no depth of a tree. Made once per bundle.
 * @example generator.generate(answeredSchema(schema), key, answeredBundle(bundleOf(operation.spec)))
 */
export function answeredBundle(bundle: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (bundle === undefined) return undefined;
  let known = answeredBundles.get(bundle);
  if (known === undefined) {
    const answer = (schema: unknown) => (isObject(schema) ? answeredSchema(schema) : schema);
    known = Object.fromEntries(Object.entries(bundle).map(([name, schema]) => [name, answer(schema)]));
    answeredBundles.set(bundle, known);
  }
  return known;
}

function withoutWriteOnly(schema: object): object {
  let out: object = schema;
  try {
    // Merged first: the strip does not look inside `allOf`.
    const stripped = bodyParts.stripWriteOnlyProperties(mergedSchema(schema));
    if (stripped._tag === 'Some') out = stripped.value;
  } catch {
    // Answered as the contract writes it, as before.
  }
  return withAnsweredParts(out);
}

/**
 * The schema with its `oneOf`/`anyOf` branches, properties and items answered too: Prism's strip does not look
 * inside branches, so a `oneOf` of a person (with a write-only `password`) and a robot drew the password.
 */
function withAnsweredParts(schema: object): object {
  const node = schema as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  const answer = (part: unknown) => (isObject(part) ? answeredSchema(part) : part);
  for (const key of ['oneOf', 'anyOf']) {
    const branches = node[key];
    if (!Array.isArray(branches)) continue;
    const shown = branches.map(answer);
    if (shown.some((branch, i) => branch !== branches[i])) (out ??= { ...node })[key] = shown;
  }
  if (isObject(node.properties)) {
    const properties = node.properties;
    const shown = Object.fromEntries(Object.entries(properties).map(([name, part]) => [name, answer(part)]));
    if (Object.keys(shown).some((name) => shown[name] !== properties[name])) (out ??= { ...node }).properties = shown;
  }
  if (isObject(node.items) && answer(node.items) !== node.items) (out ??= { ...node }).items = answer(node.items);
  return out ?? schema;
}

/**
 * Whether a schema marks a field `writeOnly` anywhere (not through `$ref`s into a bundle: look at the bundle's
 * schemas too).
 */
export function hasWriteOnly(schema: object): boolean {
  let found = false;
  eachSchemaNode(schema, (node) => {
    found ||= node.writeOnly === true;
  });
  return found;
}

/**
 * Whether a schema has an `allOf` anywhere, each shared subschema looked at once (the loader shares one object
 * per named schema: writing the schema out as text would repeat every one where it is used).
 */
function hasAllOf(schema: object): boolean {
  let found = false;
  eachSchemaNode(schema, (node) => {
    found ||= Array.isArray(node.allOf);
  });
  return found;
}

/**
 * Whether a value fits a schema, as Prism validates responses (no type coercion). `bundle` is the operation's
 * `__bundled__` map, for schemas whose `$ref`s point into it. A schema ajv cannot compile is taken to fit
 * (the value stays as the request had it, as before this check).
 * @example valueFits('2025-01-01', { type: 'string', format: 'date' }) // true
 */
export function valueFits(value: unknown, schema: object, bundle?: unknown): boolean {
  const check = checkOf(schema, bundle);
  if (check === PRISM)
    return bodyParts.validateAgainstSchema(value, schema, false, OUTPUT, 'body', bundle)._tag === 'None';
  if (check === null) return true;
  try {
    return check(value);
  } catch {
    // Prism finds nothing when ajv throws on a value.
    return true;
  }
}

/**
 * Prism's findings (errors) for a value against a schema, as its `validateAgainstSchema` gives them without
 * coercion (`context` 0: a request's, 1: a response's; `prefix` names the part: `body`), from the check made
 * once: Prism's fp-ts plumbing and draft lookup around the check cost more than the check, on every create.
 * @example schemaFindings({ kind: 1 }, schema, undefined, 0, 'body')[0].message
 * // 'Request body property kind must be string'
 */
export function schemaFindings(
  value: unknown,
  schema: object,
  bundle: unknown,
  context: number,
  prefix: string,
): Diagnostic[] {
  const check = checkOf(schema, bundle);
  if (check === PRISM) {
    const found = bodyParts.validateAgainstSchema(value, schema, false, context, prefix, bundle);
    return found._tag === 'Some' ? found.value : [];
  }
  if (check === null) return [];
  try {
    if (check(value)) return [];
  } catch {
    // Prism finds nothing when ajv throws on a value.
    return [];
  }
  const errors = check.errors;
  return errors?.length ? convertAjvErrors(errors, ERROR, context, prefix) : [];
}

/**
 * Whether a path parameter's text fits its schema as Prism checks a request's parameters: with type coercion
 * (`07` is an integer), so what a request gets through with is taken here too.
 * @example paramFits('07', { type: 'integer' }) // true
 */
export function paramFits(text: string, schema: object, bundle?: unknown): boolean {
  try {
    return bodyParts.validateAgainstSchema(text, schema, true, INPUT, 'path', bundle)._tag === 'None';
  } catch {
    // Prism finds nothing when ajv throws on a value.
    return true;
  }
}

/** Prism's severity of an error (`DiagnosticSeverity.Error`): the findings that refuse a request or mark an answer. */
export const ERROR = 0;

/** Ask Prism itself: a schema with an `$id` is compiled into Prism's one ajv, where a copy of it could not be. */
const PRISM = Symbol('prism');
/** Checks compiled as Prism compiles them (`null`: ajv could not, Prism then finds nothing), by schema and bundle. */
const checks = new WeakMap<object, Map<unknown, SchemaCheck | null | typeof PRISM>>();

/**
 * The check of a schema as Prism's `validateAgainstSchema` makes it (the ajv of the schema's draft, without
 * coercion, the bundle riding along), made once: Prism's plumbing around it costs more than the check itself,
 * for every create's record and every path parameter echoed into one.
 */
function checkOf(schema: object, bundle: unknown): SchemaCheck | null | typeof PRISM {
  let byBundle = checks.get(schema);
  if (!byBundle) checks.set(schema, (byBundle = new Map()));
  let check = byBundle.get(bundle);
  if (check !== undefined) return check;
  if (hasId(schema, new Set())) check = PRISM;
  else {
    const draft = draftOf(schema);
    const compiler = sharedSchemaCompiler(draft);
    const source = { ...schema, __bundled__: bundle };
    try {
      check = compiler.compile(source);
      // The check works on without it: the compiler keeps nothing, this map holds the check.
      compiler.removeSchema(source);
    } catch {
      check = null;
    }
  }
  byBundle.set(bundle, check);
  return check;
}

const DRAFT_2019 = /^https?:\/\/json-schema.org\/draft\/2019-09\/schema#?$/;
const DRAFT_2020 = /^https?:\/\/json-schema.org\/draft\/2020-12\/schema#?$/;

/**
 * A part of a schema (a property's, an item's) to be checked on its own, in the draft its root names: only a
 * body schema's root carries `$schema` (Prism gives every converted root one), and a part alone would be read
 * as draft-07 (a 2020-12 `prefixItems` tuple with `items: false` would then refuse every element). Copied only
 * when the root names a draft the part does not; call it once per part (checks are kept by schema object).
 * @example inRootDraft({ prefixItems: [{ type: 'string' }] }, { $schema: DRAFT_2020_12 }).$schema // DRAFT_2020_12
 */
export function inRootDraft<T>(part: T, root: object): T {
  const { $schema } = root as { $schema?: unknown };
  if ($schema === undefined || !isObject(part) || part.$schema !== undefined) return part;
  return { ...part, $schema } as T;
}

/** The ajv Prism checks a schema with, by the draft its `$schema` names. */
export function draftOf(schema: object): 'draft2019_09' | 'draft2020_12' | 'default' {
  const $schema = String((schema as { $schema?: unknown }).$schema);
  return DRAFT_2019.test($schema) ? 'draft2019_09' : DRAFT_2020.test($schema) ? 'draft2020_12' : 'default';
}

/** Whether a schema has an `$id` anywhere (each shared part looked at once). */
export function hasId(node: unknown, seen: Set<object>): boolean {
  if (typeof node !== 'object' || node === null || seen.has(node)) return false;
  seen.add(node);
  if (!Array.isArray(node) && '$id' in node) return true;
  for (const value of Object.values(node)) if (hasId(value, seen)) return true;
  return false;
}

/** Formats checked so far, by name: one compiled check each, of an ajv set up as Prism's. */
const formatChecks = new Map<string, SchemaCheck>();
/** Format names kept compiled; past it (a contract of thousands of made-up formats), each is compiled per use. */
const MAX_FORMATS = 256;

/**
 * Whether a string is of a format as Prism's response check reads it (ajv-formats; a format it does not know
 * allows any string). `false` when Prism's modules are not loaded: nothing can say the string is of it.
 * @example formatFits('email', 'ada@example.com') // true
 */
export function formatFits(format: string, value: string): boolean {
  let check = formatChecks.get(format);
  try {
    if (!check) {
      const formatCompiler = sharedSchemaCompiler('default');
      const schema = { type: 'string', format };
      check = formatCompiler.compile(schema);
      if (formatChecks.size < MAX_FORMATS) formatChecks.set(format, check);
      else formatCompiler.removeSchema(schema);
    }
    return check(value);
  } catch {
    return false;
  }
}
