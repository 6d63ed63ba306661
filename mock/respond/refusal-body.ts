// The body of a documented refusal: the documented one with the mock's reasons put in where its schema has room
// for them (the problem's own fields, and the text fields an error body says why in), as long as it still fits.
import type { IHttpOperation, IMediaTypeContent } from '@stoplight/types';
import { findContentViolations, type SchemaChecks } from '../prism/check-response.js';
import { isObject, type JsonObject } from '../schema/schema-facts.js';
import { bundledSchema, bundleOf, declaredProperties } from '../schema/operation-bundle.js';
import type { Problem } from '../http/problems.js';

/** The problem's fields, in the order the mock sends them. */
const FIELDS = ['type', 'title', 'status', 'detail', 'instance', 'violations'] as const;

/**
 * String fields an error body gives its reason in, besides the problem's `detail` and `title`: `message`
 * (Google's and Stripe's `error.message`), OAuth's `error_description`, and their common spellings.
 */
const TEXTS = ['message', 'error_message', 'errorMessage', 'error_description', 'description'];

/** RFC 9457's media type: its fields are the problem's wherever the schema leaves room for them. */
const PROBLEM_MEDIA = /^application\/problem\+json\b/i;

/** A bare string `error` is the reason only where nothing else is: beside `error_description` it is a code. */
const FALLBACK = 'error';

/**
 * The documented body with the mock's reasons in: the problem's fields where its schema declares them (all of
 * them in an `application/problem+json` whose schema declares none; the status answered, not the problem's),
 * then the refusal's text in its text fields, at the top and one object down (`{ error: { message } }`). A
 * problem field the problem lacks is taken out unless the schema requires it. Each goes in only if the body
 * still fits (or fitted no better before); a text too long for its `maxLength` is cut to fit, one that breaks a
 * `pattern` or `enum` leaves the documented value.
 * @example withReasons(checks, { message: 'string' }, own, 400, content, operation) // { message: 'query /limit: …' }
 */
export function withReasons(
  checks: SchemaChecks,
  base: unknown,
  own: Problem,
  status: number,
  content: IMediaTypeContent,
  operation: IHttpOperation,
): unknown {
  if (base !== undefined && !isObject(base)) return base;
  const schema = content.schema as JsonObject;
  const bundle = bundleOf(operation);
  const declared = declaredSchemas(schema, bundle);
  const named = FIELDS.filter((f) => declared.has(f));
  // A problem's media type whose schema names none of its fields (an open object) takes them all, where they fit.
  const fields = named.length === 0 && PROBLEM_MEDIA.test(content.mediaType) ? FIELDS : named;
  const texts = textPlaces(declared, own, bundle);
  if (fields.length === 0 && texts.length === 0) return base;
  const fits = (body: JsonObject) => findContentViolations(checks, operation, content, body).length === 0;
  const start: JsonObject = base ?? {};
  let body = withProblemFields(start, fields, { ...own, status }, requiredProperties(resolve(schema, bundle)), fits);
  let bodyFits = fits(body);
  for (const { path, text, maxLength } of texts) {
    if (valueAt(body, path) === text) continue;
    // The whole text, else as much of it as the field's maxLength holds.
    const cut = maxLength !== undefined && maxLength > 0 && text.length > maxLength;
    for (const value of cut ? [text, `${text.slice(0, maxLength - 1)}…`] : [text]) {
      const next = withValueAt(body, path, value);
      const nextFits = fits(next);
      if (nextFits || !bodyFits) {
        [body, bodyFits] = [next, nextFits];
        break;
      }
    }
  }
  return body === start ? base : body;
}

function withProblemFields(
  start: JsonObject,
  fields: readonly string[],
  values: JsonObject,
  required: Set<string>,
  fits: (body: JsonObject) => boolean,
): JsonObject {
  if (fields.length === 0) return start;
  const whole = put(start, fields, values, required);
  if (fits(whole)) return whole;
  // Field by field: each that keeps the body fitting (or no worse than the documented one) goes in.
  let body = start;
  let bodyFits = fits(body);
  for (const field of fields) {
    const next = put(body, [field], values, required);
    const nextFits = fits(next);
    if (nextFits || !bodyFits) [body, bodyFits] = [next, nextFits];
  }
  return body;
}

