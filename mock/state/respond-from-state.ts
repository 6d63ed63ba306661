// Answers the operations of an inferred collection from the state store: create, list, read, delete.
import type { Operation } from '../contract/load-contract.js';
import { problem, type Violation } from '../problems/problems.js';
import type { MockContext, Session } from '../handler/mock-context.js';
import type { Rendered } from '../handler/render-response.js';
import { problemReply } from '../handler/send-reply.js';
import { listArray, successSchema, type Collection, type CollectionRole } from './infer-collections.js';
import { isNullable, isObject, propertiesOf, type JsonObject } from './schema-facts.js';
import { makeCreated, makePlaceholder } from './make-record.js';
import type { Store, StoredRecord } from './store.js';

/** The request facts a stateful answer needs. */
export interface StateRequest {
  path: string;
  pathParams: Record<string, string>;
  query: Record<string, string | string[]>;
  body: unknown;
  /** The generation key of this request (seed-stable, unique per create). */
  key: string;
}

const LIMIT_PARAMS = ['limit', 'page_size', 'pageSize', 'per_page', 'perPage'];
const CURSOR_PARAMS = ['cursor', 'page_token', 'pageToken', 'after'];
const NEXT_FIELDS = ['next_cursor', 'nextCursor', 'next_page_token', 'nextPageToken'];

/**
 * Answers from state. `render` fills what state does not hold (an envelope's other fields, headers).
 * Returns the reply and whether the state changed.
 */
export function respondFromState(
  context: MockContext,
  session: Session,
  collection: Collection,
  role: CollectionRole,
  operation: Operation,
  request: StateRequest,
  render: (body?: unknown) => Rendered,
): { reply: Rendered; changed: boolean } {
  const collectionKey = concretePath(collection.path, request.pathParams);
  const { store } = session;
  const seeded = ensureSeeded(context, store, collection, collectionKey, request.pathParams);
  const id = collection.idParam ? request.pathParams[collection.idParam] : undefined;

  if (role === 'create') {
    const record = createRecord(context, session, collection, collectionKey, operation, request);
    store.put(collectionKey, String(record[collection.idField]), record);
    return { reply: render(record), changed: true };
  }
  if (role === 'list') {
    const list = listBody(context, store, collection, operation, collectionKey, request, render);
    return { reply: 'reply' in list ? list.reply : render(list.body), changed: seeded };
  }
  if (id === undefined) return { reply: render(), changed: seeded };
  if (role === 'read') {
    const record = store.get(collectionKey, id);
    return { reply: record ? render(record) : notFound(collection, id, request.path, operation), changed: seeded };
  }
  const removed = store.delete(collectionKey, id);
  return { reply: removed ? render() : notFound(collection, id, request.path, operation), changed: seeded || removed };
}

/** The concrete path of a collection for the request, e.g. `/members/m1/passes`: its key in the store. */
export function concretePath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

function ensureSeeded(
  context: MockContext,
  store: Store,
  collection: Collection,
  collectionKey: string,
  pathParams: Record<string, string>,
): boolean {
  if (store.has(collectionKey)) return false;
  store.touch(collectionKey);
  const count = context.options.placeholders;
  const scope = Object.fromEntries(
    Object.entries(pathParams).filter(([name]) => collection.path.includes(`{${name}}`)),
  );
  for (let i = 0; i < count; i++) {
    const record = makePlaceholder(context.generator, collection, collectionKey, scope, i, count);
    store.put(collectionKey, String(record[collection.idField]), record);
  }
  return true;
}

function createRecord(
  context: MockContext,
  session: Session,
  collection: Collection,
  collectionKey: string,
  operation: Operation,
  request: StateRequest,
): StoredRecord {
  const requestSchema = operation.spec.request?.body?.contents?.find((c) => /[/+]json\b/i.test(c.mediaType))?.schema as
    JsonObject | undefined;
  const now = session.now();
  for (let attempt = 0; ; attempt++) {
    const key = attempt === 0 ? request.key : `${request.key}|retry${attempt}`;
    const record = makeCreated(
      context.generator,
      collection,
      key,
      request.pathParams,
      request.body,
      requestSchema,
      now,
    );
    // Generated ids are random within their pattern; a clash with a stored record gets another draw.
    if (attempt >= 20 || !session.store.get(collectionKey, String(record[collection.idField]))) return record;
  }
}

function listBody(
  context: MockContext,
  store: Store,
  collection: Collection,
  operation: Operation,
  collectionKey: string,
  request: StateRequest,
  render: (body?: unknown) => Rendered,
): { body: unknown } | { reply: Rendered } {
  const query = operation.spec.request?.query ?? [];
  const limitParam = LIMIT_PARAMS.find((name) => query.some((q) => q.name === name));
  const cursorParam = CURSOR_PARAMS.find((name) => query.some((q) => q.name === name));
  const start = cursorParam ? decodeCursor(request.query[cursorParam]) : 0;
  if (start === undefined) return { reply: badCursor(cursorParam!, request.path) };
  const records = store.list(collectionKey).reverse();
  const limit = limitParam ? pageLimit(operation, limitParam, request.query[limitParam]) : records.length;
  const page = records.slice(start, start + limit);
  const where = listArray(operation, collection.schema) ?? [];
  if (where.length === 0) return { body: page };
  // The envelope's other fields come from the generator (once per operation); the records and the cursor from state.
  let envelope = context.envelopes.get(operation);
  if (!envelope) {
    const generated = render().body;
    context.envelopes.set(operation, (envelope = isObject(generated) ? generated : {}));
  }
  const body: JsonObject = { ...envelope };
  body[where[0]!] = page;
  const properties = propertiesOf(successSchema(operation));
  const nextField = NEXT_FIELDS.find((field) => field in properties);
  if (nextField) {
    if (start + limit < records.length) body[nextField] = encodeCursor(start + limit);
    else if (isNullable(properties[nextField])) body[nextField] = null;
    else delete body[nextField];
  }
  return { body };
}

function pageLimit(operation: Operation, name: string, value: string | string[] | undefined): number {
  const given = Number(Array.isArray(value) ? value[0] : value);
  if (Number.isInteger(given) && given > 0) return given;
  const schema = operation.spec.request?.query?.find((q) => q.name === name)?.schema as
    { default?: unknown } | undefined;
  return typeof schema?.default === 'number' ? schema.default : 20;
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

function badCursor(param: string, path: string): Rendered {
  const violation: Violation = {
    location: 'query',
    pointer: `/${param}`,
    message: 'must be a next_cursor value from a previous page, unchanged',
  };
  // The journal keeps no violation: the cursor fits the contract's schema, only not this mock's pages.
  return problemReply(
    problem('invalidRequest', `query /${param}: ${violation.message}.`, { instance: path, violations: [violation] }),
    {},
    [],
  );
}

function notFound(collection: Collection, id: string, path: string, operation: Operation): Rendered {
  // `pass_id` names a pass; a contract with `{id}` gets "record".
  const noun = collection.idParam?.replace(/(_id|Id)$/, '').replace(/^id$/, 'record') ?? 'record';
  const violation: Violation = {
    location: 'path',
    pointer: `/${collection.idParam}`,
    message: `no ${noun} with this id`,
  };
  const detail = `${operation.id}: ${noun} ${id} does not exist (it was never created, or was deleted).`;
  // A valid request for a record that is not there: the journal keeps no violation.
  return problemReply(problem('notFound', detail, { instance: path, violations: [violation] }), {}, []);
}
