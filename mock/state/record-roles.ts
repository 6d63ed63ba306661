// Reads what a record's fields mean for its life (made, starts, ends, changed, ended) from their names and enum.
import { snakeCase } from '../generate/name-hints.js';
import { isNullable, propertiesOf, type JsonObject } from '../schema/schema-facts.js';

/** A date or date-time field: its name, whether it may be `null`, and whether it holds a date only. */
export interface TimeField {
  name: string;
  nullable: boolean;
  dateOnly: boolean;
}

/**
 * A timestamp set when the status becomes `value` (`revoked_at` for `revoked`); `value` absent: an end-like one the
 * status has no value for.
 */
export interface StatusStamp extends TimeField {
  value?: string;
}

/**
 * The status field and how its values read: ended (`expired`), not begun yet (`scheduled`), or else live; `live`
 * holds those that read as live for sure (`active`, and the first value when it reads as neither).
 */
export interface StatusRole {
  name: string;
  values: readonly string[];
  ended: ReadonlySet<string>;
  upcoming: ReadonlySet<string>;
  live: ReadonlySet<string>;
  /** The first value that reads as neither ended nor not begun: a new record's status when its first value is ended. */
  firstLive?: string;
  /** The status of a record whose end has passed: the first value that reads as expiry, else the first ended one. */
  afterEnd?: string;
}

/** A boolean that says whether the record is live (`active`, `is_enabled`) or ended (`expired`, `is_revoked`). */
export interface FlagField {
  name: string;
  meansEnded: boolean;
}

/** What the fields of a record schema mean for its life; every list may be empty. */
export interface RecordRoles {
  status?: StatusRole;
  created: TimeField[];
  updated: TimeField[];
  starts: TimeField[];
  ends: TimeField[];
  stamps: StatusStamp[];
  /** Dates that look ahead: `next_billing_at`, `due_date`, `renews_at`. */
  upcoming: TimeField[];
  /** Other dates: moments in the record's past (`last_used_at`). */
  past: TimeField[];
  flags: FlagField[];
  /** The date-only fields among `created`, `updated` and `past`: a new record's are set to its day. */
  days: TimeField[];
}

const ENDED = new Set(
  'expired ended revoked cancelled canceled closed inactive terminated deactivated disabled archived lapsed finished completed retired void voided withdrawn deleted removed churned'.split(
    ' ',
  ),
);
const EXPIRY = new Set('expired lapsed ended finished completed inactive'.split(' '));
const UPCOMING = new Set('scheduled upcoming planned future not_started notstarted'.split(' '));
const LIVE = new Set('active valid enabled open live current ongoing running'.split(' '));
const STATUS_NAME = /^(status|state|lifecycle|phase)$|_(status|state)$/;
const SUFFIX = '(_at|_on|_date|_time|_timestamp)?$';
const CREATED = new RegExp(
  `^(created|creation|inserted|registered|issued|joined|enrolled|signed_up|date_created)${SUFFIX}`,
);
const UPDATED = new RegExp(`^(updated|modified|last_modified|last_updated|changed|edited|date_modified)${SUFFIX}`);
const START = new RegExp(`(^|_)(start|starts|begin|begins|commence|commences)${SUFFIX}|(^|_)(from|since)$`);
const END = new RegExp(
  `(^|_)(end|ends|expiry|expires|expiration|expire|close|closes)${SUFFIX}|(^|_)(until|to|through|thru)$`,
);
const ENDED_STAMP =
  /^(revoked|suspended|cancell?ed|closed|terminated|deactivated|disabled|archived|deleted|expired|ended|finished|completed|withdrawn)_(at|on|date|time)$/;
const UPCOMING_NAME = new RegExp(`^next_|(^|_)(due|renews|renewal|renew|scheduled|remind|reminder)${SUFFIX}`);
const BIRTH = /birth|^dob$|^born/;
const LIVE_FLAG = /^(is_)?(active|enabled|valid|current|live)$/;
const ENDED_FLAG = /^(is_)?(expired|revoked|cancell?ed|closed|ended|inactive|disabled|archived|deleted|terminated)$/;

