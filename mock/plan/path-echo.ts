// Where a request's path parameters go in a body: the id of the record an item path names, and the references
// to the parents the path goes through; top-level fields only, and only values that fit the field's schema.
import type { Operation } from '../contract/contract.js';
import { singular, snakeCase } from '../generate/name-hints.js';
import { inRootDraft, mergedSchema, valueFits } from '../prism/schema-check.js';
import { isObject, propertiesOf, type JsonObject } from '../schema/schema-facts.js';
import { BoundedTrieMemo } from '../lib/bounded-memo.js';
import { bundleOf } from '../schema/operation-bundle.js';
import type { Collection } from './infer-collections.js';

/** What a path parameter is written as in a field: its text, or the number or boolean the text spells. */
export type EchoValue = string | number | boolean;

/** One path parameter that goes into one top-level field of a record, with that field's schema. */
export interface PathEcho {
  readonly param: string;
  readonly field: string;
  readonly schema: JsonObject;
  /**
   * For a field that takes numbers or booleans and no strings: the value the parameter's text spells (`'7'` is
   * 7), tried before the text itself; chosen once, with the echo. See {@link readerOf}.
   */
  readonly read?: (text: string) => number | boolean | undefined;
}

/**
 * The echoes of a generated success body: into the body itself, and (a list: a GET of a path that does not end
 * in a parameter) into the records it lists, the body's items or those of its top-level arrays (`data`).
 */
export interface BodyEcho {
  readonly top: readonly PathEcho[];
  readonly lists: readonly { readonly where?: string; readonly echoes: readonly PathEcho[] }[];
  readonly bundle?: unknown;
}

/** A path parameter: its name, the literal segment before it (its parent's noun), whether it ends the path. */
interface PathParam {
  name: string;
  noun?: string;
  last: boolean;
}

/**
 * Where each parameter of `template` goes in a record of `schema`. A parameter that is the path's last segment
 * names the record itself when `namesRecord` (`/identities/{id}` gives `id`). Every other one names a parent:
 * it goes into the field of its name unless that is the record's own id (`member_id`), else into the reference
 * named after the segment before it (`identity_id` or `identityId` under `/identities/{id}`), if declared.
 * Each field's schema is checked in the draft `root` names (the body's schema, when `schema` is a part of it).
 * @example recordEchoes('/identities/{id}/sessions', session, 'id', false) // [{ param: 'id', field: 'identity_id' }]
 */
export function recordEchoes(
  template: string,
  schema: unknown,
  idField: string,
  namesRecord: boolean,
  root: object = isObject(schema) ? schema : {},
): PathEcho[] {
  const properties = propertiesOf(schema);
  const declared = (field: string) => Object.hasOwn(properties, field) && isObject(properties[field]);
  const echoes: PathEcho[] = [];
  for (const { name, noun, last } of paramsOf(template)) {
    const candidates = last
      ? namesRecord
        ? [name]
        : []
      : [...(name === idField ? [] : [name]), ...(noun === undefined ? [] : references(noun))];
    const field = candidates.find(declared);
    if (field === undefined || echoes.some((e) => e.field === field)) continue;
    const schema = inRootDraft(properties[field]!, root);
    const read = readerOf(schema);
    echoes.push(read ? { param: name, field, schema, read } : { param: name, field, schema });
  }
  return echoes;
}

const collectionEchoes = new WeakMap<Collection, readonly PathEcho[]>();

/**
 * Where the parameters of a collection's path go in its records: the references to its parents (`member_id`
 * under `/members/{member_id}/passes`), never its records' own id. Worked out once per collection.
 */
export function parentEchoes(collection: Collection): readonly PathEcho[] {
  let known = collectionEchoes.get(collection);
  if (!known) {
    known = recordEchoes(collection.path, collection.schema, collection.idField, false);
    collectionEchoes.set(collection, known);
  }
  return known;
}

/**
 * The references to its parents a record of the collection at a concrete path takes, each with the path's text
 * for it (what a record's reference is checked against): those of {@link parentEchoes} whose value fits. An
 * integer reference is there when its number fits (`customer_id: '7'` for 7); {@link ownerValues} gives what a
 * record is written with.
 * @example ownersOf(passes, { member_id: 'm1' }) // { member_id: 'm1' }
 */
