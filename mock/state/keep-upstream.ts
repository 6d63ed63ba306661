// Records a real backend answered with, kept as the mock's state (the proxy's `recordState`): a later run
// without the backend serves what it created, listed, read and updated, and no longer what it deleted.
import type { CollectionPlan } from '../plan/collection-plan.js';
import { isObject } from '../schema/schema-facts.js';
import { valueFits } from '../prism/schema-check.js';
import type { Store, StoreOutcome, StoredRecord } from './store.js';
import { NO_PLACEHOLDERS, type Placeholders } from './overlay.js';
import { updateRecord } from './update-record.js';
import { bundleOf } from '../schema/operation-bundle.js';

/** What became of an upstream answer's records: how many were kept, and how many the store refused. */
export interface KeptFromUpstream {
  kept: number;
  refused: number;
}

/**
 * Keeps the records of a backend's successful answer to an operation of a collection: a created, read or
 * updated record, the records of a list page, or the removal of a deleted one. Only records that fit the
 * collection's schema are kept (a record the mock could not serve again is no use), each once, frozen as the
 * store wants it. An update answered without the record (`204`) is applied to the record kept, as the mock
 * applies one (see update-record.ts); one that cannot be applied drops it, so the mock does not serve it stale.
 * @example keepUpstreamRecords(plan, store, { member_id: 'm1' }, { status: 200, body: { data: [pass] } }, sent)
 */
export function keepUpstreamRecords(
  plan: CollectionPlan,
  store: Store,
  pathParams: Readonly<Record<string, string>>,
  answer: { status: number; body: unknown },
  sent: { body: unknown; contentType?: string; now: Date },
  placeholders: (key: string) => Placeholders = () => NO_PLACEHOLDERS,
): KeptFromUpstream {
  const outcome = { kept: 0, refused: 0 };
  const { status, body } = answer;
  if (status < 200 || status > 299) return outcome;
  const { collection, role } = plan;
  const key = plan.keyOf(pathParams);
  // The collection is the backend's now: the placeholders the mock made up for it go, as fixtures replace them.
  const hidden = hidePlaceholders(store, key, placeholders(key));
  if (hidden === 'state-full') outcome.refused++;
  else outcome.kept += hidden;
  const id = collection.idParam ? pathParams[collection.idParam] : undefined;
  if (role === 'remove') {
    if (id !== undefined && store.delete(key, id) === 'deleted') outcome.kept++;
    return outcome;
  }
  if (role === 'update' && !isObject(body)) {
    const stored = id === undefined ? undefined : store.get(key, id);
    if (id === undefined || stored === undefined) return outcome;
    const updated = updateRecord(collection, plan.update!, stored, { pathParams, ...sent });
    if (updated !== undefined && 'record' in updated) count(outcome, store.put(key, id, updated.record));
    else if (store.delete(key, id) === 'deleted') outcome.kept++;
    return outcome;
  }
  const bundle = bundleOf(collection.create.spec);
  const records = role === 'list' ? recordsOf(body, plan.list?.where ?? []) : [body];
  for (const record of records) {
    if (!isObject(record) || !valueFits(record, collection.schema, bundle)) continue;
    const recordId = record[collection.idField];
    if (typeof recordId !== 'string' && typeof recordId !== 'number') continue;
    count(outcome, store.put(key, String(recordId), Object.freeze(structuredClone(record)) as StoredRecord));
  }
  return outcome;
}

/**
 * Deletes the collection's placeholders that are still as made (not replaced by a record kept or written since),
 * so a later run without the backend shows a member exactly the records the backend had; answers how many.
 */
function hidePlaceholders(store: Store, key: string, placeholders: Placeholders): number | 'state-full' {
  let hidden = 0;
  for (const [id, made] of placeholders) {
    const shown = store.get(key, id);
    // A store that keeps its records elsewhere (a file, Redis) hands out copies: compared by their text.
    if (shown === undefined || (shown !== made && JSON.stringify(shown) !== JSON.stringify(made))) continue;
    if (store.delete(key, id) === 'state-full') return 'state-full';
    hidden++;
  }
  return hidden;
}

function count(outcome: KeptFromUpstream, stored: StoreOutcome): void {
  if (stored === 'stored') outcome.kept++;
  else outcome.refused++;
}

/** The records of a list answer: the body itself, or the envelope's array (`data`). */
function recordsOf(body: unknown, where: readonly string[]): unknown[] {
  let at: unknown = body;
  for (const name of where) at = isObject(at) ? at[name] : undefined;
  return Array.isArray(at) ? at : [];
}