function put(base: JsonObject, fields: readonly string[], values: JsonObject, required: Set<string>): JsonObject {
  // A body of problem fields alone keeps the mock's order; any other keeps its own.
  const onlyProblem = Object.keys(base).every((k) => (FIELDS as readonly string[]).includes(k));
  const out: JsonObject = onlyProblem ? {} : { ...base };
  for (const field of onlyProblem ? FIELDS : fields) {
    const mine = fields.includes(field);
    const value = mine ? values[field] : base[field];
    if (value !== undefined) out[field] = value;
    else if (!mine || required.has(field)) {
      if (field in base) out[field] = base[field];
    } else delete out[field];
  }
  return out;
}

/** A string field the refusal's text goes in: where, what, and the most it may hold. */
interface TextPlace {
  path: readonly string[];
  text: string;
  maxLength?: number;
}

/**
 * The text fields of a body's schema and of each object property of it (one level down), top first; `title` and
 * `detail` at the top are problem fields already, listed again to be cut to their maxLength where they must.
 */
function textPlaces(declared: Map<string, JsonObject>, own: Problem, bundle?: JsonObject): TextPlace[] {
  const places = textsOf(declared, own, []);
  for (const [name, property] of declared) {
    if ((FIELDS as readonly string[]).includes(name) || !isObject(property)) continue;
    const inner = declaredSchemas(property, bundle);
    if (inner.size > 0) places.push(...textsOf(inner, own, [name]));
  }
  return places;
}

/** The text fields among one object's properties: `title` the problem's title, the others its detail. */
function textsOf(declared: Map<string, JsonObject>, own: Problem, at: readonly string[]): TextPlace[] {
  const strings = [...declared].filter(([, s]) => isString(s)).map(([name]) => name);
  const reasons = strings.filter((n) => n === 'detail' || TEXTS.includes(n));
  const named = reasons.length > 0 ? reasons : strings.filter((n) => n === FALLBACK);
  const places = strings.includes('title') ? [{ name: 'title', text: own.title }] : [];
  places.push(...named.map((name) => ({ name, text: own.detail })));
  return places.map(({ name, text }) => {
    const maxLength = declared.get(name)!.maxLength;
    return { path: [...at, name], text, ...(typeof maxLength === 'number' ? { maxLength } : {}) };
  });
}

function isString(schema: JsonObject): boolean {
  return schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));
}

function valueAt(body: JsonObject, path: readonly string[]): unknown {
  let value: unknown = body;
  for (const name of path) value = isObject(value) ? value[name] : undefined;
  return value;
}

/** A copy of `body` with `value` at `path` (an object made on the way where there is none). */
function withValueAt(body: JsonObject, [name, ...rest]: readonly string[], value: unknown): JsonObject {
  const inner = isObject(body[name!]) ? (body[name!] as JsonObject) : {};
  return { ...body, [name!]: rest.length === 0 ? value : withValueAt(inner, rest, value) };
}

/**
 * The properties a schema declares, by name: its own and those of its `allOf`, `anyOf` and `oneOf` members, each
 * read from the operation's bundle when it is a schema that contains itself (`#/__bundled__/…`).
 */
function declaredSchemas(schema: JsonObject, bundle?: JsonObject): Map<string, JsonObject> {
  const names = new Map<string, JsonObject>();
  for (const [name, field] of declaredProperties(schema, bundle)) names.set(name, resolve(field, bundle));
  return names;
}

function resolve(schema: unknown, bundle?: JsonObject): JsonObject {
  return bundledSchema(schema, bundle) ?? {};
}

function requiredProperties(schema: JsonObject): Set<string> {
  const names = new Set<string>(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const members = schema.allOf;
  if (Array.isArray(members)) {
    for (const m of members) if (isObject(m) && Array.isArray(m.required)) for (const n of m.required) names.add(n);
  }
  return names;
}
