// Where a request's path parameters go in a body: the id of the record an item path names, and the references
// to the parents the path goes through; top-level fields only, and only values that fit the field's schema.
import type { Operation } from '../contract/contract.js';
import { singular, snakeCase } from '../generate/name-hints.js';
import { inRootDraft, mergedSchema, valueFits } from '../prism/schema-check.js';
import { isObject, propertiesOf, type JsonObject } from '../schema/schema-facts.js';
import { BoundedTrieMemo } from '../lib/bounded-memo.js';
import { bundleOf } from '../schema/operation-bundle.js';
import type { Collection } from './infer-collections.js';

/** One path parameter that goes into one top-level field of a record, with that field's schema. */
export interface PathEcho {
  readonly param: string;
  readonly field: string;
  readonly schema: JsonObject;
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
    if (field !== undefined && !echoes.some((e) => e.field === field))
      echoes.push({ param: name, field, schema: inRootDraft(properties[field]!, root) });
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
 * The references to its parents a record of the collection at a concrete path takes, with their values: those of
 * {@link parentEchoes} whose value fits.
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
  return (
    memo.get(key) ?? memo.set(key, Object.freeze(echoedFields(echoes, pathParams, bundleOf(collection.create.spec))))
  );
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
 * The fields of a record the path's parameters fill, with their values: those of `echoes` whose value fits.
 * @example echoedFields(parentEchoes(passes), { member_id: 'm1' }) // { member_id: 'm1' }
 */
export function echoedFields(
  echoes: readonly PathEcho[],
  pathParams: Readonly<Record<string, string>>,
  bundle?: unknown,
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const { param, field, schema } of echoes) {
    const value = pathParams[param];
    if (value !== undefined && valueFits(value, schema, bundle)) fields[field] = value;
  }
  return fields;
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