export function ownersOf(collection: Collection, pathParams: Readonly<Record<string, string>>): Record<string, string> {
  const echoes = parentEchoes(collection);
  if (echoes.length === 0) return NO_OWNERS;
  // Remembered per collection and values (a check of each value against its schema is the cost): a create, or
  // a file of fixtures, asks again and again for the same member's.
  let memo = ownersMemos.get(collection);
  if (!memo) ownersMemos.set(collection, (memo = new BoundedTrieMemo(OWNERS_MEMO, 1024)));
  // By the values in turn: a key written out as JSON was a hundredth of a create.
  const key = echoes.map(({ param }) => pathParams[param]);
  return memo.get(key) ?? memo.set(key, ownersFrom(echoedFields(echoes, pathParams, bundleOf(collection.create.spec))));
}

/**
 * The values a record's references to its parents are written with, for owners {@link ownersOf} gave: a number
 * where the field takes one (`{ customer_id: 7 }`), else the text. Owners made elsewhere are their own values.
 * @example ownerValues(ownersOf(orders, { customerId: '7' })) // { customer_id: 7 }
 */
export function ownerValues(owners: Readonly<Record<string, string>>): Readonly<Record<string, EchoValue>> {
  return ownerValueMaps.get(owners) ?? owners;
}

/** The values behind owners that are not all text, by the (frozen, remembered) owners {@link ownersOf} gave. */
const ownerValueMaps = new WeakMap<object, Readonly<Record<string, EchoValue>>>();

/** Owners as {@link ownersOf} keeps them: each value's text, and the values themselves when some is not text. */
function ownersFrom(values: Record<string, EchoValue>): Record<string, string> {
  const texts: Record<string, string> = {};
  let typed = false;
  for (const [field, value] of Object.entries(values)) {
    // A number or boolean was read from exactly this text (see readerOf): it writes back as it.
    texts[field] = String(value);
    typed ||= typeof value !== 'string';
  }
  Object.freeze(texts);
  if (typed) ownerValueMaps.set(texts, Object.freeze(values));
  return texts;
}

const NO_OWNERS: Record<string, string> = Object.freeze({});
/** Owners remembered per collection: a member's for each of this many members. */
const OWNERS_MEMO = 4096;
const ownersMemos = new WeakMap<Collection, BoundedTrieMemo<Readonly<Record<string, string>>>>();

/**
 * The echoes of a generated success body of an operation (see {@link BodyEcho}); `undefined` when no parameter
 * goes anywhere in it.
 * @example planBodyEcho(getIdentity, schema)?.top // [{ param: 'id', field: 'id', schema: { format: 'uuid', … } }]
 */
export function planBodyEcho(operation: Operation, schema: unknown): BodyEcho | undefined {
  if (!isObject(schema) || !operation.path.includes('{')) return undefined;
  const body = mergedSchema(schema);
  const item = ITEM_PATH.test(operation.path);
  // A record's fields are checked in the draft the body's schema names.
  const echoesOf = (record: unknown) => recordEchoes(operation.path, record, 'id', item, body);
  const top = echoesOf(body);
  const lists: { where?: string; echoes: PathEcho[] }[] = [];
  if (!item && operation.method === 'get') {
    const items = (array: unknown) =>
      isObject(array) && isObject(array.items) ? mergedSchema(array.items) : undefined;
    if (body.type === 'array') lists.push({ echoes: echoesOf(items(body)) });
    for (const [where, property] of Object.entries(propertiesOf(body))) {
      const records = property.type === 'array' ? items(property) : undefined;
      if (records) lists.push({ where, echoes: echoesOf(records) });
    }
  }
  const found = lists.filter((list) => list.echoes.length > 0);
  if (top.length === 0 && found.length === 0) return undefined;
  return { top, lists: found, bundle: bundleOf(operation.spec) };
}

/**
 * Writes the path's parameters into a generated body where {@link planBodyEcho} found them a place, each only
 * when its value fits the field's schema. Changes `body` in place.
 */
