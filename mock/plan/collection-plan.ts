// What an operation of an inferred collection needs at request time, worked out once from the contract.
import type { Operation } from '../contract/contract.js';
import { isNullable, isObject, propertiesOf, type JsonObject } from '../schema/schema-facts.js';
import { BoundedTrieMemo } from '../lib/bounded-memo.js';
import { answeredBundle, inRootDraft, mergedSchema, valueFits } from '../prism/schema-check.js';
import { recordFits, sameSchema } from '../schema/record-fit.js';
import {
  listArray,
  successSchema,
  type Collection,
  type CollectionMap,
  type CollectionRole,
} from './infer-collections.js';
import { bundleOf } from '../schema/operation-bundle.js';
import { recordProperties, recordShape } from './record-kinds.js';

/** An operation's part in a collection, with the facts its role needs. */
export interface CollectionPlan {
  readonly collection: Collection;
  readonly role: CollectionRole;
  /** The collection's concrete path for a request's path parameters (`/members/m1/passes`): its key in a store. */
  keyOf(pathParams: Readonly<Record<string, string>>): string;
  /** For the list operation. */
  readonly list?: ListPlan;
  /** For the create operation. */
  readonly create?: CreatePlan;
  /** For an update (the item's PUT or PATCH). */
  readonly update?: UpdatePlan;
  /**
   * For read, update and remove: whether a record that is not there answers the mock's 404 (the operation documents a
   * 404, `4XX` or `default` response), or, when the operation documents none of them, a generated success as
   * stateless mode answers: the mock never answers a status the contract does not have.
   */
  readonly missingIsNotFound?: boolean;
  /** For remove: whether its success answers the record removed (a body of the record's schema). */
  readonly answersRecord?: boolean;
}

/** How a list answer is laid out and paged. */
export interface ListPlan {
  /** Where the records sit: `[]` when the body is the array, else the envelope's array property (`data`). */
  readonly where: string[];
  /** The query parameter that sets the page size (`limit`), if the operation has one. */
  readonly limitParam?: string;
  /**
   * The page size when the request sets none: the limit parameter's default, else 20 where the list can be paged
   * (a page number, an offset, or a limit and a cursor), else all the records (`Infinity`); never more than the
   * limit parameter's `maximum` or the listed array's `maxItems` allow.
   */
  readonly defaultLimit: number;
  /** The query parameter that takes a cursor (`cursor`), if the operation has one. */
  readonly cursorParam?: string;
  /** The query parameter that says how many records come before the page (`offset`, `skip`), if any. */
  readonly offsetParam?: string;
  /** The query parameter that numbers pages (`page`), if any, and the number of the first page. */
  readonly pageParam?: string;
  readonly firstPage: number;
  /**
   * The envelope's integer fields that count what the list holds: every record (`total`, `total_count`,
   * `count`…), its pages (`total_pages`), or echo where the page is (`page`, `offset`, `limit`, `per_page`…).
   */
  readonly countFields: readonly CountField[];
  /**
   * Whether a cursor that is neither the mock's nor a record's id answers 400 (the operation documents a 400,
   * `4XX` or `default` response); otherwise the list starts from its first page.
   */
  readonly refusesBadCursor: boolean;
  /** The envelope field that gives the next cursor (`next_cursor`), if the response has one. */
  readonly nextField?: string;
  /** Whether that field may be `null` (on the last page), rather than left out. */
  readonly nextNullable: boolean;
  /**
   * Whether a cursor that names the page's last record fits where it goes: the next cursor field's schema and
   * the cursor parameter's (a contract may bound its length). Otherwise the mock's cursors only count the
   * records older than the page (see list-page.ts).
   */
  cursorFits(cursor: string): boolean;
  /** The envelope's boolean that says whether more records follow (`has_more`), if it has one. */
  readonly moreField?: string;
  /** The envelope fields that name the page's first or last record's id (`first_id`, `last_id`). */
  readonly edgeFields: readonly EdgeField[];
  /** The operation's `__bundled__` map, for edge field schemas whose `$ref`s point into it. */
  readonly bundle?: unknown;
  /** The generated part of the envelope (its fields besides the records): made by `make` on first use, then kept. */
  envelope(make: () => JsonObject): JsonObject;
}

