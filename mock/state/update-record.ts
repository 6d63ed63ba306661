// The record an update (the item's PUT or PATCH) leaves: what was sent laid over the stored record, the id,
// the path's owners and read-only fields kept the server's, the update time set; or why it would not fit.
import type { UpdatePlan } from '../plan/collection-plan.js';
import type { Collection } from '../plan/infer-collections.js';
import { ownersOf } from '../plan/path-echo.js';
import { recordShape } from '../plan/record-kinds.js';
import { schemaFindings, valueFits } from '../prism/schema-check.js';
import { isNullable, isObject, propertiesOf, type JsonObject } from '../schema/schema-facts.js';
import { withoutWriteOnly } from './sent-values.js';
import { recordBundle } from './record-bundle.js';
import { recordRoles } from './record-roles.js';
import { isoTime } from '../lib/iso-time.js';
// A CommonJS package to Node (its ES module is for bundlers): its functions are read from the default export.
import jsonPatch, { type Operation as PatchOperation } from 'fast-json-patch';
import type { StoredRecord } from './store.js';

/** What an update asks: the path's parameters, the body sent, its media type, and the time of the change. */
export interface UpdateRequest {
  pathParams: Readonly<Record<string, string>>;
  body: unknown;
  contentType?: string;
  now: Date;
}

/** The updated record, or what in it would break the record schema (nothing is stored then). */
export type Updated = { record: StoredRecord } | { unfit: { pointer: string; message: string }[] };

/**
 * The record an update leaves. PUT (`replace`) sets the fields its request declares to what was sent, gives
 * those not sent their request default, or drops them unless the record requires them; PATCH (`merge`) merges
 * the body in as RFC 7396 says (`null` removes a field; with plain `application/json`, a field that takes
 * `null` takes it), or applies a JSON Patch (`application/json-patch+json`, RFC 6902) sent as a list. A field the
 * client may not set (the id, an owner from the path, a read-only one) is passed over. The record is then checked
 * whole: a value it refuses makes the change unfit, and nothing of it is kept. `undefined` when the body is
 * neither a JSON object nor a JSON Patch.
 * @example updateRecord(collection, plan.update, stored, { pathParams, body: { title: 'New' }, now: new Date() })
 */
export function updateRecord(
  collection: Collection,
  plan: UpdatePlan,
  stored: StoredRecord,
  request: UpdateRequest,
): Updated | undefined {
  const jsonPatch = plan.mode === 'merge' && Array.isArray(request.body) && JSON_PATCH.test(request.contentType ?? '');
  if (!isObject(request.body) && !jsonPatch) return undefined;
  // A record of kinds (a cat, a dog) is updated by the fields of them all; the record is checked whole after.
  const shape = recordShape(collection.schema);
  const properties = propertiesOf(shape);
  const bundle = recordBundle(collection);
  const open = Object.keys(properties).length === 0;
  const owners = ownersOf(collection, request.pathParams);
  const settable = (name: string) =>
    (open || Object.hasOwn(properties, name)) &&
    name !== collection.idField &&
    !Object.hasOwn(owners, name) &&
    !plan.readOnly.has(name);
  const required = new Set(Array.isArray(shape.required) ? shape.required : []);
  if (jsonPatch) {
    const patched = jsonPatched(stored, request.body as unknown[], settable);
    if ('unfit' in patched) return patched;
    // A write-only field a value carries (a `password` in an `owner` added) is not kept, as in a merge.
    let kept = patched.record;
    for (const values of plan.patchValues) kept = withoutWriteOnly(kept, values.schema, values.bundle) as StoredRecord;
    return checked(collection, shape, kept, patched.touched, request.now);
  }
  // A write-only field sent inside an object (a `password` in an `owner`) is not kept either.
  const body = withoutWriteOnly(request.body, plan.requestSchema, plan.requestBundle) as JsonObject;
  const record: StoredRecord = { ...stored };
  if (plan.mode === 'replace') {
    const names = open ? Object.keys(body) : Object.keys(properties);
    for (const name of names) {
      if (!settable(name)) continue;
      if (Object.hasOwn(body, name)) record[name] = structuredClone(body[name]);
      else if (plan.declared.size > 0 && !plan.declared.has(name)) continue;
      else if (plan.defaults.has(name)) record[name] = structuredClone(plan.defaults.get(name));
      else if (!required.has(name)) delete record[name];
    }
  } else {
    const mergePatch = /merge-patch/i.test(request.contentType ?? '');
    // A field takes null when its schema lets it: `nullable`, a type list with null, or an `anyOf` with null.
    const takesNull = (name: string) =>
      isObject(properties[name]) && (isNullable(properties[name]) || valueFits(null, properties[name], bundle));
    for (const [name, value] of Object.entries(body)) {
      if (!settable(name)) continue;
      if (value === null && (mergePatch || !takesNull(name))) delete record[name];
      else record[name] = mergePatchOf(record[name], value);
    }
  }
  const sent = Object.keys(body).filter(settable);
  return checked(collection, shape, record, new Set(sent), request.now);
}

