// Makes records that look alive and agree with the request: placeholders for a member seen the first time,
// and created records that keep what the client sent.
import type { BodyGenerator } from '../generate/generate-body.js';
import { hashSeed } from '../lib/hash-seed.js';
import { mulberry32 } from '../generate/quick-draw.js';
import type { CreatePlan } from '../plan/collection-plan.js';
import type { Collection } from '../plan/infer-collections.js';
import { kindsOf, recordShape } from '../plan/record-kinds.js';
import { ownersOf, ownerValues } from '../plan/path-echo.js';
import { inRootDraft, valueFits } from '../prism/schema-check.js';
import { recordBundle } from './record-bundle.js';
import { withoutWriteOnly } from './sent-values.js';
import { bundleOf } from '../schema/operation-bundle.js';
import { isNullable, isObject, propertiesOf, type JsonObject } from '../schema/schema-facts.js';
import { recordRoles } from './record-roles.js';
import { settleCreated, settlePlaceholder, type CreatedTimes } from './settle-record.js';
import type { StoredRecord } from './store.js';
import { isoTime } from '../lib/iso-time.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The time a member's placeholders were made over, two years at most, the newest at most half a year old. */
const SPAN = 730 * DAY;
const MAX_STEP = 182 * DAY;

/** Which placeholder to make: the collection's concrete path, the path parameters in scope, its index of `count`. */
export interface PlaceholderSlot {
  collectionKey: string;
  pathParams: Record<string, string>;
  index: number;
  count: number;
}

/**
 * A placeholder record, the same for the same seed, collection, index and `asOf`, whatever the clock says. The
 * placeholders of a collection were made before `asOf` (the generator's anchor unless given), oldest first, months
 * apart (closer when there are many); each one's times agree with its status as of `asOf` (see settlePlaceholder).
 * What is drawn (its id, its name, its status) does not depend on `asOf`: another day moves only its times.
 * @example makePlaceholder(generator, collection, { collectionKey: '/members/m1/passes', pathParams, index: 0, count: 3
 * })
 */
export function makePlaceholder(
  generator: BodyGenerator,
  collection: Collection,
  slot: PlaceholderSlot,
  asOf = generator.anchor,
): StoredRecord {
  const { collectionKey, index } = slot;
  return drawFitting(
    collection,
    `placeholder|${collectionKey}|${index}`,
    (key) => drawPlaceholder(generator, collection, slot, asOf, key),
    fitsRecordSchema(collection),
  );
}

function drawPlaceholder(
  generator: BodyGenerator,
  collection: Collection,
  { pathParams, index, count }: PlaceholderSlot,
  asOf: Date,
  key: string,
): StoredRecord {
  // A record of kinds is drawn from one of them, whole (the record's own fields and its required id with it).
  const kinds = kindsOf(collection.schema);
  const schema = kinds.length > 0 ? kinds[hashSeed(`${key}|kind`) % kinds.length]! : collection.schema;
  const record = asRecord(generator.generate(schema, key, recordBundle(collection)));
  // The record's own numbers: from its key and what was drawn for it (which follows the seed).
  const random = mulberry32(hashSeed(`${key}|${JSON.stringify(record)}`));
  const step = Math.min(SPAN / Math.max(count, 1), MAX_STEP);
  let made = asOf.getTime() - (count - index) * step + (random() * step) / 2;
  // Days apart (a day or more between neighbours), they were made in the daytime, 08:00 to 20:00.
  if (step >= 2 * DAY) made = Math.floor(made / DAY) * DAY + (8 + 12 * random()) * HOUR;
  const created = new Date(Math.floor(made / 60_000) * 60_000);
  settlePlaceholder(record, recordRoles(collection.schema), { created, ref: asOf, random });
  return echoPathParams(record, collection, pathParams);
}

/** What a create was sent: its generation key, the path parameters, the body, and the time it happens. */
export interface CreateRequest {
  key: string;
  pathParams: Record<string, string>;
  sent: unknown;
  now: Date;
  /**
   * The references to its parents the path fills (`ownersOf(collection, pathParams)`), when the caller has them
   * already: records completed by the thousand under one path (a data file) ask for the same ones.
   */
  owners?: Readonly<Record<string, string>>;
  /**
   * The id the client chose, as {@link chosenId} read it from `sent` (`undefined`: the server makes the id), when the
   * caller has read it already to refuse a taken one. Left out, it is read here.
   */
  chosen?: ChosenId;
}