/** An envelope field that counts the list's records or pages, or says where the page is. */
export interface CountField {
  readonly name: string;
  readonly counts: 'records' | 'pages' | 'page' | 'offset' | 'limit';
  /** The field's schema, in the draft of the envelope's schema. */
  readonly schema: JsonObject;
  /** Whether the envelope requires it: one that is not, and whose count its schema refuses, is left out. */
  readonly required: boolean;
}

/** An envelope field holding the id of the page's first or last record. */
export interface EdgeField {
  readonly name: string;
  readonly edge: 'first' | 'last';
  /** The field's schema, in the draft of the envelope's schema. */
  readonly schema: JsonObject;
}

/** What a create needs besides the request. */
export interface CreatePlan {
  /** The JSON schema of the request body, for defaults of fields not sent. */
  readonly requestSchema?: JsonObject;
  /** The record schema without the properties already decided (made once per set of names). */
  openPart(decided: string[]): JsonObject;
  /**
   * Whether a value sent for a field (or the request schema's default) may be kept in the record: the
   * request and the response declare the field alike, or the value fits the response's declaration.
   * Omitted: every value is kept.
   */
  keeps?(name: string, value: unknown): boolean;
  /**
   * Whether the client chooses the record's id (a key, a slug): the request requires it, and neither the request
   * nor the record makes it read-only. Otherwise the id is the server's, whatever was sent.
   */
  readonly takesId?: boolean;
  /**
   * Why a record cannot have `id`, or `undefined` when it can: an id is text or a finite number, a path must
   * carry it (not `""`, `.`, `..`), and the record's id schema, in the record's draft, must take it. An id a
   * client chose (in the body, or in the path of a PUT that creates) is checked here.
   */
  idRefusal(id: unknown): string | undefined;
}

/** What an update (the item's PUT or PATCH) needs besides the request. */
export interface UpdatePlan {
  /**
   * `replace` (PUT): the fields its request declares take what was sent, and those not sent their request
   * default, or are dropped unless the record requires them; `merge` (PATCH): what was sent is merged in as a
   * JSON Merge Patch (RFC 7396).
   */
  readonly mode: 'replace' | 'merge';
  /** The fields the request body declares; empty when it declares none (every record field may be sent). */
  readonly declared: ReadonlySet<string>;
  /** The request body's defaults, by field: a PUT that leaves a field out gives it its default, as a create does. */
  readonly defaults: ReadonlyMap<string, unknown>;
  /**
   * The request body's schema (its `allOf` merged) and its operation's `__bundled__`: what a client may send as an
   * object (a JSON Patch list is not one: see `patchValues`).
   */
  readonly requestSchema?: JsonObject;
  readonly requestBundle?: Record<string, unknown>;
  /**
   * What a JSON Patch's values are read by (a patch list says nothing of the record): the update's object schema
   * and the create's, each with its operation's `__bundled__`. Their `writeOnly` marks say what a record never keeps.
   */
  readonly patchValues: readonly { schema?: JsonObject; bundle?: Record<string, unknown> }[];
  /** The record's read-only fields: the server's, whatever a client sends. */
  readonly readOnly: ReadonlySet<string>;
  /**
   * How a PUT that documents 201 makes the record its path names when there is none (an upsert); none for a
   * PATCH, or a PUT that documents no 201: a missing record stays missing.
   */
  readonly creates?: CreatePlan;
}

