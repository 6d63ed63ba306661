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
 * `null` takes it). A field the client may not set (the id, an owner from the path, a read-only one) is passed
 * over. The record is then checked whole: a value it refuses makes the change unfit, and nothing of it is kept.
 * `undefined` when the body is not a JSON object (a JSON Patch list, say).
 * @example updateRecord(collection, plan.update, stored, { pathParams, body: { title: 'New' }, now: new Date() })
 */
export function updateRecord(
  collection: Collection,
  plan: UpdatePlan,
  stored: StoredRecord,
  request: UpdateRequest,
): Updated | undefined {
  if (!isObject(request.body)) return undefined;
  // A write-only field sent inside an object (a `password` in an `owner`) is not kept either.
  const body = withoutWriteOnly(request.body, plan.requestSchema, plan.requestBundle) as JsonObject;
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
  const sent = (name: string) => Object.hasOwn(body, name) && settable(name);
  // As a create writes its times (to the millisecond), so an update is never before the record's creation.
  const now = isoTime(request.now);
  for (const field of recordRoles(shape).updated) {
    if (!sent(field.name)) record[field.name] = field.dateOnly ? now.slice(0, 10) : now;
  }
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