/** What a create says of the id it was sent: kept, refused (and why), or none to keep (`undefined`). */
export type ChosenId = { id: string | number } | { refused: string } | undefined;

/**
 * A record made by a create. Fields the client sent are kept where they fit the record schema (see
 * {@link CreatePlan.keeps}: the record follows the response, not the request); fields it left out take the request
 * schema's `default`, else stay out when the client could have sent them and the record does not require them
 * (see {@link unsentFields}); a new record's non-nullable timestamps are the time of creation, its nullable
 * fields are `null`, and its enums take their first value (the initial state); then its times and status
 * are made to agree with what was sent (see settleCreated: a pass sent with an end in the past is expired).
 * @example makeCreated(generator, collection, plan, { key: 'POST /members/m1/passes|1', pathParams, sent: {}, now })
 */
export function makeCreated(
  generator: BodyGenerator,
  collection: Collection,
  plan: CreatePlan,
  request: CreateRequest,
): StoredRecord {
  const { key, pathParams, sent, now, owners = ownersOf(collection, pathParams) } = request;
  // A write-only field sent inside an object (a `password` in an `owner`) is not kept either.
  const sentBundle = bundleOf(collection.create.spec);
  const body = isObject(sent) ? (withoutWriteOnly(sent, plan.requestSchema, sentBundle) as JsonObject) : {};
  const properties = propertiesOf(collection.schema);
  const requested = propertiesOf(plan.requestSchema);
  const fixed: StoredRecord = {};
  const decided = new Set<string>();
  const unsent = unsentFields(collection, plan, body);
  // What the references to its parents are written with (a number where the field takes one), looked up once.
  const ownerFields = ownerValues(owners);
  const chosen = 'chosen' in request ? request.chosen : chosenId(collection, plan, body);
  if (chosen !== undefined && 'id' in chosen) fixed[collection.idField] = chosen.id;
  for (const name in properties) {
    if (!Object.hasOwn(properties, name) || name === collection.idField) continue;
    const schema = properties[name]!;
    // The path wins: a record created under /members/m1 belongs to m1, whatever the body says.
    if (Object.hasOwn(owners, name)) fixed[name] = ownerFields[name];
    else if (Object.hasOwn(body, name) && keeps(plan, name, body[name])) fixed[name] = copyOf(body[name]);
    else if (
      isObject(requested[name]) &&
      requested[name].default !== undefined &&
      keeps(plan, name, requested[name].default)
    )
      fixed[name] = copyOf(requested[name].default);
    if (Object.hasOwn(fixed, name)) decided.add(name);
    else if (unsent.has(name)) continue;
    else {
      const fresh = freshValue(schema, now);
      if (fresh !== undefined) fixed[name] = fresh;
    }
  }
  // A default or the path decided it: it is not left out.
  for (const name of Object.keys(fixed)) unsent.delete(name);
  // A schema built with oneOf/anyOf keeps its fields out of reach here: draw it whole, then settle.
  const schema = collection.schema;
  const times = { now, decided };
  if (Object.keys(properties).length === 0 || schema.allOf || schema.oneOf || schema.anyOf) {
    const bundle = recordBundle(collection);
    const requestedFields = propertiesOf(plan.requestSchema && recordShape(plan.requestSchema));
    const inKind = sentInBranch(generator, collection, {
      key,
      pathParams,
      body,
      fixed,
      times,
      bundle,
      requestedFields,
    });
    if (inKind) return inKind;
    return drawFitting(
      collection,
      key,
      (drawKey) => {
        const drawn = { ...asRecord(generator.generate(schema, drawKey, bundle)), ...fixed };
        // A oneOf branch may require what the client did not send: it stays then.
        const lean = Object.fromEntries(Object.entries(drawn).filter(([name]) => !unsent.has(name)));
        const whole = valueFits(lean, schema, bundle) ? lean : drawn;
        settleCreated(echoPathParams(whole, collection, pathParams), recordRoles(schema), times);
        return whole;
      },
      fitsRecordSchema(collection),
    );
  }
  // Only what is still open is generated (the id, say): drawing a whole record to overwrite most of it
  // was the largest cost of a create.
  const part = plan.openPart([...Object.keys(fixed), ...unsent]);
  const bundle = recordBundle(collection);
  const build = (drawKey: string): StoredRecord => {
    const open = asRecord(generator.generate(part, drawKey, bundle));
    const record: StoredRecord = {};
    for (const name of Object.keys(properties)) {
      if (Object.hasOwn(fixed, name)) record[name] = fixed[name];
      else if (Object.hasOwn(open, name)) record[name] = open[name];
    }
    settleCreated(record, recordRoles(schema), times);
    return record;
  };
  // A schema whose keywords tie fields together (`dependentRequired`, `maxProperties`…) is checked whole: a draw
  // of the open fields can mend what the fixed ones break there.
  const check = fieldChecks(schema);
  if (check === 'whole') return drawFitting(collection, key, build, fitsRecordSchema(collection));
  // Otherwise only the drawn fields can differ from one draw to the next: each is checked against its own
  // schema (compiled once, whatever the open part), and the required ones must be there. Checking the whole
  // record again was a twelfth of a create.
  const drawn = Object.keys(isObject(part.properties) ? part.properties : {});
  const drawnFit = (record: StoredRecord) =>
    drawn.every((name) =>
      Object.hasOwn(record, name) ? fieldFits(record[name], check.fields[name], bundle) : !check.required.has(name),
    );
  return drawFitting(collection, key, build, drawnFit);
}

