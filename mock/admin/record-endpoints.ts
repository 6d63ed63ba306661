// The admin API's state one collection or record at a time, below /__mock/state: the concrete path of a
// collection (/__mock/state/members/m1/passes), or of one of its records (…/passes/pas_…), validated as fixtures are.
import { decode } from '../http/path-params.js';
import { countOf } from '../instance/session.js';
import { stateChanged, type MockContext } from '../instance/mock-context.js';
import { recordMakerOf } from '../instance/replace-state.js';
import { compileKey } from '../plan/collection-plan.js';
import { paramValue, type EchoValue } from '../plan/path-echo.js';
import type { Collection, CollectionMap } from '../plan/infer-collections.js';
import { problem, type Violation } from '../http/problems.js';
import { problemReply, type Reply } from '../http/reply.js';
import { unmatchedMethod } from '../http/unmatched.js';
import { isObject, propertiesOf } from '../schema/schema-facts.js';
import { storageFull } from '../state/answer-from-state.js';
import { checkRecord, collectionOf, pathParamsOf, StateError, wrongPathParam } from '../state/check-snapshot.js';
import { completeRecord } from '../state/complete-record.js';
import type { Store, StoredRecord } from '../state/store.js';
import { json, noContent, type AdminEndpoint, type AdminRequest } from './admin-endpoint.js';
import { noBody, refusal, STATE, withoutQuery } from './state-endpoints.js';

/** The counter of records added with POST in a session: the key each one is made under. */
const ADDED = '\u0000state-added';

/** What a path below /__mock/state names: a collection (by its concrete path), and maybe one of its records. */
interface Target {
  collection: Collection;
  /** The collection's concrete path as the store keys it (`/members/m1/passes`). */
  key: string;
  pathParams: Record<string, string>;
  id?: string;
}

/**
 * Every path below `/__mock/state`: a collection (GET lists its records, POST adds one) or one record (GET,
 * PUT creates or replaces it, PATCH changes some of its fields, DELETE). A collection is seeded with its
 * placeholders until changed, as the contract's operations see it. 404 for a path of no collection, listing them.
 * @example recordEndpoints(context)(request) // POST /__mock/state/members/m1/passes { "status": "suspended" } → 201
 */
export function recordEndpoints(context: MockContext): AdminEndpoint {
  return (request) => {
    const { ex, session, instance } = request;
    const target = targetOf(context.served.collections, ex.path.slice(STATE.length));
    if (!target) return unknownCollection(context.served.collections, ex.path, instance);
    const method = ex.method === 'HEAD' ? 'GET' : ex.method;
    const actions = target.id === undefined ? collectionActions : recordActions;
    const action = actions[method];
    if (!action) return unmatchedMethod({ ...ex, instance }, 'the state', Object.keys(actions));
    const reply = action({ context, request, target, store: session.store });
    if (method !== 'GET' && reply.status < 300) stateChanged(context, session);
    return reply;
  };
}

/** What an action on a collection or a record works with. */
interface Act {
  context: MockContext;
  request: AdminRequest;
  target: Target;
  /** The session's store: a collection nobody changed is its placeholders there. */
  store: Store;
}

type Action = (act: Act) => Reply;

const collectionActions: Record<string, Action> = {
  GET: ({ target, store }) => json({ records: store.list(target.key) }),
  POST: (act) => {
    const { context, request, target } = act;
    const { session, body } = request;
    const { collection, key } = target;
    if (body === undefined) return noBody(request.ex.method, request.instance, 'the record');
    const make = () => {
      const added = countOf(session, ADDED) + 1;
      session.counters.set(ADDED, added);
      return completeRecord(recordMakerOf(context), collection, key, body, `added|${key}|${added}`);
    };
    const taken = (record: unknown) =>
      isObject(record) && session.store.get(key, String(record[collection.idField])) !== undefined;
    let record = make();
    // A generated id that is taken gets another draw, as a create's does; a given one is refused.
    const givesId = isObject(body) && Object.hasOwn(body, collection.idField);
    for (let attempt = 1; attempt < 20 && !givesId && taken(record); attempt++) record = make();
    if (taken(record)) {
      const id = String((record as StoredRecord)[collection.idField]);
      const detail = `${key} has a record "${id}" already: PUT ${request.ex.path}/${id} replaces it.`;
      return problemReply(problem('recordExists', detail, { instance: request.instance }));
    }
    const base = withoutQuery(request.instance);
    return keepRecord(act, record, (stored, id) =>
      json(stored, 201, { Location: `${base}/${encodeURIComponent(id)}` }),
    );
  },
};

