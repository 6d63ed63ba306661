// Finds the contract's collections from its shape: a path whose POST creates and GET lists, and an item
// path one parameter below it whose GET reads, PUT and PATCH update and DELETE removes. Nothing here knows
// about passes.
import type { Operation } from '../contract/contract.js';
import { answeredSchema, mergedSchema } from '../prism/schema-check.js';
import { isObject, type JsonObject } from '../schema/schema-facts.js';
import { compileResponses } from '../schema/response-table.js';
import { recordFits } from '../schema/record-fit.js';
import { branchesOf, kindsOf, recordProperties } from './record-kinds.js';

/** A collection of records the mock can keep state for. */
export interface Collection {
  /** The collection's path template, e.g. `/members/{member_id}/passes`. */
  path: string;
  /** The item path template, e.g. `/members/{member_id}/passes/{pass_id}`. */
  itemPath?: string;
  /** The last parameter of the item path: the record's id in the URL. */
  idParam?: string;
  /** The record property that holds the id (`id` unless the schema says otherwise). */
  idField: string;
  /** The record's JSON Schema, from the create response (its `allOf` merged, its id field required). */
  schema: JsonObject;
  create: Operation;
  list: Operation;
  read?: Operation;
  /** The item's PUT and PATCH, when they take a JSON body and answer the record or nothing. */
  update: Operation[];
  remove?: Operation;
}

/** What an operation does to a collection's state. */
export type CollectionRole = 'create' | 'list' | 'read' | 'update' | 'remove';

/** Every collection of the contract, and for each operation its role. */
export interface CollectionMap {
  collections: Collection[];
  roles: Map<Operation, { collection: Collection; role: CollectionRole }>;
}

/**
 * Infers the collections. A path counts when its POST answers a 2xx JSON object (the record) and its GET
 * answers a 2xx JSON array of such records or an object holding one (see {@link listArray}). A path that ends
 * in a parameter is an item, never a collection: its POST updates the item (`POST /v1/customers/{id}`). The
 * item's GET reads from state only when it answers records of the same schema.
 * @example inferCollections(contract.operations).collections.map((c) => c.path)
 */
export function inferCollections(operations: Operation[]): CollectionMap {
  // Inferred once per contract: the mock, startMock's fixtures and verify read the same map.
  const known = inferred.get(operations);
  if (known) return known;
  const made = infer(operations);
  inferred.set(operations, made);
  return made;
}

const inferred = new WeakMap<readonly Operation[], CollectionMap>();

function infer(operations: Operation[]): CollectionMap {
  const byKey = new Map(operations.map((op) => [`${op.method} ${op.path}`, op]));
  const collections: Collection[] = [];
  const roles: CollectionMap['roles'] = new Map();
  for (const create of operations) {
    if (create.method !== 'post' || ITEM_PATH.test(create.path)) continue;
    const list = byKey.get(`get ${create.path}`);
    const schema = recordSchema(create);
    if (!list || !schema || !listArray(list, schema)) continue;
    const item = operations.find((op) => isItemPath(create.path, op.path));
    const itemPath = item?.path;
    const readable = itemPath ? byKey.get(`get ${itemPath}`) : undefined;
    const read = readable && answersRecords(readable, schema) ? readable : undefined;
    const remove = itemPath ? byKey.get(`delete ${itemPath}`) : undefined;
    const update = ['put', 'patch']
      .map((method) => (itemPath ? byKey.get(`${method} ${itemPath}`) : undefined))
      .filter((op): op is Operation => op !== undefined && updatesRecords(op, schema));
    const idParam = itemPath ? /\{([^}]+)\}$/.exec(itemPath)?.[1] : undefined;
    const scope = [...create.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const idField = idFieldOf(schema, idParam, scope);
    const collection: Collection = {
      path: create.path,
      itemPath,
      idParam,
      idField,
      schema: withIdRequired(schema, idField),
      create,
      list,
      read,
      update,
      remove,
    };
    collections.push(collection);
    roles.set(create, { collection, role: 'create' });
    roles.set(list, { collection, role: 'list' });
    if (read) roles.set(read, { collection, role: 'read' });
    for (const op of update) roles.set(op, { collection, role: 'update' });
    if (remove) roles.set(remove, { collection, role: 'remove' });
  }
  return { collections, roles };
}

/** A path whose last segment is a parameter (`/things/{id}`). */
const ITEM_PATH = /\/\{[^}/]+\}$/;