/**
 * The id a create was sent, where the client chooses it ({@link CreatePlan.takesId}): `{ id }` when the record can
 * have it, `{ refused }` saying why not (it breaks the record's id schema, or no path can carry it: `""`, `.`,
 * `..`); `undefined` when the server makes the id.
 * @example chosenId(collection, plan, { id: 'my-key', value: 'v' }) // { id: 'my-key' }
 */
export function chosenId(collection: Collection, plan: CreatePlan, body: unknown): ChosenId {
  if (!plan.takesId || !isObject(body) || !Object.hasOwn(body, collection.idField)) return undefined;
  const id = body[collection.idField];
  const refused = plan.idRefusal(id);
  return refused === undefined ? { id: id as string | number } : { refused };
}

/** What a create made of a `oneOf`/`anyOf` record has decided before it draws. */
interface BranchCreate {
  key: string;
  pathParams: Record<string, string>;
  body: JsonObject;
  fixed: StoredRecord;
  times: CreatedTimes;
  bundle: unknown;
  /** The fields the create's request declares, of every kind: their defaults are kept as sent. */
  requestedFields: Record<string, JsonObject>;
}

/**
 * What a new record's field starts as when nothing decided it: `null` where it may be, an enum's first value
 * (the initial state), a date-time the time of creation; `undefined`: as drawn.
 */
function freshValue(schema: JsonObject, now: Date): unknown {
  if (isNullable(schema)) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return copyOf(schema.enum[0]);
  if (schema.format === 'date-time') return iso(now);
  return undefined;
}

/**
 * Starts the fields of a record drawn of a kind that nothing decided as a create starts them (see freshValue;
 * a request default first), and answers what is decided then: what was sent, defaulted or fixed by the path.
 */
function freshen(
  record: StoredRecord,
  kind: JsonObject,
  sent: StoredRecord,
  create: BranchCreate,
  idField: string,
): Set<string> {
  // The id is the server's, and stays as drawn.
  const decided = new Set([idField, ...create.times.decided, ...Object.keys(sent), ...Object.keys(create.fixed)]);
  for (const [name, schema] of Object.entries(propertiesOf(kind))) {
    if (!Object.hasOwn(record, name) || decided.has(name) || !isObject(schema)) continue;
    const requested = create.requestedFields[name];
    if (isObject(requested) && requested.default !== undefined && valueFits(requested.default, schema, create.bundle)) {
      record[name] = copyOf(requested.default);
      decided.add(name);
      continue;
    }
    const fresh = freshValue(schema, create.times.now);
    if (fresh !== undefined) record[name] = fresh;
  }
  return decided;
}

/**
 * A record of a `oneOf`/`anyOf` schema that keeps what was sent: drawn from the kind (a cat, a dog) that
 * declares the most of it and refuses none of it, with what was sent laid over, and checked whole; `undefined`
 * when no kind takes it, or nothing was sent that a kind declares. Drawn whole, a record took a random kind,
 * and a dog sent came back a cat. Of `anyOf` kinds, every field sent that one declares is kept.
 */
