// Checks state that comes from outside (fixtures, a state file) against the contract, record by record.
import { checkResponseBody } from '../prism/check-response.js';
import type { Collection, CollectionMap } from '../plan/infer-collections.js';
import { isObject } from '../spec/schema-facts.js';
import type { StoreSnapshot } from './store.js';

/** Why outside state cannot be used, naming the record at fault. */
export class StateError extends Error {
  override name = 'StateError';
}

/** The collection a concrete path belongs to (`/members/m1/passes` → `/members/{member_id}/passes`). */
export function collectionOf(collections: CollectionMap, path: string): Collection | undefined {
  return collections.collections.find((c) => templatePattern(c.path).test(path));
}

/** A record's id, by its collection's id field. */
export function recordId(collections: CollectionMap, path: string, record: Record<string, unknown>): string {
  const collection = collectionOf(collections, path);
  return String(record[collection?.idField ?? 'id']);
}

/**
 * Validates a snapshot: every key is a collection path of the contract, every record an object that fits
 * the record schema (as the create response documents it), has a unique id, and belongs to its path (a
 * field named like a path parameter, `member_id`, holds that parameter's value). What `GET /__mock/state`
 * answers (`{ collections: { ... } }`) is taken as well, so it can be fed back as fixtures.
 * @throws StateError naming the source, the collection, the record's index and id, and what is wrong.
 */
export function checkSnapshot(given: unknown, collections: CollectionMap, source: string): StoreSnapshot {
  const value =
    isObject(given) && Object.keys(given).length === 1 && isObject(given.collections) ? given.collections : given;
  if (!isObject(value))
    throw new StateError(
      `${source}: expected an object of collection paths, such as { "/members/m1/passes": [ ... ] }.`,
    );
  const known = collections.collections.map((c) => c.path).join(', ') || 'none';
  for (const [path, records] of Object.entries(value)) {
    const collection = collectionOf(collections, path);
    if (!collection)
      throw new StateError(`${source}: "${path}" is not a collection of the contract; its collections are ${known}.`);
    if (!Array.isArray(records)) throw new StateError(`${source}: "${path}" must be an array of records.`);
    const seen = new Set<string>();
    records.forEach((record: unknown, index) => {
      const where = `${source}: "${path}"[${index}]`;
      if (!isObject(record)) throw new StateError(`${where} is not an object.`);
      const id = record[collection.idField];
      if (typeof id !== 'string' && typeof id !== 'number')
        throw new StateError(`${where} has no "${collection.idField}".`);
      if (seen.has(String(id))) throw new StateError(`${where} repeats the id "${id}".`);
      seen.add(String(id));
      const owner = wrongOwner(collection.path, path, record);
      if (owner) throw new StateError(`${where} (id "${id}") ${owner}.`);
      const problems = checkResponseBody(collection.create.spec, record);
      if (problems.length)
        throw new StateError(`${where} (id "${id}") does not fit the contract: ${problems.join('; ')}.`);
    });
  }
  return value as StoreSnapshot;
}

/** How a record names another owner than its path does (`member_id` "m2" under `/members/m1/...`), or nothing. */
function wrongOwner(template: string, path: string, record: Record<string, unknown>): string | undefined {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const values = templatePattern(template, true).exec(path)?.slice(1) ?? [];
  for (const [i, name] of names.entries()) {
    if (!(name in record)) continue;
    const given = String(record[name]);
    const raw = values[i]!;
    if (given !== raw && given !== decoded(raw))
      return `has ${name} "${given}", but its collection path says "${decoded(raw)}"`;
  }
  return undefined;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function templatePattern(template: string, capture = false): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\{[^}]+\}/g, capture ? '([^/]+)' : '[^/]+')}$`);
}