const LIMIT_PARAMS = ['limit', 'page_size', 'pageSize', 'per_page', 'perPage', 'pagesize'];
const CURSOR_PARAMS = ['cursor', 'page_token', 'pageToken', 'after', 'starting_after'];
const PAGE_PARAMS = ['page', 'page_number', 'pageNumber', 'pageIndex'];
/** Names that page only when their schema is a number's: others may be filters (`size=XL`) or tokens. */
const AMBIGUOUS = new Set(['size', 'pagesize', 'skip', 'start', ...PAGE_PARAMS]);
const COUNT_FIELDS: Record<string, CountField['counts']> = {
  total: 'records',
  total_count: 'records',
  totalCount: 'records',
  total_results: 'records',
  totalResults: 'records',
  total_items: 'records',
  totalItems: 'records',
  totalElements: 'records',
  count: 'records',
  total_pages: 'pages',
  totalPages: 'pages',
  page_count: 'pages',
  pageCount: 'pages',
};
const NEXT_FIELDS = ['next_cursor', 'nextCursor', 'next_page_token', 'nextPageToken'];
const MORE_FIELDS = ['has_more', 'hasMore'];
const EDGE_FIELDS = { first_id: 'first', firstId: 'first', last_id: 'last', lastId: 'last' } as const;
/** Sets of sent fields remembered per create: optional fields make many, so the memo is bounded. */
const OPEN_PARTS = 256;

/** The collection plan of an operation, or `undefined` when it has no part in a collection. */
export function planCollection(operation: Operation, collections: CollectionMap): CollectionPlan | undefined {
  const found = collections.roles.get(operation);
  if (!found) return undefined;
  const { collection, role } = found;
  const keyOf = compileKey(collection.path);
  if (role === 'list') return { collection, role, keyOf, list: planList(operation, collection) };
  if (role === 'create') return { collection, role, keyOf, create: planCreate(operation, collection) };
  const missingIsNotFound = documents(operation, /^(404|4xx|default)$/i);
  if (role === 'update')
    return { collection, role, keyOf, missingIsNotFound, update: planUpdate(operation, collection) };
  if (role === 'remove') {
    const answered = successSchema(operation);
    const answersRecord = answered !== undefined && recordFits(answered, collection.schema);
    return { collection, role, keyOf, missingIsNotFound, answersRecord };
  }
  return { collection, role, keyOf, missingIsNotFound };
}

/**
 * The concrete path of a template for path parameters, each value percent-encoded: made once per parameters
 * object (routing hands out one frozen object per path), so a repeated path costs a lookup.
 * @example compileKey('/members/{member_id}/passes')({ member_id: 'm 1' }) // '/members/m%201/passes'
 */
export function compileKey(template: string): (pathParams: Readonly<Record<string, string>>) => string {
  const parts = template.split(/\{([^}]+)\}/);
  const made = new WeakMap<object, string>();
  return (pathParams) => {
    let key = made.get(pathParams);
    if (key === undefined) {
      key = parts.map((part, i) => (i % 2 === 0 ? part : encodeURIComponent(pathParams[part] ?? ''))).join('');
      made.set(pathParams, key);
    }
    return key;
  };
}

/** Whether the operation documents a response whose code matches (`404`, `4XX`, `default`). */
function documents(operation: Operation, codes: RegExp): boolean {
  return operation.spec.responses.some(({ code }) => codes.test(code));
}