function sentInBranch(
  generator: BodyGenerator,
  collection: Collection,
  create: BranchCreate,
): StoredRecord | undefined {
  const { schema } = collection;
  const fitsWhole = fitsRecordSchema(collection);
  const exclusive = Array.isArray(schema.oneOf);
  const kinds = kindsOf(schema);
  const declaredAnywhere = Object.assign({}, ...kinds.map(propertiesOf)) as Record<string, JsonObject>;
  const chosen = kinds
    .map((kind) => ({ kind, sent: sentFor(collection, propertiesOf(kind), create) }))
    .filter(({ sent }) => Object.keys(sent).length > 0)
    // A kind that refuses a value sent is not the one: a `pet_type: dog` rules the cat out before any draw.
    .filter(({ kind, sent }) =>
      Object.keys(sent).every((name) => fieldFits(sent[name], propertiesOf(kind)[name], create.bundle)),
    )
    .sort((a, b) => Object.keys(b.sent).length - Object.keys(a.sent).length);
  for (const { kind, sent: own } of chosen) {
    const sent = exclusive ? own : sentFor(collection, declaredAnywhere, create);
    const required = new Set(Array.isArray(kind.required) ? kind.required : []);
    // The record is of this kind, whole: a cat's fields drawn around a dog's values would fit the dog too.
    const fits = (record: StoredRecord) => (!exclusive || valueFits(record, kind, create.bundle)) && fitsWhole(record);
    const record = drawFitting(
      collection,
      create.key,
      (drawKey) => {
        const drawn = { ...asRecord(generator.generate(kind, drawKey, create.bundle)), ...create.fixed, ...sent };
        // What was not sent and is not required stays out, as in any record (see unsentFields).
        const lean: StoredRecord = {};
        for (const name of Object.keys(drawn)) {
          const keep =
            name === collection.idField ||
            required.has(name) ||
            Object.hasOwn(sent, name) ||
            Object.hasOwn(create.fixed, name);
          if (keep) lean[name] = drawn[name];
        }
        const whole = fits(lean) ? lean : drawn;
        const decided = freshen(whole, kind, sent, create, collection.idField);
        settleCreated(echoPathParams(whole, collection, create.pathParams), recordRoles(kind), {
          now: create.times.now,
          decided,
        });
        return whole;
      },
      fits,
    );
    if (fits(record)) return record;
  }
  return undefined;
}

/** What was sent that these fields declare and a client may set (not the id, nor a read-only field), copied. */
function sentFor(collection: Collection, declared: Record<string, JsonObject>, create: BranchCreate): StoredRecord {
  const sent: StoredRecord = {};
  for (const name of Object.keys(create.body)) {
    if (name === collection.idField || !Object.hasOwn(declared, name) || declared[name]!.readOnly === true) continue;
    if (Object.hasOwn(create.fixed, name)) continue;
    sent[name] = copyOf(create.body[name]);
  }
  return sent;
}

/**
 * Keywords of an object schema that tie its fields together (a field fits or not depending on the others), or
 * that bring in constraints the fields' own schemas do not show (a `$ref` beside `properties`).
 */
const TYING = [
  ...['minProperties', 'maxProperties', 'dependencies', 'dependentRequired', 'dependentSchemas'],
  ...['if', 'then', 'else', 'not', 'propertyNames', 'patternProperties', 'unevaluatedProperties'],
  ...['enum', 'const', '$ref', '$dynamicRef', '$recursiveRef'],
];

/** How a record schema's drawn fields are checked: whole (see {@link TYING}), or field by field. */
type FieldChecks = 'whole' | { required: ReadonlySet<unknown>; fields: Readonly<Record<string, unknown>> };

const fieldChecksOf = new WeakMap<object, FieldChecks>();

/**
 * The checks of a record schema's fields, made once a schema: each property's schema, carrying the record's
 * `$schema` (the draft it is checked in: only the record's root names it), and the required names.
 */
function fieldChecks(schema: JsonObject): FieldChecks {
  let known = fieldChecksOf.get(schema);
  if (known !== undefined) return known;
  if (TYING.some((keyword) => schema[keyword] !== undefined)) known = 'whole';
  else {
    const fields: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(propertiesOf(schema))) fields[name] = inRootDraft(field, schema);
    known = { required: new Set(Array.isArray(schema.required) ? schema.required : []), fields };
  }
  fieldChecksOf.set(schema, known);
  return known;
}

