// Checks state that comes from outside (fixtures, a state file, the admin API) against the contract, record by record.
import { compilePathParams, type PathParamReader } from '../http/path-params.js';
import { checkResponseBody } from '../prism/check-response.js';
import type { Collection, CollectionMap } from '../plan/infer-collections.js';
import { ownersOf } from '../plan/path-echo.js';
import { paramFits } from '../prism/schema-check.js';
import { bundleOf } from '../schema/operation-bundle.js';
import { isObject } from '../schema/schema-facts.js';
import { compileKey, requestSchemaOf } from '../plan/collection-plan.js';
import { withoutWriteOnly } from './sent-values.js';
import type { StoredRecord, StoreSnapshot } from './store.js';

/** One thing wrong inside a record: a JSON pointer into it (`/status`; `''` for the whole record) and the message. */
export interface StateIssue {
  pointer: string;
  message: string;
}

/**
 * Where a {@link StateError} points: the collection path as given, the record's index there, and what is wrong in it.
 */
export interface StatePlace {
  collection?: string;
  index?: number;
  issues?: StateIssue[];
}

/** Why outside state cannot be used, naming the record at fault (`place` says where, for JSON pointers). */
export class StateError extends Error {
  override name = 'StateError';
  readonly place: StatePlace;

  constructor(message: string, place: StatePlace = {}) {
    super(message);
    this.place = place;
  }
}

/** What a collection's path template is compiled into, once per collection (collections belong to one mock). */
interface CompiledPath {
  pattern: RegExp;
  params: PathParamReader;
  /** The path the collection's requests keep its records under, for its parameters (see compileKey). */
  key: (pathParams: Readonly<Record<string, string>>) => string;
}
const compiledPaths = new WeakMap<Collection, CompiledPath>();

