// Finds the contract's collections from its shape: a path whose POST creates and GET lists, and an item
// path one parameter below it whose GET reads and DELETE removes. Nothing here knows about passes.
import type { Operation } from '../contract/load-contract.js';
import { isObject, type JsonObject } from '../spec/schema-facts.js';
import { compileResponses } from '../spec/response-table.js';

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
  /** The record's JSON Schema, from the create response. */
  schema: JsonObject;
  create: Operation;
  list: Operation;
  read?: Operation;
  remove?: Operation;
}

/** What an operation does to a collection's state. */
export type CollectionRole = 'create' | 'list' | 'read' | 'remove';

/** Every collection of the contract, and for each operation its role. */
export interface CollectionMap {
  collections: Collection[];
  roles: Map<Operation, { collection: Collection; role: CollectionRole }>;
}

/**
 * Infers the collections. A path counts when its POST answers a 2xx JSON object (the record) and its GET
 * answers a 2xx JSON array or an object holding one array of records.
 * @example inferCollections(contract.operations).collections.map((c) => c.path)
 */
export function inferCollections(operations: Operation[]): CollectionMap {
  const byKey = new Map(operations.map((op) => [`${op.method} ${op.path}`, op]));
  const collections: Collection[] = [];
  const roles: CollectionMap['roles'] = new Map();
  for (const create of operations) {
    if (create.method !== 'post') continue;
    const list = byKey.get(`get ${create.path}`);
    const schema = recordSchema(create);
    if (!list || !schema || !listArray(list, schema)) continue;
    const item = operations.find((op) => isItemPath(create.path, op.path));
    const itemPath = item?.path;
    const read = itemPath ? byKey.get(`get ${itemPath}`) : undefined;
    const remove = itemPath ? byKey.get(`delete ${itemPath}`) : undefined;
    const idParam = itemPath ? /\{([^}]+)\}$/.exec(itemPath)?.[1] : undefined;
    const scope = [...create.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const idField = idFieldOf(schema, idParam, scope);
    const collection: Collection = {
      path: create.path,
      itemPath,
      idParam,
      idField,
      schema,
      create,
      list,
      read,
      remove,
    };
    collections.push(collection);
    roles.set(create, { collection, role: 'create' });
    roles.set(list, { collection, role: 'list' });
    if (read) roles.set(read, { collection, role: 'read' });
    if (remove) roles.set(remove, { collection, role: 'remove' });
  }
  return { collections, roles };
}

/** The JSON schema of an operation's success response (see the response table), when that is a 2xx with JSON. */
export function successSchema(operation: Operation): JsonObject | undefined {
  const { success } = compileResponses(operation.spec.responses);
  if (!success || !/^2/.test(success.code)) return undefined;
  const content = success.contents?.find((c) => /[/+]json\b/i.test(c.mediaType));
  return isObject(content?.schema) ? content.schema : undefined;
}

/**
 * Where the records sit in a list response: `[]` when the body is the array, or the name of the one
 * array property holding them (`data`). `undefined` when the list does not hold such records.
 */
export function listArray(list: Operation, record: JsonObject): string[] | undefined {
  const schema = successSchema(list);
  if (!schema) return undefined;
  if (schema.type === 'array' && isObject(schema.items)) return [];
  const properties = isObject(schema.properties) ? schema.properties : {};
  const arrays = Object.entries(properties).filter(([, p]) => isObject(p) && p.type === 'array' && isObject(p.items));
  const same = arrays.find(([, p]) => sameShape((p as JsonObject).items as JsonObject, record));
  const chosen = same ?? (arrays.length === 1 ? arrays[0] : undefined);
  return chosen ? [chosen[0]] : undefined;
}

function recordSchema(create: Operation): JsonObject | undefined {
  const schema = successSchema(create);
  return schema && (schema.type === 'object' || isObject(schema.properties)) ? schema : undefined;
}

function isItemPath(collectionPath: string, path: string): boolean {
  return path.startsWith(`${collectionPath}/`) && /^\{[^}/]+\}$/.test(path.slice(collectionPath.length + 1));
}

/** `id`, else the property named like the item's path parameter, else the first id-like one that is not a scope. */
function idFieldOf(schema: JsonObject, idParam: string | undefined, scope: string[]): string {
  const properties = isObject(schema.properties) ? Object.keys(schema.properties) : [];
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