/**
 * The JSON schema of an operation's success response (see the response table), when that is a 2xx with JSON,
 * its `allOf` merged.
 */
export function successSchema(operation: Operation): JsonObject | undefined {
  const { success } = compileResponses(operation.spec.responses);
  if (!success || !/^2/.test(success.code)) return undefined;
  const content = success.contents?.find((c) => /[/+]json\b/i.test(c.mediaType));
  // As answers show it: without write-only fields (records never keep one, placeholders never draw one).
  return isObject(content?.schema) ? answeredSchema(mergedSchema(content.schema)) : undefined;
}

/**
 * Where the records sit in a list response: `[]` when the body is the array, or the name of the
 * array property holding them (`data`). `undefined` when the list does not hold records that fit the
 * record schema (another item schema, an array of strings): state would answer what the contract does not.
 */
export function listArray(list: Operation, record: JsonObject): string[] | undefined {
  const schema = successSchema(list);
  if (!schema) return undefined;
  const holds = (items: unknown) => isObject(items) && recordFits(mergedSchema(items), record);
  if (schema.type === 'array') return holds(schema.items) ? [] : undefined;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const arrays = Object.entries(properties).filter(([, p]) => isObject(p) && p.type === 'array' && holds(p.items));
  const same = arrays.find(([, p]) => sameShape(mergedSchema((p as JsonObject).items as JsonObject), record));
  const chosen = same ?? (arrays.length === 1 ? arrays[0] : undefined);
  return chosen ? [chosen[0]] : undefined;
}

function answersRecords(read: Operation, record: JsonObject): boolean {
  const schema = successSchema(read);
  return schema !== undefined && recordFits(schema, record);
}

/**
 * Whether an item's PUT or PATCH changes the record: it takes a JSON body, and its success answers the record
 * (a schema records fit) or nothing (`204`). One that answers something else (a job, `202`) is left to the
 * contract: the mock could not say what it changed.
 */
function updatesRecords(operation: Operation, record: JsonObject): boolean {
  const takesJson = operation.spec.request?.body?.contents?.some((c) => JSON_TYPE.test(c.mediaType)) ?? false;
  const { success } = compileResponses(operation.spec.responses);
  if (!takesJson || !success || !/^2/.test(success.code)) return false;
  if (!success.contents?.length) return true;
  return success.contents.some((c) => JSON_TYPE.test(c.mediaType)) && answersRecords(operation, record);
}

const JSON_TYPE = /[/+]json\b/i;

function recordSchema(create: Operation): JsonObject | undefined {
  const schema = successSchema(create);
  if (!schema) return undefined;
  const branches = branchesOf(schema);
  // A record of kinds counts when every kind is an object.
  const ofKinds = branches.length > 0 && branches.every(isObject) && kindsOf(schema).every(isObjectSchema);
  return isObjectSchema(schema) || ofKinds ? schema : undefined;
}

function isObjectSchema(schema: unknown): boolean {
  return isObject(schema) && (schema.type === 'object' || isObject(schema.properties));
}

/**
 * The record schema with its id field required, when the schema declares it optional: every record the mock
 * makes has an id to be found by (a narrower schema, so its records still fit the contract's).
 */
function withIdRequired(schema: JsonObject, idField: string): JsonObject {
  const required = Array.isArray(schema.required) ? schema.required : [];
  // A record of kinds declares its id in them: required beside its `oneOf`, every kind must have it.
  if (!(idField in recordProperties(schema)) || required.includes(idField)) return schema;
  return { ...schema, required: [...required, idField] };
}

function isItemPath(collectionPath: string, path: string): boolean {
  return path.startsWith(`${collectionPath}/`) && /^\{[^}/]+\}$/.test(path.slice(collectionPath.length + 1));
}

/** `id`, else the property named like the item's path parameter, else the first id-like one that is not a scope. */
function idFieldOf(schema: JsonObject, idParam: string | undefined, scope: string[]): string {
  const properties = Object.keys(recordProperties(schema));
  if (properties.includes('id')) return 'id';
  if (idParam && properties.includes(idParam)) return idParam;
  return properties.find((p) => /^(uuid|key)$|_id$|Id$/.test(p) && !scope.includes(p)) ?? 'id';
}

function sameShape(a: JsonObject, b: JsonObject): boolean {
  const keys = (s: JsonObject) =>
    Object.keys(isObject(s.properties) ? s.properties : {})
      .sort()
      .join(',');
  return keys(a) === keys(b);
}