const known = new WeakMap<object, RecordRoles>();

/**
 * The roles of a record schema's top-level fields, worked out once per schema object. Names are read in
 * snake case; only `date` and `date-time` strings get time roles, only booleans flag roles, and the status is
 * the string enum named like one (`status`, `state`, `…_status`), else the first whose values read as a life.
 * @example recordRoles(passSchema).ends // [{ name: 'valid_until', nullable: true, dateOnly: false }]
 */
export function recordRoles(schema: JsonObject): RecordRoles {
  const hit = known.get(schema);
  if (hit) return hit;
  const properties = Object.entries(propertiesOf(schema));
  const status = findStatus(properties);
  const roles: RecordRoles = {
    created: [],
    updated: [],
    starts: [],
    ends: [],
    stamps: [],
    upcoming: [],
    past: [],
    flags: [],
    days: [],
  };
  if (status) roles.status = status;
  for (const [name, property] of properties) {
    const key = snakeCase(name);
    if (property.type === 'boolean' && (LIVE_FLAG.test(key) || ENDED_FLAG.test(key))) {
      roles.flags.push({ name, meansEnded: ENDED_FLAG.test(key) });
      continue;
    }
    if ((property.format !== 'date-time' && property.format !== 'date') || BIRTH.test(key)) continue;
    const field: TimeField = { name, nullable: isNullable(property), dateOnly: property.format === 'date' };
    const stem = key.replace(/_(at|on|date|time|timestamp)$/, '');
    const value = status?.values.find((v) => stem !== key && same(v, stem));
    if (value !== undefined) roles.stamps.push({ ...field, value });
    else if (status && ENDED_STAMP.test(key)) roles.stamps.push(field);
    else if (CREATED.test(key)) roles.created.push(field);
    else if (UPDATED.test(key)) roles.updated.push(field);
    else if (UPCOMING_NAME.test(key)) roles.upcoming.push(field);
    else if (END.test(key) || ENDED_STAMP.test(key)) roles.ends.push(field);
    else if (START.test(key)) roles.starts.push(field);
    else roles.past.push(field);
  }
  roles.days = [...roles.created, ...roles.updated, ...roles.past].filter((field) => field.dateOnly);
  known.set(schema, roles);
  return roles;
}

function findStatus(properties: [string, JsonObject][]): StatusRole | undefined {
  const enums = properties.filter(
    ([, property]) => Array.isArray(property.enum) && property.enum.some((value) => typeof value === 'string'),
  );
  const reads = (values: string[]) => values.some((v) => ENDED.has(normal(v)) || LIVE.has(normal(v)));
  const found =
    enums.find(([name]) => STATUS_NAME.test(snakeCase(name))) ??
    enums.find(([, property]) => reads((property.enum as unknown[]).filter((v): v is string => typeof v === 'string')));
  if (!found) return undefined;
  const values = (found[1].enum as unknown[]).filter((v): v is string => typeof v === 'string');
  const ended = new Set(values.filter((v) => ENDED.has(normal(v))));
  const upcoming = new Set(values.filter((v) => UPCOMING.has(normal(v))));
  const live = new Set(values.filter((v, i) => LIVE.has(normal(v)) || (i === 0 && !ended.has(v) && !upcoming.has(v))));
  const firstLive = values.find((v) => !ended.has(v) && !upcoming.has(v));
  const afterEnd = values.find((v) => EXPIRY.has(normal(v))) ?? values.find((v) => ended.has(v));
  return {
    name: found[0],
    values,
    ended,
    upcoming,
    live,
    ...(firstLive !== undefined ? { firstLive } : {}),
    ...(afterEnd !== undefined ? { afterEnd } : {}),
  };
}

/** A status value as the word lists spell it: lower case, `_` between words (`Not Started` → `not_started`). */
function normal(value: string): string {
  return snakeCase(value).replace(/[^a-z0-9]+/g, '_');
}

/** Whether a status value and a field's stem name the same event (`cancelled` and `canceled_at` do). */
function same(value: string, stem: string): boolean {
  const letters = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z]/g, '')
      .replace(/ll/g, 'l');
  return letters(value) === letters(stem);
}
