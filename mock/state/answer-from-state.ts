// Answers the operations of an inferred collection from the state store: create, list, read, delete.
import type { JsonObject } from '../spec/schema-facts.js';
import type { BodyGenerator } from '../generate/generate-body.js';
import type { Collection } from '../plan/infer-collections.js';
import type { CollectionPlan, CreatePlan } from '../plan/collection-plan.js';
import { problem, type Violation } from '../problems/problems.js';
import { problemReply, type Reply } from '../reply/reply.js';
import { listPage } from './list-page.js';
import { makeCreated, makePlaceholder } from './make-record.js';
import { BoundedMemo } from '../memo/bounded-memo.js';
import { MemoryStore, type Store, type StoreOutcome, type StoredRecord } from './store.js';

/** What state is kept in and made with. */
export interface StateTools {
  store: Store;
  /** Pages already made from this store (see {@link Store.version}): a page is frozen and shared. */
  pages: BoundedMemo<JsonObject>;
  generator: BodyGenerator;
  /** How many placeholder records a collection starts with. */
  placeholders: number;
  /** The time a new record is created at. */
  now(): Date;
}

/** The request facts a stateful answer needs. */
export interface StateRequest {
  operationId: string;
  path: string;
  pathParams: Record<string, string>;
  query: Record<string, string | string[]>;
  body: unknown;
  /** The generation key of this request (seed-stable, unique per create). */
  key: string;
}

/** What a request did to state: the reply, and whether the store changed. */
export interface StateAnswer {
  reply: Reply;
  changed: boolean;
}

/**
 * Answers from state. `render` turns a body from state (or none: a generated one) into the reply with the
 * contract's headers. A change the store has no room for is answered 507 and nothing is stored.
 * @example
 * answerFromState(plan.collection, tools, request, (body) => renderResponse(generator, rendering, request, body))
 */
export function answerFromState(
  plan: CollectionPlan,
  tools: StateTools,
  request: StateRequest,
  render: (body?: unknown) => Reply,
): StateAnswer {
  const { collection, role } = plan;
  const collectionKey = plan.keyOf(request.pathParams);
  const { store, seeded, kept } = openCollection(tools, collection, collectionKey, request.pathParams);
  if (plan.create) {
    if (!kept) return { reply: storageFull('state-full', tools.store, collectionKey, request), changed: false };
    const record = createRecord(plan.create, collection, tools, collectionKey, request);
    const outcome = store.put(collectionKey, String(record[collection.idField]), record);
    if (outcome !== 'stored') return { reply: storageFull(outcome, store, collectionKey, request), changed: seeded };
    return { reply: render(record), changed: true };
  }
  if (plan.list) {
    const pages = kept ? tools.pages : new BoundedMemo<JsonObject>(1);
    const list = listPage(plan.list, collection.idField, { ...tools, store, pages }, collectionKey, request, render);
    return { reply: 'reply' in list ? list.reply : render(list.body), changed: seeded };
  }
  const id = collection.idParam ? request.pathParams[collection.idParam] : undefined;
  if (id === undefined) return { reply: render(), changed: seeded };
  const missing = () => (plan.missingIsNotFound ? notFound(collection, id, request) : render());
  if (role === 'read') {
    const record = store.get(collectionKey, id);
    return { reply: record ? render(record) : missing(), changed: seeded };
  }
  if (!kept) {
    // Deleting one of the placeholders would store the rest, and there is no room for them.
    const reply = store.get(collectionKey, id)
      ? storageFull('state-full', tools.store, collectionKey, request)
      : missing();
    return { reply, changed: false };
  }
  const removed = store.delete(collectionKey, id);
  return { reply: removed ? render() : missing(), changed: seeded || removed };
}

/** Where a request finds its collection, whether this request seeded it, and whether the store keeps it. */
export interface Opened {
  store: Store;
  seeded: boolean;
  kept: boolean;
}

/**
 * The store to answer from: the session's, the collection's placeholders seeded there the first time it is seen;
 * or, when the session's state has no room for them, a store of their own that is not kept, so that reads still
 * see the same records.
 * @example openCollection(tools, collection, '/members/m1/passes', { member_id: 'm1' }).store.list('/members/m1/passes')
 */
export function openCollection(
  tools: StateTools,
  collection: Collection,
  key: string,
  pathParams: Record<string, string>,
): Opened {
  const { store, generator, placeholders: count } = tools;
  if (store.has(key)) return { store, seeded: false, kept: true };
  const scope = Object.fromEntries(
    Object.entries(pathParams).filter(([name]) => collection.path.includes(`{${name}}`)),
  );
  const records = Array.from({ length: count }, (_, index) => {
    const record = makePlaceholder(generator, collection, { collectionKey: key, pathParams: scope, index, count });
    return [String(record[collection.idField]), record] as const;
  });
  if (store.seed(key, records) === 'stored') return { store, seeded: true, kept: true };
  const unkept = new MemoryStore();
  unkept.seed(key, records);
  return { store: unkept, seeded: false, kept: false };
}

function createRecord(
  create: CreatePlan,
  collection: Collection,
  tools: StateTools,
  collectionKey: string,
  request: StateRequest,
): StoredRecord {
  const now = tools.now();
  for (let attempt = 0; ; attempt++) {
    const key = attempt === 0 ? request.key : `${request.key}|retry${attempt}`;
    const record = makeCreated(tools.generator, collection, create, {
      key,
      pathParams: request.pathParams,
      sent: request.body,
      now,
    });
    // Generated ids are random within their pattern; a clash with a stored record gets another draw.
    if (attempt >= 20 || !tools.store.get(collectionKey, String(record[collection.idField]))) return record;
  }
}

function notFound(collection: Collection, id: string, request: StateRequest): Reply {
  // `pass_id` names a pass; a contract with `{id}` gets "record".
  const noun = collection.idParam?.replace(/(_id|Id)$/, '').replace(/^id$/, 'record') ?? 'record';
  const violation: Violation = {
    location: 'path',
    pointer: `/${collection.idParam}`,
    message: `no ${noun} with this id`,
  };
  const detail = `${request.operationId}: ${noun} ${id} does not exist (it was never created, or was deleted).`;
  // A valid request for a record that is not there: the journal keeps no violation.
  return problemReply(problem('notFound', detail, { instance: request.path, violations: [violation] }), {}, []);
}

/**
 * The 507 of a change the store refused: which limit, its value, and how to make room.
 * @example storageFull('collection-full', store, '/members/m1/passes', { operationId: 'createPass', path })
 */
export function storageFull(
  outcome: StoreOutcome,
  store: Store,
  collectionKey: string,
  request: Pick<StateRequest, 'operationId' | 'path'>,
): Reply {
  const { operationId } = request;
  const tail = 'Nothing was stored. Make room by deleting records or with POST /__mock/reset, or raise';
  const detail =
    outcome === 'collection-full'
      ? `${operationId}: the collection ${collectionKey} is full: it holds ${store.count(collectionKey)} of ` +
        `${store.limits.collection} records (collectionLimit). ${tail} --collection-limit.`
      : `${operationId}: this session's state is full: it holds ${store.count()} of ${store.limits.state} records ` +
        `(stateLimit). ${tail} --state-limit.`;
  // The request fits the contract: the journal keeps no violation.
  return problemReply(problem('storageFull', detail, { instance: request.path }), {}, []);
}