export function echoBody(body: unknown, echo: BodyEcho, pathParams: Readonly<Record<string, string>>): void {
  if (isObject(body) && echo.top.length > 0) Object.assign(body, echoedFields(echo.top, pathParams, echo.bundle));
  for (const { where, echoes } of echo.lists) {
    const records = where === undefined ? body : isObject(body) ? body[where] : undefined;
    if (!Array.isArray(records) || records.length === 0) continue;
    // The same values for every record listed: checked against their schemas once.
    const fields = echoedFields(echoes, pathParams, echo.bundle);
    for (const record of records) if (isObject(record)) Object.assign(record, fields);
  }
}

/**
 * The fields of a record the path's parameters fill, with their values: those of `echoes` whose value fits. A
 * field that takes numbers (or booleans) and no strings gets the number its text spells, when that fits;
 * otherwise the text, when it fits (a schema the checks cannot read takes anything).
 * @example echoedFields(parentEchoes(passes), { member_id: 'm1' }) // { member_id: 'm1' }
 * @example echoedFields(parentEchoes(orders), { customerId: '7' }) // { customer_id: 7 }
 */
export function echoedFields(
  echoes: readonly PathEcho[],
  pathParams: Readonly<Record<string, string>>,
  bundle?: unknown,
): Record<string, EchoValue> {
  const fields: Record<string, EchoValue> = {};
  for (const { param, field, schema, read } of echoes) {
    const text = pathParams[param];
    if (text === undefined) continue;
    const value = read?.(text);
    if (value !== undefined && valueFits(value, schema, bundle)) fields[field] = value;
    else if (valueFits(text, schema, bundle)) fields[field] = text;
  }
  return fields;
}

/**
 * A path parameter's text as a value of its schema: the number or boolean it spells where the schema takes
 * one and no strings (see readerOf), else the text itself.
 * @example paramValue('7', { type: 'integer' }) // 7
 */
export function paramValue(text: string, schema: JsonObject): EchoValue {
  return readerOf(schema)?.(text) ?? text;
}

/**
 * How a path parameter's text is read for a field, by the types its schema names: a field that takes an
 * integer or a number reads a number, one that takes a boolean reads `true`/`false`; one that takes strings
 * (or names no type) reads nothing but the text, as before.
 */
function readerOf(schema: JsonObject): PathEcho['read'] {
  const { type } = mergedSchema(schema);
  const types: unknown[] = Array.isArray(type) ? type : [type];
  if (types.includes('string')) return undefined;
  const numbers = types.includes('integer') || types.includes('number');
  const booleans = types.includes('boolean');
  if (numbers && booleans) return (text) => numberOf(text) ?? booleanOf(text);
  return numbers ? numberOf : booleans ? booleanOf : undefined;
}

/**
 * The number a text spells as a JSON number literal in its one canonical form, the text JSON would write for
 * it (`'7'`, `'-3'`, `'1.5'`); `undefined` for any other text (`'07'`, `'+7'`, `' 7'`, `''`, `'7.0'`, `'1e3'`,
 * `'-0'`), and for an integer past 2^53 that a JSON reader would not give back as written.
 */
function numberOf(text: string): number | undefined {
  const value = Number(text);
  return Number.isFinite(value) && String(value) === text ? value : undefined;
}

function booleanOf(text: string): boolean | undefined {
  return text === 'true' ? true : text === 'false' ? false : undefined;
}

/** A path whose last segment is a parameter (`/things/{id}`): an item. */
const ITEM_PATH = /\/\{[^}/]+\}$/;

function paramsOf(template: string): PathParam[] {
  const segments = template.split('/');
  const params: PathParam[] = [];
  segments.forEach((segment, index) => {
    const before = segments[index - 1];
    const noun = before !== undefined && before !== '' && !before.includes('{') ? before : undefined;
    for (const [, name] of segment.matchAll(/\{([^}]+)\}/g)) {
      const last = index === segments.length - 1 && /^\{[^}]+\}$/.test(segment);
      params.push({ name: name!, ...(noun === undefined ? {} : { noun }), last });
    }
  });
  return params;
}

/** The names a reference to a thing of a path segment takes: `identity_id`, `identityId` for `identities`. */
function references(noun: string): string[] {
  const snake = singular(snakeCase(noun));
  const camel = snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return [`${snake}_id`, `${camel}Id`];
}
