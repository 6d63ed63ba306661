// Answers the operations of an inferred collection from the state store: create, list, read, update, delete.
import type { Collection } from '../plan/infer-collections.js';
import type { CollectionPlan, CreatePlan } from '../plan/collection-plan.js';
import { problem, type Violation } from '../http/problems.js';
import { problemReply, type Reply } from '../http/reply.js';
import bytes from 'bytes';
import { listPage } from './list-page.js';
import { counted } from '../lib/counted.js';
import { chosenId, makeCreated, type ChosenId } from './make-record.js';
import { updateRecord } from './update-record.js';
import type { Store, StoreOutcome, StoredRecord } from './store.js';
import type { StateRequest, StateTools } from './state-tools.js';
import { isObject, propertiesOf } from '../schema/schema-facts.js';
import { paramValue } from '../plan/path-echo.js';

export type { StateRequest, StateTools };

/** What a request did to state: the reply, and whether the store changed. */
export interface StateAnswer {
  reply: Reply;
  changed: boolean;
}

/**
 * Answers from state. `render` turns a body from state (or none: a generated one) into the reply with the
 * contract's headers. A change the store has no room for is answered 507 and nothing is stored; reads never
 * change the store (a collection nobody changed is its placeholders, see PlaceholderSource).
 * @example
 * answerFromState(plan.collection, tools, request, (body) => renderResponse(generator, rendering, request, body))
 */
export function answerFromState(
  plan: CollectionPlan,
  tools: StateTools,
  request: StateRequest,
  render: (body?: unknown) => Reply,
  renderCreated?: (body: unknown) => Reply,
): StateAnswer {
  const { collection, role } = plan;
  const { store } = tools;
  const collectionKey = plan.keyOf(request.pathParams);
  if (plan.create) {
    // An id the client chose that a record cannot have, or that a record has already: refused, nothing changes.
    const chosen = chosenId(collection, plan.create, request.body);
    if (chosen !== undefined && 'refused' in chosen)
      return { reply: idRefused(collection, chosen.refused, request), changed: false };
    if (chosen !== undefined && store.get(collectionKey, String(chosen.id)))
      return { reply: idTaken(collection, String(chosen.id), request), changed: false };
    const record = createRecord(plan.create, collection, tools, collectionKey, request, chosen);
    const outcome = store.put(collectionKey, String(record[collection.idField]), record);
    if (outcome !== 'stored') return { reply: storageFull(outcome, store, collectionKey, request), changed: false };
    return { reply: render(record), changed: true };
  }
  if (plan.list) {
    const list = listPage(plan.list, collection.idField, tools, collectionKey, request, render);
    return { reply: 'reply' in list ? list.reply : render(list.body), changed: false };
  }
  const id = collection.idParam ? request.pathParams[collection.idParam] : undefined;
  if (id === undefined) return { reply: render(), changed: false };
  const missing = () => (plan.missingIsNotFound ? notFound(collection, id, request) : render());
  if (role === 'read') {
    const record = store.get(collectionKey, id);
    return { reply: record ? render(record) : missing(), changed: false };
  }
  if (role === 'update') {
    const stored = store.get(collectionKey, id);
    const { creates } = plan.update!;
    if (!stored && creates && renderCreated)
      return putCreate(creates, collection, tools, collectionKey, request, id, renderCreated);
    if (!stored) return { reply: missing(), changed: false };
    const { pathParams, body, contentType } = request;
    const updated = updateRecord(collection, plan.update!, stored, { pathParams, body, contentType, now: tools.now() });
    // A body the mock cannot lay over a record (a JSON Patch list): answered as the contract says, nothing changed.
    if (updated === undefined) return { reply: render(), changed: false };
    if ('unfit' in updated) return { reply: unfitChange(collection, id, updated.unfit, request), changed: false };
    const outcome = store.put(collectionKey, id, updated.record);
    if (outcome !== 'stored') return { reply: storageFull(outcome, store, collectionKey, request), changed: false };
    return { reply: render(updated.record), changed: true };
  }
  const removed = plan.answersRecord ? store.get(collectionKey, id) : undefined;
  const outcome = store.delete(collectionKey, id);
  if (outcome === 'state-full') return { reply: storageFull(outcome, store, collectionKey, request), changed: false };
  if (outcome !== 'deleted') return { reply: missing(), changed: false };
  return { reply: removed ? render(removed) : removedReply(collection, id, render), changed: true };
}

/**
 * The answer of a delete whose body is not the record: drawn, with the removed record's id where it has the
 * record's id field (Stripe's `{ id, object, deleted: true }`), and `deleted: true` where it says so. A client
 * that drops `response.id` from its list drops the row it deleted.
 */
function removedReply(collection: Collection, id: string, render: (body?: unknown) => Reply): Reply {
  const drawn = render();
  const body = drawn.body;
  if (!isObject(body) || !Object.hasOwn(body, collection.idField)) return drawn;
  const drawnId = body[collection.idField];
  const named: Record<string, unknown> = { ...body };
  named[collection.idField] = typeof drawnId === 'number' && Number.isFinite(Number(id)) ? Number(id) : id;
  if (typeof body.deleted === 'boolean') named.deleted = true;
  return render(named);
}

/**
 * The record a PUT that may create makes at the id its path names (a number where the record's ids are), as a
 * create makes one; an id the record cannot have is refused (422), and nothing is stored.
 */
