// Answers the operations of an inferred collection from the state store: create, list, read, delete.
import { isObject, type JsonObject } from '../spec/schema-facts.js';
import type { BodyGenerator } from '../generate/generate-body.js';
import type { Collection } from '../plan/infer-collections.js';
import type { CollectionPlan, CreatePlan, ListPlan } from '../plan/collection-plan.js';
import { problem, type Violation } from '../problems/problems.js';
import { problemReply, type Reply } from '../reply/reply.js';
import { makeCreated, makePlaceholder } from './make-record.js';
import type { BoundedMemo } from '../memo/bounded-memo.js';
import { deepFreeze, type Store, type StoredRecord } from './store.js';

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
 * contract's headers.
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
  const { store } = tools;
  const collectionKey = plan.keyOf(request.pathParams);
  const seeded = ensureSeeded(tools, collection, collectionKey, request.pathParams);
  if (plan.create) {
    const record = createRecord(plan.create, collection, tools, collectionKey, request);
    store.put(collectionKey, String(record[collection.idField]), record);
    return { reply: render(record), changed: true };
  }
  if (plan.list) {
    const list = listPage(plan.list, tools, collectionKey, request, render);
    return { reply: 'reply' in list ? list.reply : render(list.body), changed: seeded };
  }
  const id = collection.idParam ? request.pathParams[collection.idParam] : undefined;
  if (id === undefined) return { reply: render(), changed: seeded };
  if (role === 'read') {
    const record = store.get(collectionKey, id);
    return { reply: record ? render(record) : notFound(collection, id, request), changed: seeded };
  }
  const removed = store.delete(collectionKey, id);
  return { reply: removed ? render() : notFound(collection, id, request), changed: seeded || removed };
}

/** Fills a collection seen for the first time with its placeholders; `true` when it did. */
function ensureSeeded(
  tools: StateTools,
  collection: Collection,
  key: string,
  pathParams: Record<string, string>,
): boolean {
  const { store, generator, placeholders: count } = tools;
  if (store.has(key)) return false;
  store.touch(key);
  const scope = Object.fromEntries(
    Object.entries(pathParams).filter(([name]) => collection.path.includes(`{${name}}`)),
  );
  for (let i = 0; i < count; i++) {
    const record = makePlaceholder(generator, collection, { collectionKey: key, pathParams: scope, index: i, count });
    store.put(key, String(record[collection.idField]), record);
  }
  return true;
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

/** A page of the list, made once per version of the collection and page, then shared (frozen). */
function listPage(
  list: ListPlan,
  tools: StateTools,
  collectionKey: string,
  request: StateRequest,
  render: (body?: unknown) => Reply,
): { body: unknown } | { reply: Reply } {
  const start = list.cursorParam ? decodeCursor(request.query[list.cursorParam]) : 0;
  if (start === undefined) return { reply: badCursor(list.cursorParam!, request.path) };
  const limit = list.limitParam ? pageLimit(request.query[list.limitParam], list.defaultLimit) : Infinity;
  const version = tools.store.version(collectionKey);
  const key = `${request.operationId}\u0000${collectionKey}\u0000${version}\u0000${start}\u0000${limit}`;
  const known = tools.pages.get(key);
  if (known) return { body: known };
  const records = tools.store.list(collectionKey).reverse();
  const page = records.slice(start, start + limit);
  if (list.where.length === 0) return { body: tools.pages.set(key, Object.freeze(page) as unknown as JsonObject) };
  // The envelope's other fields come from the generator (once per operation); the records and the cursor from state.
  const envelope = list.envelope(() => {
    const generated = render().body;
    return deepFreeze(isObject(generated) ? generated : {});
  });
  const body: JsonObject = { ...envelope };
  body[list.where[0]!] = Object.freeze(page);
  if (list.nextField) {
    if (start + limit < records.length) body[list.nextField] = encodeCursor(start + limit);
    else if (list.nextNullable) body[list.nextField] = null;
    else delete body[list.nextField];
  }
  return { body: tools.pages.set(key, Object.freeze(body)) };
}

function pageLimit(value: string | string[] | undefined, defaultLimit: number): number {
  const given = Number(Array.isArray(value) ? value[0] : value);
  return Number.isInteger(given) && given > 0 ? given : defaultLimit;
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

/** The offset in a cursor this mock issued; `undefined` for one it did not issue. */
function decodeCursor(value: string | string[] | undefined): number | undefined {
  if (value === undefined) return 0;
  if (typeof value !== 'string') return undefined;
  try {
    const { offset } = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { offset?: unknown };
    return Number.isInteger(offset) && (offset as number) >= 0 ? (offset as number) : undefined;
  } catch {
    return undefined;
  }
}

function badCursor(param: string, path: string): Reply {
  const violation: Violation = {
    location: 'query',
    pointer: `/${param}`,
    message: 'must be a next_cursor value from a previous page, unchanged',
  };
  // The journal keeps no violation: the cursor fits the contract's schema, only not this mock's pages.
  const detail = `query /${param}: ${violation.message}.`;
  return problemReply(problem('invalidRequest', detail, { instance: path, violations: [violation] }), {}, []);
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