const JSON_PATCH = /json-patch/i;

/**
 * The record a JSON Patch (RFC 6902) leaves, its operations applied in order to a copy; or why it cannot
 * apply (a `test` that fails, a path that is not there, an operation that is none). What it did to a field the
 * client may not set (the id, an owner, a read-only field) is undone, as a merge patch passes such a field over.
 */
function jsonPatched(
  stored: StoredRecord,
  operations: unknown[],
  settable: (name: string) => boolean,
): { record: StoredRecord; touched: Set<string> } | Exclude<Updated, { record: StoredRecord }> {
  let record: StoredRecord;
  try {
    const patched = jsonPatch.applyPatch(
      structuredClone(stored),
      operations as PatchOperation[],
      true,
      true,
      true,
    ).newDocument;
    // An operation on the whole document (path "") may leave something else than an object.
    if (!isObject(patched)) return { unfit: [{ pointer: '/', message: 'the patch leaves no object' }] };
    record = patched;
  } catch (error) {
    const { operation, message } = error as { operation?: { path?: unknown }; message?: string };
    const pointer = typeof operation?.path === 'string' ? operation.path : '/';
    // fast-json-patch's message names its error and repeats the operation after a newline: its first line.
    return { unfit: [{ pointer, message: (message ?? 'the patch cannot be applied').split('\n')[0]! }] };
  }
  // The top-level fields the operations named (a `move` names two).
  const touched = new Set<string>();
  for (const op of operations as { path?: unknown; from?: unknown }[])
    for (const path of [op.path, op.from]) {
      if (typeof path !== 'string') continue;
      // The whole document (path ""): every field, before and after.
      if (path === '') for (const name of [...Object.keys(stored), ...Object.keys(record)]) touched.add(name);
      else touched.add(topField(path));
    }
  for (const name of touched) {
    if (settable(name)) continue;
    if (Object.hasOwn(stored, name)) record[name] = stored[name];
    else delete record[name];
  }
  return { record, touched: new Set([...touched].filter(settable)) };
}

/** The top-level field a JSON Pointer names (`/tags/0` → `tags`, `~1` and `~0` read back). */
function topField(pointer: string): string {
  return (pointer.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The record an update leaves, its time of change stamped unless sent, checked whole against its schema. */
function checked(
  collection: Collection,
  shape: JsonObject,
  record: StoredRecord,
  sent: ReadonlySet<string>,
  at: Date,
): Updated {
  // As a create writes its times (to the millisecond), so an update is never before the record's creation.
  const now = isoTime(at);
  for (const field of recordRoles(shape).updated) {
    if (!sent.has(field.name)) record[field.name] = field.dateOnly ? now.slice(0, 10) : now;
  }
  const bundle = recordBundle(collection);
  const findings = schemaFindings(record, collection.schema, bundle, 1, 'record');
  if (findings.length > 0) {
    // Prism words them for a response body (`Response record parameter title must …`): the pointer names the field.
    const message = (text: string) => text.replace(/^Response record\s*(?:(?:parameter|property) \S+ )?/, '');
    const pointer = (path: readonly (string | number)[] = []) => `/${path.slice(1).join('/')}`;
    return { unfit: findings.map((f) => ({ pointer: pointer(f.path), message: message(f.message) })) };
  }
  return { record };
}

/**
 * RFC 7396's MergePatch: an object sent is merged into the object there (its `null`s remove), anything else
 * takes the place of what is there. Makes new objects; what it keeps of the stored record is shared, not copied.
 */
function mergePatchOf(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete out[name];
    else out[name] = mergePatchOf(out[name], value);
  }
  return out;
}