function compiledPath(collection: Collection): CompiledPath {
  let compiled = compiledPaths.get(collection);
  if (!compiled) {
    const escaped = collection.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`^${escaped.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const params = compilePathParams(collection.path);
    compiledPaths.set(collection, (compiled = { pattern, params, key: compileKey(collection.path) }));
  }
  return compiled;
}

/** The collection a concrete path belongs to (`/members/m1/passes` → `/members/{member_id}/passes`). */
export function collectionOf(collections: CollectionMap, path: string): Collection | undefined {
  return collections.collections.find((c) => compiledPath(c).pattern.test(path));
}

/** The path parameters a concrete path of the collection gives, percent-decoded (`{ member_id: 'm1' }`). */
export function pathParamsOf(collection: Collection, path: string): Record<string, string> {
  return compiledPath(collection).params(path);
}

/** A record's id, by its collection's id field. */
export function recordId(collections: CollectionMap, path: string, record: Record<string, unknown>): string {
  const collection = collectionOf(collections, path);
  return String(record[collection?.idField ?? 'id']);
}

/**
 * The map of collection paths in what was given: what `GET /__mock/state` answers (`{ collections: { ... } }`)
 * is unwrapped, anything else is taken as the map itself.
 * @example unwrapSnapshot({ collections: { '/members/m1/passes': [] } }) // { '/members/m1/passes': [] }
 */
export function unwrapSnapshot(given: unknown): unknown {
  return isWrapped(given) ? given.collections : given;
}

/** Whether `given` is in the `GET /__mock/state` form, `{ collections: { ... } }`. */
export function isWrapped(given: unknown): given is { collections: Record<string, unknown> } {
  return isObject(given) && Object.keys(given).length === 1 && isObject(given.collections);
}

/**
 * Validates a snapshot: every key is a collection path of the contract, every record an object that fits
 * the record schema (as the create response documents it), has a unique id, and belongs to its path (a
 * field named like a path parameter, `member_id`, holds that parameter's value). What `GET /__mock/state`
 * answers (`{ collections: { ... } }`) is taken as well, so it can be fed back as fixtures. Returns it as kept:
 * each collection under the path its requests look it up by (`/boards/ann@b/notes` as `/boards/ann%40b/notes`;
 * one named twice, two ways, is refused), each record without the write-only fields a create would not keep.
 * `givenAs`: the collections checked before (by key, the path each was given as), for a state checked in parts.
 * @throws StateError naming the source, the collection, the record's index and id, and what is wrong.
 * @example checkSnapshot({ '/members/m1/passes': [] }, served.collections, 'data.json')
 */
export function checkSnapshot(
  given: unknown,
  collections: CollectionMap,
  source: string,
  givenAs = new Map<string, string>(),
): StoreSnapshot {
  const value = unwrapSnapshot(given);
  if (!isObject(value))
    throw new StateError(
      `${source}: expected an object of collection paths, such as { "/members/m1/passes": [ ... ] }.`,
    );
  const known = collections.collections.map((c) => c.path).join(', ') || 'none';
  // Kept under the path the contract's requests look them up by (`ann@example.com` written `ann%40example.com`).
  const snapshot: Record<string, StoredRecord[]> = {};
  for (const [path, records] of Object.entries(value)) {
    const collection = collectionOf(collections, path);
    if (!collection)
      throw new StateError(`${source}: "${path}" is not a collection of the contract; its collections are ${known}.`, {
        collection: path,
      });
    if (!Array.isArray(records))
      throw new StateError(`${source}: "${path}" must be an array of records.`, { collection: path });
    const wrongParam = wrongPathParam(collection, path);
    if (wrongParam) throw new StateError(`${source}: "${path}": ${wrongParam}`, { collection: path });
    const pathParams = pathParamsOf(collection, path);
    const key = compiledPath(collection).key(pathParams);
    const earlier = givenAs.get(key);
    if (earlier !== undefined) throw sameCollection(source, path, earlier);
    givenAs.set(key, path);
    const seen = new Set<string>();
    // The same owners for every record of the path: worked out once.
    const owners = ownersOf(collection, pathParams);
    snapshot[key] = records.map((record: unknown, index) => {
      const place = { where: `${source}: "${path}"[${index}]`, collection: path, index };
      return checkRecord(collection, path, record, place, seen, owners);
    });
  }
  checked.set(snapshot, collections);
  return snapshot;
}

/**
 * Why a state cannot name a collection twice, written two ways (`a@b` and `a%40b`): one would hide the other.
 * @example sameCollection('data.json', '/boards/a%40b/notes', '/boards/a@b/notes')
 */
function sameCollection(source: string, path: string, earlier: string): StateError {
  const message = `${source}: "${path}" names the same collection as "${earlier}": give its records once.`;
  return new StateError(message, { collection: path });
}

/**
 * Why a concrete collection path names parameters its contract refuses (`member_id` "not valid!" against its
 * pattern), or nothing: no request of the contract could ever reach records kept under it.
 * @example wrongPathParam(passes, '/members/not valid!/passes') // 'the path parameter member_id "not valid!" ...'
 */
export function wrongPathParam(collection: Collection, path: string): string | undefined {
  const { spec } = collection.create;
  const params = pathParamsOf(collection, path);
  for (const { name, schema } of spec.request?.path ?? []) {
    const text = params[name];
    if (text === undefined || !isObject(schema)) continue;
    if (!paramFits(text, schema, bundleOf(spec)))
      return `the path parameter ${name} "${text}" does not fit the contract, so no request could reach it.`;
  }
  return undefined;
}

/** Snapshots checkSnapshot passed, and the collections they were checked against. */
const checked = new WeakMap<object, CollectionMap>();

/**
 * Whether `snapshot` is one {@link checkSnapshot} passed against these collections (and so needs no second
 * look: startMock checks fixtures to name their file, then hands them to createApp).
 */
export function wasChecked(snapshot: unknown, collections: CollectionMap): snapshot is StoreSnapshot {
  return typeof snapshot === 'object' && snapshot !== null && checked.get(snapshot) === collections;
}

/** How a record is named in messages (`data.json: "/members/m1/passes"[0]`), and where it sits in a snapshot. */
export interface RecordPlace {
  where: string;
  collection?: string;
  index?: number;
}

/**
 * Validates one record of the collection at `path`: an object with an id (not one of the ids `seen` before it,
 * which it joins), belonging to its path (`owners`: the path's, when the caller knows them), fitting the record
 * schema.
 * @throws StateError with the message `${where} (id "x") does not fit the contract: /status: ...`.
 * @example checkRecord(collection, '/members/m1/passes', { id: 'pas_1' }, { where: 'the record' })
 */
export function checkRecord(
  collection: Collection,
  path: string,
  record: unknown,
  place: RecordPlace,
  seen?: Set<string>,
  owners = ownersOf(collection, pathParamsOf(collection, path)),
): StoredRecord {
  const { where } = place;
  if (!isObject(record)) throw refusal(place, '', `${where} is not an object.`);
  const id = record[collection.idField];
  const idPointer = `/${collection.idField}`;
  if (typeof id !== 'string' && typeof id !== 'number')
    throw refusal(place, idPointer, `${where} has no "${collection.idField}".`);
  if (seen?.has(String(id))) throw refusal(place, idPointer, `${where} repeats the id "${id}".`);
  seen?.add(String(id));
  const owner = wrongOwner(owners, record);
  if (owner) throw refusal(place, `/${owner.field}`, `${where} (id "${id}") ${owner.message}.`);
  const problems = checkResponseBody(collection.create.spec, record);
  if (problems.length) {
    const fits = `${where} (id "${id}") does not fit the contract:`;
    const issues = problems.map((problem) => ({ pointer: pointerOf(problem), message: `${fits} ${problem}.` }));
    throw new StateError(`${fits} ${problems.join('; ')}.`, {
      collection: place.collection,
      index: place.index,
      issues,
    });
  }
  // What a create would not keep is not kept from outside either: a `password`, an owner's `pin` (the record's
  // schema is as answered, without them: the create's request marks them).
  const { create } = collection;
  return withoutWriteOnly(record, requestSchemaOf(create), bundleOf(create.spec)) as StoredRecord;
}

/** The error of a record with one thing wrong, at `pointer` inside it. */
function refusal({ collection, index }: RecordPlace, pointer: string, message: string): StateError {
  return new StateError(message, { collection, index, issues: [{ pointer, message }] });
}

/**
 * The pointer a problem of `checkResponseBody` starts with (`/status: must be ...`), `''` for the record
 * itself; an unknown field is pointed at (`/: must NOT have additional properties; found 'colour'` → `/colour`).
 */
function pointerOf(problem: string): string {
  const pointer = /^(\/(?:[^:]|:(?! ))*): /.exec(problem)?.[1] ?? '/';
  const extra = /must NOT have additional properties; found '(.+)'$/.exec(problem)?.[1];
  const escaped = extra?.replace(/~/g, '~0').replace(/\//g, '~1');
  if (pointer === '/') return escaped === undefined ? '' : `/${escaped}`;
  return escaped === undefined ? pointer : `${pointer}/${escaped}`;
}

/**
 * How a record names another owner than its path does (`member_id` "m2" under `/members/m1/...`), or nothing.
 * Only the references the path fills are compared (see echoPathParams): never the record's own id.
 */
function wrongOwner(
  owners: Record<string, string>,
  record: Record<string, unknown>,
): { field: string; message: string } | undefined {
  for (const [field, value] of Object.entries(owners)) {
    if (!Object.hasOwn(record, field) || String(record[field]) === value) continue;
    return { field, message: `has ${field} "${String(record[field])}", but its collection path says "${value}"` };
  }
  return undefined;
}
