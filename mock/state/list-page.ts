// Answers a list from state: the page a cursor and a limit ask for, in the envelope the contract declares.
import { valueFits } from '../prism/schema-check.js';
import type { CountField, ListPlan } from '../plan/collection-plan.js';
import { problem, type Violation } from '../http/problems.js';
import { problemReply, type Reply } from '../http/reply.js';
import { isNullable, isObject, type JsonObject } from '../schema/schema-facts.js';
import type { StateRequest, StateTools } from './state-tools.js';
import { deepFreeze } from '../lib/frozen-json.js';
import type { StoredRecord } from './store.js';
import { fromBase64, toBase64Url, utf8Text } from '../lib/bytes.js';

/**
 * A page of the list, made once per version of the collection and page, then shared (frozen); or the 400 of a
 * cursor it cannot read, where the list documents one.
 * @example listPage(plan.list, 'id', tools, '/members/m1/passes', request, render)
 */
export function listPage(
  list: ListPlan,
  idField: string,
  tools: StateTools,
  collectionKey: string,
  request: StateRequest,
  render: (body?: unknown) => Reply,
): { body: unknown } | { reply: Reply } {
  const cursor = list.cursorParam ? request.query[list.cursorParam] : undefined;
  const limit = list.limitParam ? pageLimit(request.query[list.limitParam], list.defaultLimit) : list.defaultLimit;
  // Without a cursor, a page may be named by its number or its offset (`?page=3`, `?offset=40`).
  const placed = cursor === undefined ? placedStart(list, request.query, limit) : undefined;
  const version = tools.store.version(collectionKey);
  const ours = decodeCursor(cursor);
  const { store } = tools;
  // Not ours: the id of the record the page starts after (`after=obj_123`, as OpenAI and Stripe page), else
  // refused where documented, else the first page.
  let named: number | undefined;
  if (!ours && placed === undefined) {
    named = typeof cursor === 'string' ? store.position(collectionKey, cursor) : undefined;
    if (named === undefined && list.refusesBadCursor) return { reply: unknownCursor(list, request.path) };
  }
  // No key is made: the collection's key is one string per path (collection-plan.ts keyOf), hashed once. The
  // version (the store's count of changes when the collection last changed) comes after it: each collection
  // adds one map, its versions entries in it. Last the cursor's text, of one the mock issued or a record's id;
  // any other names the first page, and shares its entry.
  const part =
    placed !== undefined
      ? placed
      : typeof cursor === 'string' && (ours !== undefined || named !== undefined)
        ? cursor
        : '';
  const key = [request.operationId, limit, collectionKey, version, part];
  const known = tools.pages.get(key);
  if (known) return { body: known };
  const records = store.list(collectionKey).reverse();
  const positionOf = (record: StoredRecord) => store.position(collectionKey, String(record[idField]));
  // Ours starts after the record it names, or where that stood (a record created or deleted since the last page
  // moves no other; see nextCursor).
  const start =
    placed ??
    (ours
      ? startOf(ours, records, (id) => store.position(collectionKey, id), positionOf)
      : named === undefined
        ? 0
        : firstBelow(records, named, positionOf));
  const page = records.slice(start, start + limit);
  // A page weighs its records (and one for the envelope): the memo bounds the records its pages hold.
  const weight = page.length + 1;
  if (list.where.length === 0)
    return { body: tools.pages.set(key, Object.freeze(page) as unknown as JsonObject, weight) };
  // The envelope's other fields come from the generator (once per operation); the records and the cursor from state.
  const envelope = list.envelope(() => {
    const generated = render().body;
    return deepFreeze(isObject(generated) ? generated : {});
  });
  const body: JsonObject = { ...envelope };
  body[list.where[0]!] = Object.freeze(page);
  if (list.nextField) {
    if (start + limit < records.length)
      body[list.nextField] = nextCursor(list, records, start + limit, { idField, positionOf });
    else if (list.nextNullable) body[list.nextField] = null;
    else delete body[list.nextField];
  }
  // Stripe's and OpenAI's envelopes say it their way: `has_more`, and the ids of the page's first and last record.
  if (list.moreField) body[list.moreField] = start + limit < records.length;
  const facts = { records: records.length, start, limit, shown: page.length, firstPage: list.firstPage };
  for (const { name, counts, schema, required } of list.countFields) {
    const value = countOf(counts, facts);
    // A count the field's schema refuses (a `total_pages` of at least 1 for an empty list, an offset past int32)
    // is not sent as a drawn number that would read as true: left out where it may be, else left as drawn.
    if (valueFits(value, schema, list.bundle)) body[name] = value;
    else if (!required) delete body[name];
  }
  for (const { name, edge, schema } of list.edgeFields) {
    const id = (edge === 'first' ? page[0] : page.at(-1))?.[idField];
    if (id === undefined ? isNullable(schema) : valueFits(id, schema, list.bundle)) body[name] = id ?? null;
  }
  return { body: tools.pages.set(key, Object.freeze(body), weight) };
}

function pageLimit(value: string | string[] | undefined, defaultLimit: number): number {
  const given = Number(Array.isArray(value) ? value[0] : value);
  return Number.isInteger(given) && given > 0 ? given : defaultLimit;
}

/**
 * Where a page named by its number or its offset starts (`?page=3&per_page=10`: after 20 records, when pages
 * count from 1); `undefined` when the request names neither. A value that is no whole number, or is before the
 * first page, names the first page.
 */