function planList(operation: Operation, collection: Collection): ListPlan {
  const query = operation.spec.request?.query ?? [];
  // A page's size and place are numbers: a `size`, `start` or `page` typed otherwise (a filter, a page token) is
  // no paging of ours.
  const numeric = (name: string) => {
    const type = (query.find((q) => q.name === name)?.schema as JsonObject | undefined)?.type;
    return !AMBIGUOUS.has(name) || type === undefined || type === 'integer' || type === 'number';
  };
  const present = (name: string) => query.some((q) => q.name === name) && numeric(name);
  const named = (names: string[]) => names.find(present);
  const pageParam = named(PAGE_PARAMS);
  let offsetParam = named(['offset']);
  // A `size` is a page's size only beside a page or an offset (else a filter: a shoe size)…
  const limitParam = named(LIMIT_PARAMS) ?? (pageParam || offsetParam ? named(['size']) : undefined);
  // …and a `skip` or `start` an offset only beside a page size (else a filter: a start time).
  offsetParam ??= limitParam ? named(['skip', 'start']) : undefined;
  const limitSchema = (query.find((q) => q.name === limitParam)?.schema ?? {}) as JsonObject;
  const root = successSchema(operation) ?? {};
  const properties = propertiesOf(root);
  const nextField = NEXT_FIELDS.find((field) => field in properties);
  // A `page` typed as text where the list hands out a next page's token is that token, sent back; where it hands
  // out none, it is no paging (a filter, or a number the client sends as text).
  const textPage =
    nextField === undefined
      ? undefined
      : PAGE_PARAMS.find((name) => (query.find((q) => q.name === name)?.schema as JsonObject)?.type === 'string');
  const cursorParam = CURSOR_PARAMS.find((name) => query.some((q) => q.name === name)) ?? textPage;
  const pageSchema = (query.find((q) => q.name === pageParam)?.schema ?? {}) as JsonObject;
  const firstPage = [pageSchema.default, pageSchema.minimum].find(Number.isInteger) as number | undefined;
  const cursorSchema = query.find((q) => q.name === cursorParam)?.schema;
  // Made once: a check is kept by its schema object.
  const cursorChecks = [cursorSchema, nextField === undefined ? undefined : properties[nextField]]
    .filter(isObject)
    .map((schema) => inRootDraft(schema, root));
  const bundle = bundleOf(operation.spec);
  const where = listArray(operation, collection.schema) ?? [];
  // A list with no way to page past its first page (a `limit` that only caps it) answers all it holds, as far
  // as the contract lets a page go: the limit's `maximum`, the array's `maxItems`.
  const listed = (where.length === 0 ? root : properties[where[0]!]) ?? {};
  const caps = [limitSchema.maximum, listed.maxItems].filter((n): n is number => typeof n === 'number' && n >= 1);
  const pageable = pageParam || offsetParam || (limitParam && (cursorParam || nextField));
  const wanted = limitParam && typeof limitSchema.default === 'number' ? limitSchema.default : pageable ? 20 : Infinity;
  let envelope: JsonObject | undefined;
  return {
    envelope: (make) => (envelope ??= make()),
    where,
    limitParam,
    defaultLimit: Math.min(wanted, ...caps.map(Math.floor)),
    cursorParam,
    offsetParam,
    pageParam,
    firstPage: firstPage === 0 ? 0 : 1,
    countFields: countFieldsOf(root, properties, { page: pageParam, offset: offsetParam, limit: limitParam }),
    refusesBadCursor: documents(operation, /^(400|4xx|default)$/i),
    nextField,
    nextNullable: nextField !== undefined && isNullable(properties[nextField]),
    cursorFits: (cursor) => cursorChecks.every((schema) => valueFits(cursor, schema, bundle)),
    moreField: MORE_FIELDS.find((field) => properties[field]?.type === 'boolean'),
    edgeFields: Object.entries(EDGE_FIELDS)
      .filter(([name]) => isObject(properties[name]))
      .map(([name, edge]) => ({ name, edge, schema: inRootDraft(properties[name]!, root) })),
    bundle,
  };
}

/**
 * The envelope's integer fields that count the list (see {@link COUNT_FIELDS}), and those named like the page's,
 * offset's or limit's parameter, which echo where the page is.
 */
function countFieldsOf(
  root: JsonObject,
  properties: Record<string, JsonObject>,
  params: Record<'page' | 'offset' | 'limit', string | undefined>,
): CountField[] {
  const echoes = Object.entries(params).filter(([, param]) => param !== undefined) as [CountField['counts'], string][];
  const fields: CountField[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    if (!isObject(schema) || (schema.type !== 'integer' && schema.type !== 'number')) continue;
    const counts = echoes.find(([, param]) => param === name)?.[0] ?? COUNT_FIELDS[name];
    const required = Array.isArray(root.required) && root.required.includes(name);
    if (counts) fields.push({ name, counts, schema: inRootDraft(schema, root), required });
  }
  return fields;
}

const JSON_PATCH = /json-patch/i;

/**
 * The JSON schema of an operation's request body (its `allOf` merged), if it takes JSON. A JSON Patch's schema is
 * the list of operations, not what they change: it is passed over.
 */
export function requestSchemaOf(operation: Operation): JsonObject | undefined {
  const contents = operation.spec.request?.body?.contents ?? [];
  const found = contents.find((c) => /[/+]json\b/i.test(c.mediaType) && !JSON_PATCH.test(c.mediaType))?.schema;
  return isObject(found) ? mergedSchema(found) : undefined;
}

