// Completes records given with fields missing (fixtures, setState, the admin API) the way a create makes a record.
import type { BodyGenerator } from '../generate/generate-body.js';
import { planCollection, type CreatePlan } from '../plan/collection-plan.js';
import type { Collection, CollectionMap } from '../plan/infer-collections.js';
import { isObject } from '../schema/schema-facts.js';
import { collectionOf, pathParamsOf, unwrapSnapshot } from './check-snapshot.js';
import { makeCreated } from './make-record.js';
import { ownersOf } from '../plan/path-echo.js';

/**
 * What completing records needs: the contract's collections, the mock's generator, and each collection's create plan.
 */
export interface RecordMaker {
  readonly collections: CollectionMap;
  readonly generator: BodyGenerator;
  createPlan(collection: Collection): CreatePlan;
}

/**
 * A maker for the collections of a contract, with the generator of a mock (the same seed makes the same records).
 * @example completeSnapshot(recordMaker(inferCollections(contract.operations), createBodyGenerator(7)), fixtures)
 */
export function recordMaker(collections: CollectionMap, generator: BodyGenerator): RecordMaker {
  const plans = new Map<Collection, CreatePlan>();
  return {
    collections,
    generator,
    createPlan(collection) {
      let plan = plans.get(collection);
      if (!plan) plans.set(collection, (plan = planCollection(collection.create, collections)?.create ?? OPEN_PLAN));
      return plan;
    },
  };
}

/** A plan for a collection whose create has no plan of its own: no request defaults, everything open. */
const OPEN_PLAN: CreatePlan = { openPart: () => ({}), idRefusal: () => undefined };

/**
 * A record with what it lacks made as a create makes it: the request schema's defaults, `null` where nullable,
 * the first enum value, the generator's anchor for date-times (the start of the day the mock reads as of), the id
 * and the rest drawn from the seed under `key`; the path's parameters fill the references to its parents
 * (`member_id`, see echoPathParams). What was given is kept as given, even what the contract refuses (the check
 * that follows names it). A record that lacks nothing (its id, its required fields, its path's fields), or is not
 * an object, is returned as it is.
 * @example completeRecord(maker, passes, '/members/m1/passes', { status: 'suspended' }, 'state|/members/m1/passes|0')
 * // { id: 'pas_01J…', member_id: 'm1', name: 'Membership pass', status: 'suspended', valid_from: '2025-…', … }
 */
export function completeRecord(
  maker: RecordMaker,
  collection: Collection,
  collectionKey: string,
  given: unknown,
  key: string,
  pathParams = pathParamsOf(collection, collectionKey),
  owners = ownersOf(collection, pathParams),
): unknown {
  if (!isObject(given)) return given;
  if (hasAll(given, collection.idField, requiredOf(collection), owners)) return given;
  const { generator } = maker;
  const made = makeCreated(generator, collection, maker.createPlan(collection), {
    key,
    pathParams,
    sent: given,
    now: generator.anchor,
    owners,
  });
  // In the record's order; what was given wins (an id, another owner), and what the record has not is kept to be
  // refused.
  const record: Record<string, unknown> = {};
  for (const name of Object.keys(made)) define(record, name, Object.hasOwn(given, name) ? given[name] : made[name]);
  for (const name of Object.keys(given)) if (!Object.hasOwn(made, name)) define(record, name, given[name]);
  return record;
}

function hasAll(
  given: object,
  idField: string,
  required: readonly string[],
  owners: Readonly<Record<string, string>>,
): boolean {
  if (!Object.hasOwn(given, idField)) return false;
  for (const name of required) if (!Object.hasOwn(given, name)) return false;
  for (const name in owners) if (!Object.hasOwn(given, name)) return false;
  return true;
}

/** Sets a field as JSON.parse and Object.fromEntries do: `__proto__` too is a field, not the prototype. */
function define(record: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
  else record[name] = value;
}

/**
 * The map of a snapshot (`{ collections: … }` unwrapped) with every record of a known collection completed
 * ({@link completeRecord}, the key naming its path and index, so the same snapshot makes the same records);
 * anything malformed is left for checkSnapshot to name.
 * @example checkSnapshot(completeSnapshot(maker, given), maker.collections, 'data.json')
 */
export function completeSnapshot(maker: RecordMaker, given: unknown): unknown {
  const map = unwrapSnapshot(given);
  if (!isObject(map)) return map;
  return Object.fromEntries(
    Object.entries(map).map(([path, records]) => {
      const collection = collectionOf(maker.collections, path);
      if (!collection || !Array.isArray(records)) return [path, records];
      // The same path parameters and owners for every record of the path: worked out once.
      const pathParams = pathParamsOf(collection, path);
      const owners = ownersOf(collection, pathParams);
      const complete = (record: unknown, index: number) =>
        completeRecord(maker, collection, path, record, `state|${path}|${index}`, pathParams, owners);
      return [path, records.map(complete)];
    }),
  );
}

/** The record schema's required fields, by collection (read for every record completed). */
const requiredFields = new WeakMap<Collection, readonly string[]>();

function requiredOf(collection: Collection): readonly string[] {
  let fields = requiredFields.get(collection);
  if (!fields) {
    const { required } = collection.schema;
    fields = Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
    requiredFields.set(collection, fields);
  }
  return fields;
}