function placedStart(list: ListPlan, query: StateRequest['query'], limit: number): number | undefined {
  const numberOf = (param: string | undefined) => {
    const value = param === undefined ? undefined : query[param];
    if (value === undefined) return undefined;
    const given = Number(Array.isArray(value) ? value[0] : value);
    return Number.isInteger(given) ? given : NaN;
  };
  const offset = numberOf(list.offsetParam);
  if (offset !== undefined) return Number.isNaN(offset) ? 0 : Math.max(0, offset);
  const page = numberOf(list.pageParam);
  if (page === undefined) return undefined;
  if (Number.isNaN(page) || page <= list.firstPage || !Number.isFinite(limit)) return 0;
  return Math.min((page - list.firstPage) * limit, Number.MAX_SAFE_INTEGER);
}

/** The value of an envelope's count field for a page: the records held, the pages, or where the page is. */
function countOf(
  counts: CountField['counts'],
  facts: { records: number; start: number; limit: number; shown: number; firstPage: number },
): number {
  const { records, start, limit, shown, firstPage } = facts;
  const finite = Number.isFinite(limit);
  switch (counts) {
    case 'records':
      return records;
    case 'pages':
      return finite ? Math.ceil(records / limit) : records > 0 ? 1 : 0;
    case 'page':
      return finite ? Math.floor(start / limit) + firstPage : firstPage;
    case 'offset':
      return start;
    case 'limit':
      // A list that answers all it holds has pages as long as what it answered.
      return finite ? limit : shown;
  }
}

/**
 * The cursor of the page after `offset`: the id of the last record listed (the next page starts after it,
 * wherever it is then) and its position in the store (`at`: the next page starts at the first record below it,
 * which is the first older one still there when the record is gone; see Store.position). The position is the
 * whole cursor when the id is no text or such a cursor does not fit the contract's cursor schemas. Records
 * created since stand above every listed one, and deletes move no position, so neither part moves with them.
 */
function nextCursor(
  list: ListPlan,
  records: readonly StoredRecord[],
  offset: number,
  { idField, positionOf }: { idField: string; positionOf: (record: StoredRecord) => number | undefined },
): string {
  const last = records[offset - 1]!;
  const at = positionOf(last);
  // Every record listed has a position; should one not, the count of older records (the cursor of old) stands in.
  const where = at === undefined ? { rest: records.length - offset } : { at };
  const lastId = last[idField];
  if (typeof lastId === 'string' || typeof lastId === 'number') {
    const cursor = toBase64Url(JSON.stringify({ after: String(lastId), ...where }));
    if (list.cursorFits(cursor)) return cursor;
  }
  return toBase64Url(JSON.stringify(where));
}

/**
 * What a cursor this mock issued says: start after a record, else below its position (`at`), else before the
 * `rest` oldest (what its cursors said before positions), else at an offset (before that).
 */
interface OurCursor {
  after?: string;
  at?: number;
  rest?: number;
  offset?: number;
}

/** No cursor: the first page (one object for every list request without one). */
const FIRST_PAGE: OurCursor = Object.freeze({ offset: 0 });

/**
 * Where a cursor this mock issued starts in the records as they are now (newest first): after the record it names
 * where it is now, else below where it stood.
 */
function startOf(
  cursor: OurCursor,
  records: readonly StoredRecord[],
  positionOfId: (id: string) => number | undefined,
  positionOf: (record: StoredRecord) => number | undefined,
): number {
  const at = (cursor.after === undefined ? undefined : positionOfId(cursor.after)) ?? cursor.at;
  if (at !== undefined) return firstBelow(records, at, positionOf);
  if (cursor.rest !== undefined) return Math.max(0, records.length - cursor.rest);
  return cursor.offset ?? 0;
}

/**
 * The index of the first record (newest first, so positions fall) that stands below `at`: a binary search, so a
 * page of a long list looks up a few positions, not every record's.
 */
function firstBelow(
  records: readonly StoredRecord[],
  at: number,
  positionOf: (record: StoredRecord) => number | undefined,
): number {
  let low = 0;
  let high = records.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    // A record has a position while the store holds it, and the list holds only those.
    if ((positionOf(records[middle]!) ?? -Infinity) < at) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * What a cursor this mock issued says; `undefined` for one it did not issue. No cursor, or an empty one (the
 * contract lets it through: see prism/empty-values.ts), asks for the first page, as in stateless mode. An
 * offset is what its cursors said before (`{ offset }`).
 */
function decodeCursor(value: string | string[] | undefined): OurCursor | undefined {
  if (value === undefined || value === '') return FIRST_PAGE;
  if (typeof value !== 'string') return undefined;
  try {
    const read = JSON.parse(utf8Text(fromBase64(value))) as OurCursor;
    const count = (n: unknown) => n === undefined || (Number.isInteger(n) && (n as number) >= 0);
    if (typeof read !== 'object' || read === null || !count(read.rest) || !count(read.offset)) return undefined;
    if (read.at !== undefined && !Number.isSafeInteger(read.at)) return undefined;
    if (read.after !== undefined && typeof read.after !== 'string') return undefined;
    if (read.at === undefined && read.rest === undefined && read.offset === undefined) return undefined;
    return read;
  } catch {
    return undefined;
  }
}

/**
 * The 400 of a cursor this mock did not hand out. The value fits the contract (the request was checked before):
 * it names no page of this mock's, so the problem says so, and how to get a first page.
 */
function unknownCursor(list: ListPlan, path: string): Reply {
  const param = list.cursorParam!;
  const next = list.nextField ?? 'next cursor';
  const violation: Violation = {
    location: 'query',
    pointer: `/${param}`,
    message: `must be a ${next} value from a previous page, unchanged`,
  };
  const detail =
    `query /${param}: the value fits the contract, but names no page this mock handed out. Pass the ${next} of ` +
    `a previous page unchanged (or a record's id), or leave ${param} out for the first page.`;
  // The journal keeps no violation: the cursor fits the contract's schema, only not this mock's pages.
  return problemReply(problem('unknownCursor', detail, { instance: path, violations: [violation] }), {}, []);
}