function putCreate(
  create: CreatePlan,
  collection: Collection,
  tools: StateTools,
  collectionKey: string,
  request: StateRequest,
  id: string,
  render: (body: unknown) => Reply,
): StateAnswer {
  const idSchema = propertiesOf(collection.schema)[collection.idField];
  const value = isObject(idSchema) ? paramValue(id, idSchema) : id;
  // The path's parameter may take what the record's id does not (a pattern, a number): no such record is made.
  const refused = create.idRefusal(value);
  if (refused !== undefined) return { reply: idRefused(collection, refused, request), changed: false };
  const { key, pathParams, body } = request;
  const record = makeCreated(tools.generator, collection, create, {
    key,
    pathParams,
    sent: body,
    now: tools.now(),
    // idRefusal took only text and finite numbers.
    chosen: { id: value as string | number },
  });
  const outcome = tools.store.put(collectionKey, id, record);
  if (outcome !== 'stored') return { reply: storageFull(outcome, tools.store, collectionKey, request), changed: false };
  return { reply: render(record), changed: true };
}

function createRecord(
  create: CreatePlan,
  collection: Collection,
  tools: StateTools,
  collectionKey: string,
  request: StateRequest,
  chosen: ChosenId,
): StoredRecord {
  const now = tools.now();
  for (let attempt = 0; ; attempt++) {
    const key = attempt === 0 ? request.key : `${request.key}|retry${attempt}`;
    const record = makeCreated(tools.generator, collection, create, {
      key,
      pathParams: request.pathParams,
      sent: request.body,
      now,
      chosen,
    });
    // Generated ids are random within their pattern; a clash with a stored record, or an id no path can carry
    // (empty), gets another draw.
    const id = String(record[collection.idField]);
    if (attempt >= 20 || (id !== '' && !tools.store.get(collectionKey, id))) return record;
  }
}

/** What a record is called: `pass_id` names a pass; a contract with `{id}` gets "record". */
function nounOf(collection: Collection): string {
  return collection.idParam?.replace(/(_id|Id)$/, '').replace(/^id$/, 'record') ?? 'record';
}

function notFound(collection: Collection, id: string, request: StateRequest): Reply {
  const noun = nounOf(collection);
  const violation: Violation = {
    location: 'path',
    pointer: `/${collection.idParam}`,
    message: `no ${noun} with this id`,
  };
  const detail = `${request.operationId}: ${noun} ${id} does not exist (it was never created, or was deleted).`;
  // A valid request for a record that is not there: the journal keeps no violation.
  return problemReply(problem('notFound', detail, { instance: request.path, violations: [violation] }), {}, []);
}

function idRefused(collection: Collection, why: string, request: StateRequest): Reply {
  const pointer = `/${collection.idField}`;
  const detail = `${request.operationId}: the ${nounOf(collection)} id sent cannot be kept: ${why}.`;
  const violations: Violation[] = [{ location: 'body', pointer, message: why }];
  // The request may fit the contract (a record's id narrower than the request's): the journal keeps no violation.
  return problemReply(problem('invalidBody', detail, { instance: request.path, violations }), {}, []);
}

function idTaken(collection: Collection, id: string, request: StateRequest): Reply {
  const noun = nounOf(collection);
  const violation: Violation = {
    location: 'body',
    pointer: `/${collection.idField}`,
    message: `a ${noun} with this id exists already`,
  };
  const detail = `${request.operationId}: ${noun} ${id} exists already; choose another id, or delete it first.`;
  // The request fits the contract: the journal keeps no violation.
  return problemReply(problem('recordExists', detail, { instance: request.path, violations: [violation] }), {}, []);
}

/** The refusal of an update that would leave the record outside its schema: what would break, and where. */
function unfitChange(
  collection: Collection,
  id: string,
  unfit: { pointer: string; message: string }[],
  request: StateRequest,
): Reply {
  const violations: Violation[] = unfit.map(({ pointer, message }) => ({ location: 'body', pointer, message }));
  const broken = unfit.map(({ pointer, message }) => (pointer === '/' ? message : `${pointer}: ${message}`));
  const detail =
    `${request.operationId}: the change would leave ${nounOf(collection)} ${id} outside its schema, so nothing ` +
    `was changed: ${broken.join('; ')}.`;
  // The request fits the contract (its body was checked): the journal keeps no violation.
  return problemReply(problem('invalidBody', detail, { instance: request.path, violations }), {}, []);
}

/**
 * The 507 of a change the store refused: which limit, its value, and how to make room.
 * @example storageFull('collection-full', store, '/members/m1/passes', { operationId: 'createPass', path })
 */
export function storageFull(
  outcome: Exclude<StoreOutcome, 'stored'>,
  store: Store,
  collectionKey: string,
  request: Pick<StateRequest, 'operationId' | 'path'>,
): Reply {
  const { operationId } = request;
  const tail = 'Nothing was stored. Make room by deleting records or with POST /__mock/reset, or raise';
  const { budget } = store.limits;
  const detail =
    outcome === 'collection-full'
      ? `${operationId}: the collection ${collectionKey} is full: it holds ${store.count(collectionKey)} of ` +
        `${counted(store.limits.collection, 'record')} (collectionLimit). ${tail} --collection-limit.`
      : `${operationId}: the state budget is used up: what clients wrote takes ${bytes.format(budget.used)} of ` +
        `${bytes.format(budget.bytes)} (stateBytes; placeholders are free). ${tail} --state-bytes.`;
  // The request fits the contract: the journal keeps no violation.
  return problemReply(problem('storageFull', detail, { instance: request.path }), {}, []);
}