/**
 * Whether a value sent for a field may be kept in a record: fields whose request and response declarations
 * differ (an id sent, an object answered) have their values checked, each in the draft the record schema names.
 */
function keepsOf(
  operation: Operation,
  requestSchema: JsonObject | undefined,
  schema: JsonObject,
): (name: string, value: unknown) => boolean {
  const requested = propertiesOf(requestSchema);
  const answered = propertiesOf(schema);
  const differ = new Map(
    Object.keys(answered)
      .filter((name) => !sameSchema(requested[name], answered[name]))
      .map((name) => [name, inRootDraft(answered[name]!, schema)]),
  );
  const bundle = bundleOf(operation.spec);
  return (name, value) => {
    const field = differ.get(name);
    return field === undefined || valueFits(value, field, bundle);
  };
}

/** See {@link CreatePlan.idRefusal}: the id's schema put in the record's draft once, for its check to be kept. */
function idRefusalOf({ schema, idField, create }: Collection): (id: unknown) => string | undefined {
  const declared = propertiesOf(schema)[idField];
  const idSchema = isObject(declared) ? inRootDraft(declared, schema) : undefined;
  const bundle = answeredBundle(bundleOf(create.spec));
  return (id) => {
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id)))
      return 'an id is a string or a number';
    if (id === '' || id === '.' || id === '..') return 'no path can carry this id, so it could not be read back';
    if (idSchema !== undefined && !valueFits(id, idSchema, bundle)) return "it does not fit the record's id";
    return undefined;
  };
}

function planUpdate(operation: Operation, collection: Collection): UpdatePlan {
  // Of a record of kinds, the fields of every kind.
  const requestSchema = requestSchemaOf(operation);
  const requested = propertiesOf(requestSchema && recordShape(requestSchema));
  const answered = propertiesOf(recordShape(collection.schema));
  const defaults = Object.entries(requested).filter(([, field]) => field.default !== undefined);
  const requestBundle = bundleOf(operation.spec);
  return {
    mode: operation.method === 'patch' ? 'merge' : 'replace',
    requestSchema,
    requestBundle,
    patchValues: [
      { schema: requestSchema, bundle: requestBundle },
      { schema: requestSchemaOf(collection.create), bundle: bundleOf(collection.create.spec) },
    ],
    declared: new Set(Object.keys(requested)),
    defaults: new Map(defaults.map(([name, field]) => [name, field.default])),
    readOnly: new Set(Object.keys(answered).filter((name) => answered[name]!.readOnly === true)),
    creates:
      operation.method === 'put' && documents(operation, /^201$/) ? planCreate(operation, collection) : undefined,
  };
}

function planCreate(operation: Operation, collection: Collection): CreatePlan {
  const { schema, idField } = collection;
  const requestSchema = requestSchemaOf(operation);
  const requestShape = requestSchema && recordShape(requestSchema);
  const requestedId = propertiesOf(requestShape)[idField];
  const takesId =
    Array.isArray(requestShape?.required) &&
    requestShape.required.includes(idField) &&
    isObject(requestedId) &&
    requestedId.readOnly !== true &&
    recordProperties(schema)[idField]?.readOnly !== true;
  const parts = new BoundedTrieMemo<JsonObject>(OPEN_PARTS);
  return {
    requestSchema,
    keeps: keepsOf(operation, requestSchema, schema),
    takesId,
    idRefusal: idRefusalOf(collection),
    openPart(decided) {
      // The names themselves are the key's parts (a joined key made nothing decided and `['']` one key), after
      // their count: a trie's keys of one first part have one length (`[a]` would end where `[a, b]` goes on).
      const key = [decided.length, ...decided];
      const known = parts.get(key);
      if (known) return known;
      const keep = Object.entries(propertiesOf(schema)).filter(([name]) => !decided.includes(name));
      const required = Array.isArray(schema.required)
        ? schema.required.filter((name) => !decided.includes(name as string))
        : [];
      const { required: _all, ...rest } = schema;
      const part = { ...rest, properties: Object.fromEntries(keep) };
      return parts.set(key, required.length > 0 ? { ...part, required } : part);
    },
  };
}