const recordActions: Record<string, Action> = {
  GET: ({ request, target, store }) => {
    const record = store.get(target.key, target.id!);
    return record ? json(record) : noRecord(target, request.instance);
  },
  PUT: (act) => {
    const { context, request, target } = act;
    const { body } = request;
    const { collection, key, id } = target;
    if (body === undefined) return noBody(request.ex.method, request.instance, 'the record');
    const wrongId = otherId(act);
    if (wrongId) return wrongId;
    // The URL's id fills the record's, as the path fills its owner.
    const given = isObject(body)
      ? Object.fromEntries([[collection.idField, idValue(collection, id!)], ...Object.entries(body)])
      : body;
    const record = completeRecord(recordMakerOf(context), collection, key, given, `record|${key}|${id}`);
    const existed = request.session.store.get(key, id!) !== undefined;
    return keepRecord(act, record, (stored) =>
      existed ? json(stored) : json(stored, 201, { Location: withoutQuery(request.instance) }),
    );
  },
  PATCH: (act) => {
    const { request, target, store } = act;
    const { body } = request;
    if (body === undefined) return noBody(request.ex.method, request.instance, 'the fields to change');
    const existing = store.get(target.key, target.id!);
    if (!existing) return noRecord(target, request.instance);
    const wrongId = otherId(act);
    if (wrongId) return wrongId;
    const changed = isObject(body) ? Object.fromEntries([...Object.entries(existing), ...Object.entries(body)]) : body;
    return keepRecord(act, changed, (stored) => json(stored));
  },
  DELETE: (act) => {
    const { request, target, store } = act;
    const outcome = store.delete(target.key, target.id!);
    if (outcome === 'missing') return noRecord(target, request.instance);
    return outcome === 'state-full' ? full(act, outcome) : noContent();
  },
};

/**
 * Checks a record as fixtures are checked, stores it, and answers with `answer`; 422 naming the field at fault,
 * or 507 when the store has no room.
 */
function keepRecord(act: Act, record: unknown, answer: (stored: StoredRecord, id: string) => Reply): Reply {
  const { request, target } = act;
  const where = `${request.ex.method} ${request.ex.path}: the record`;
  let checked: StoredRecord;
  try {
    const wrongParam = wrongPathParam(target.collection, target.key);
    if (wrongParam) throw new StateError(`${request.ex.method} ${request.ex.path}: ${wrongParam}`);
    checked = checkRecord(target.collection, target.key, record, { where });
  } catch (error) {
    if (!(error instanceof StateError)) throw error;
    return refusal('invalidBody', error, request.instance);
  }
  const id = String(checked[target.collection.idField]);
  const outcome = act.store.put(target.key, id, checked);
  return outcome === 'stored' ? answer(checked, id) : full(act, outcome);
}

/** A 422 when the body names another id than the URL does. */
function otherId({ request, target }: Act): Reply | undefined {
  const { body, ex, instance } = request;
  const { idField } = target.collection;
  if (!isObject(body) || !Object.hasOwn(body, idField) || String(body[idField]) === target.id) return undefined;
  const message = `${ex.method} ${ex.path}: the record has ${idField} "${String(body[idField])}", but its URL says "${target.id}".`;
  const violations: Violation[] = [{ location: 'body', pointer: `/${idField}`, message }];
  return problemReply(problem('invalidBody', message, { instance, violations }));
}

/**
 * The id as the record holds it: a number for a collection whose ids are numbers, read as the path echo reads
 * one (`7`; `07` stays text, and the record check then refuses it, rather than kept under another id than its URL).
 */
function idValue(collection: Collection, id: string): EchoValue {
  const schema = propertiesOf(collection.schema)[collection.idField];
  return isObject(schema) ? paramValue(id, schema) : id;
}

/** The collection (and record) a path below /__mock/state names: a collection's path, or one with an id after it. */
function targetOf(collections: CollectionMap, rest: string): Target | undefined {
  const path = rest.length > 1 && rest.endsWith('/') ? rest.slice(0, -1) : rest;
  const whole = collectionOf(collections, path);
  if (whole) return target(whole, path);
  const cut = path.lastIndexOf('/');
  const parent = cut > 0 ? collectionOf(collections, path.slice(0, cut)) : undefined;
  if (!parent || cut === path.length - 1) return undefined;
  return { ...target(parent, path.slice(0, cut)), id: decode(path.slice(cut + 1)) };
}

/** A collection's target, keyed as its operations key it (values percent-encoded one way: `m%201`). */
function target(collection: Collection, path: string): Target {
  const pathParams = pathParamsOf(collection, path);
  return { collection, pathParams, key: compileKey(collection.path)(pathParams) };
}

function unknownCollection(collections: CollectionMap, path: string, instance: string): Reply {
  const templates = collections.collections.map((c) => c.path);
  const listed = templates.map((t) => `${STATE}${t}`).join(', ') || 'none';
  const detail =
    `${path} is neither a collection of the contract nor a record of one. Its collections are ${listed}; ` +
    `a record is its collection's path and its id (${STATE}${templates[0] ?? '/things'}/{id}).`;
  return problemReply(problem('notFound', detail, { instance, collections: templates }));
}

function noRecord(target: Target, instance: string): Reply {
  const detail = `${target.key} has no record "${target.id}" (it was never there, or was deleted).`;
  return problemReply(problem('notFound', detail, { instance }));
}

function full({ request, target }: Act, outcome: 'collection-full' | 'state-full'): Reply {
  const operationId = `${request.ex.method} ${request.ex.path}`;
  return storageFull(outcome, request.session.store, target.key, { operationId, path: request.instance });
}
