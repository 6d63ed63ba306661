// Records a real backend answered with, kept as the mock's state (the proxy's `recordState`): a later run
// without the backend serves what it created, listed, read, and no longer what it deleted.
import type { CollectionPlan } from '../plan/collection-plan.js';
import { isObject } from '../schema/schema-facts.js';
import { valueFits } from '../prism/schema-check.js';
import type { Store, StoredRecord } from './store.js';
import { bundleOf } from '../schema/operation-bundle.js';

/** What became of an upstream answer's records: how many were kept, and how many the store refused. */
export interface KeptFromUpstream {
  kept: number;
  refused: number;
}

/**
 * Keeps the records of a backend's successful answer to an operation of a collection: a created or read record,
 * the records of a list page, or the removal of a deleted one. Only records that fit the collection's schema
 * are kept (a record the mock could not serve again is no use), each once, frozen as the store wants it.
 * @example keepUpstreamRecords(plan, session.store, { member_id: 'm1' }, 200, { data: [pass], next_cursor: null })
 */
export function keepUpstreamRecords(
  plan: CollectionPlan,
  store: Store,
  pathParams: Readonly<Record<string, string>>,
  status: number,
  body: unknown,
): KeptFromUpstream {
  const outcome = { kept: 0, refused: 0 };
  if (status < 200 || status > 299) return outcome;
  const { collection, role } = plan;
  const key = plan.keyOf(pathParams);
  if (role === 'remove') {
    const id = collection.idParam ? pathParams[collection.idParam] : undefined;
    if (id !== undefined && store.delete(key, id) === 'deleted') outcome.kept++;
    return outcome;
  }
  const bundle = bundleOf(collection.create.spec);
  const records = role === 'list' ? recordsOf(body, plan.list?.where ?? []) : [body];
  for (const record of records) {
    if (!isObject(record) || !valueFits(record, collection.schema, bundle)) continue;
    const id = record[collection.idField];
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    const stored = store.put(key, String(id), Object.freeze(structuredClone(record)) as StoredRecord);
    if (stored === 'stored') outcome.kept++;
    else outcome.refused++;
  }
  return outcome;
}

/** The records of a list answer: the body itself, or the envelope's array (`data`). */
function recordsOf(body: unknown, where: readonly string[]): unknown[] {
  let at: unknown = body;
  for (const name of where) at = isObject(at) ? at[name] : undefined;
  return Array.isArray(at) ? at : [];
}