/** Whether a field's value fits its schema (a boolean schema: `false` fits nothing; none: anything). */
function fieldFits(value: unknown, schema: unknown, bundle: unknown): boolean {
  return typeof schema === 'object' && schema !== null ? valueFits(value, schema, bundle) : schema !== false;
}

/** Whether the record keeps a value sent (or defaulted) for a field: see {@link CreatePlan.keeps}. */
function keeps(plan: CreatePlan, name: string, value: unknown): boolean {
  return plan.keeps?.(name, value) ?? true;
}

/**
 * The fields a create leaves out when the client did not send them: those its request declares (the client
 * could have sent them and chose not to) that the record does not require. What only the server sets stays
 * made: the id, a field the record or the request marks `readOnly`, a field the request does not declare. A
 * create with no JSON request schema leaves out nothing, as it cannot tell.
 */
function unsentFields(collection: Collection, plan: CreatePlan, body: JsonObject): Set<string> {
  const unsent = new Set<string>();
  for (const name of optionalFields(collection, plan)) if (!Object.hasOwn(body, name)) unsent.add(name);
  return unsent;
}

/** The fields of a plan's request a create may leave out (see {@link unsentFields}), by plan: found once. */
const optionalByPlan = new WeakMap<CreatePlan, { collection: Collection; fields: readonly string[] }>();

function optionalFields(collection: Collection, plan: CreatePlan): readonly string[] {
  const known = optionalByPlan.get(plan);
  if (known?.collection === collection) return known.fields;
  const requested = propertiesOf(plan.requestSchema);
  const properties = propertiesOf(collection.schema);
  const required = new Set(Array.isArray(collection.schema.required) ? collection.schema.required : []);
  const readOnly = (schema: unknown) => isObject(schema) && schema.readOnly === true;
  const fields = Object.keys(requested).filter(
    (name) =>
      name !== collection.idField && !required.has(name) && !readOnly(requested[name]) && !readOnly(properties[name]),
  );
  optionalByPlan.set(plan, { collection, fields });
  return fields;
}

/** How many records are drawn at most for one: the generator misses now and then (a oneOf, a deep field). */
const DRAWS = 4;

/**
 * The first record `draw` makes (under `key`, then `key|draw1`, …) that `fits`, or the last of {@link DRAWS}:
 * state answers its records for as long as it keeps them, so one drawn wrong is wrong for good.
 */
function drawFitting(
  collection: Collection,
  key: string,
  draw: (key: string) => StoredRecord,
  fits: (record: StoredRecord) => boolean,
): StoredRecord {
  // An empty id fits `type: string` but no path can carry it (`/things/` is another path): it is drawn again.
  const ok = (record: StoredRecord) => record[collection.idField] !== '' && fits(record);
  let record = draw(key);
  for (let n = 1; n < DRAWS && !ok(record); n++) record = draw(`${key}|draw${n}`);
  return record;
}

/** Whether a record fits the collection's record schema, whole. */
function fitsRecordSchema(collection: Collection): (record: StoredRecord) => boolean {
  const bundle = recordBundle(collection);
  return (record) => valueFits(record, collection.schema, bundle);
}

/**
 * Writes the path's parameters into the record's references to its parents (`member_id` under
 * `/members/m1/passes`, `identity_id` under `/identities/i1/sessions`), each where its value fits the field;
 * never into the record's own id.
 */
export function echoPathParams(
  record: StoredRecord,
  collection: Collection,
  pathParams: Record<string, string>,
): StoredRecord {
  return Object.assign(record, ownerValues(ownersOf(collection, pathParams)));
}

function asRecord(value: unknown): StoredRecord {
  return isObject(value) ? value : {};
}

/** A copy a record can own: strings, numbers and null are their own copies; objects and arrays are cloned. */
function copyOf<T>(value: T): T {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

/** The last moment written by {@link iso}: records completed together (fixtures) are made at one moment. */
let lastIso = { time: NaN, text: '' };

function iso(date: Date): string {
  const time = date.getTime();
  if (time === lastIso.time) return lastIso.text;
  const text = isoTime(date);
  lastIso = { time, text: time % 1000 === 0 ? text.replace('.000Z', 'Z') : text };
  return lastIso.text;
}
