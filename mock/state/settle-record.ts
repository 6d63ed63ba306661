// Makes a record's times agree with each other and with its status: an expired pass has ended, an active one not.
import type { StoredRecord } from './store.js';
import type { RecordRoles, StatusRole, TimeField } from './record-roles.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;
/** How long placeholders last, in days: a year most often, as memberships do. */
const TERMS = [30, 90, 180, 365, 365];

/** Where a placeholder sits in time: made at `created`, read at `ref` (the mock's `asOf`: see makePlaceholder). */
export interface PlaceholderTimes {
  created: Date;
  ref: Date;
  /** Numbers in [0, 1) for this record only, so its times depend on nothing else. */
  random: () => number;
}

type Phase = 'ended' | 'upcoming' | 'live' | undefined;

/**
 * Sets a drawn placeholder's times from its status, as of `ref`, after drawing the status again so that most
 * records are live (see redrawStatus). An ended status (`expired`, `revoked`…) has its ends in the past, set
 * even where the draw left them `null`; any other status has ends that are `null` (no end) or after `ref`, and
 * a not-yet status (`scheduled`) starts after `ref`. Starts are the creation (never after an end), terms a
 * month to a year or the next anniversary; a timestamp of a status (`revoked_at`) is set only when the status
 * is that one, if it may be `null`; other past moments (`last_used_at`) fall between the start and the end of
 * use; `updated_at` after all of them. A field the draw left out stays out, and one drawn `null` stays `null`
 * unless the status needs it. Changes `record` in place.
 * @example settlePlaceholder(record, recordRoles(schema), { created, ref: generator.anchor, random })
 */
export function settlePlaceholder(record: StoredRecord, roles: RecordRoles, times: PlaceholderTimes): void {
  const { created, ref, random } = times;
  if (roles.status) redrawStatus(record, roles.status, random);
  const status = roles.status && record[roles.status.name];
  const phase = phaseOf(roles, status);
  const start = phase === 'upcoming' ? after(ref, DAY + random() * 44 * DAY) : created;
  const end = endOf(phase, start, ref, random);
  const drawn = (field: TimeField) => Object.hasOwn(record, field.name) && record[field.name] !== null;
  const hasEnd = roles.ends.some((field) => Object.hasOwn(record, field.name) && (phase === 'ended' || drawn(field)));
  const ended = phase === undefined ? hasEnd && end < ref : phase === 'ended';
  // The last moment the record was in use, and the last thing that happened to it.
  const lastUse = ended && hasEnd ? end : ref;
  let latest = ended && hasEnd ? end : created;
  const put = (field: TimeField, date: Date | null) => void (record[field.name] = date && stamp(field, date));

  for (const field of roles.created) if (drawn(field)) put(field, created);
  for (const field of roles.starts) if (drawn(field)) put(field, start);
  for (const field of roles.ends) {
    if (Object.hasOwn(record, field.name) && (phase === 'ended' || drawn(field))) put(field, end);
  }
  for (const field of roles.stamps) {
    if (!Object.hasOwn(record, field.name)) continue;
    if (field.value !== undefined && field.value === status) {
      const at = ended && hasEnd ? end : between(start < ref ? start : created, ref, random);
      put(field, at);
      if (at > latest) latest = at;
    } else if (field.nullable) put(field, null);
    else put(field, between(created, lastUse, random));
  }
  for (const field of roles.past)
    if (drawn(field)) put(field, between(start < lastUse ? start : created, lastUse, random));
  for (const field of roles.upcoming) {
    if (drawn(field)) put(field, ended && field.nullable ? null : after(ref, DAY + random() * 59 * DAY));
  }
  for (const field of roles.updated) if (drawn(field)) put(field, between(latest, ref, random));
  setFlags(record, roles, ended, phase === undefined ? !ended : phase === 'live');
}

/** What a create was sent and when it happens: the fields the client or the contract decided are kept. */
export interface CreatedTimes {
  now: Date;
  decided: ReadonlySet<string>;
}

/**
 * Settles a new record's undecided fields, as of `now`. Its status starts as the record's initial value,
 * unless that reads as ended and another does not, or an end it was sent is already past (then the first value
 * that reads as expiry, `expired` or `lapsed`, else the first ended one); an ended record ends when it was sent
 * to end, or now; an end that may not be `null` is a year away; a start is now, or the end if that is sooner;
 * a timestamp of a status is set (to the end) if the status is that one, else `null` if it may be; other
 * times are now. What was sent or defaulted is never changed. Changes `record` in place.
 * @example settleCreated(record, recordRoles(schema), { now, decided: new Set(['name']) })
 */
export function settleCreated(record: StoredRecord, roles: RecordRoles, { now, decided }: CreatedTimes): void {
  const open = (name: string) => Object.hasOwn(record, name) && !decided.has(name);
  const put = (field: TimeField, date: Date | null) => void (record[field.name] = date && stamp(field, date));
  const nowMs = now.getTime();
  let sentEnd = Infinity;
  for (const field of roles.ends) {
    const value = record[field.name];
    // A NaN (an unreadable end) is never less: it is passed over.
    if (decided.has(field.name) && typeof value === 'string' && momentOf(value) < sentEnd) sentEnd = momentOf(value);
  }
  const endsPast = sentEnd < nowMs;
  const { status } = roles;
  if (status && open(status.name)) {
    const current = record[status.name];
    if (endsPast && status.afterEnd !== undefined) record[status.name] = status.afterEnd;
    else if (typeof current === 'string' && status.ended.has(current) && status.firstLive !== undefined)
      record[status.name] = status.firstLive;
  }
  const phase = phaseOf(roles, status && record[status.name]);
  const ended = phase === undefined ? endsPast : phase === 'ended';
  // An ended record ended when it was sent to, or now.
  const endedAt = new Date(Math.min(nowMs, sentEnd));
  let firstEnd = nowMs;
  for (const field of roles.ends) {
    if (open(field.name)) put(field, ended ? endedAt : field.nullable ? null : after(now, YEAR));
    const value = record[field.name];
    if (typeof value === 'string' && momentOf(value) < firstEnd) firstEnd = momentOf(value);
  }
  // makeCreated set date-times to now already: only an earlier end or a date-only field is written again.
  for (const field of roles.starts) {
    if (open(field.name) && record[field.name] !== null && (firstEnd < nowMs || field.dateOnly))
      put(field, new Date(firstEnd));
  }
  for (const field of roles.stamps) {
    if (!open(field.name)) continue;
    if (field.value !== undefined && field.value === record[status!.name]) put(field, ended ? endedAt : now);
    else if (field.nullable) put(field, null);
  }
  for (const field of roles.days) if (open(field.name) && record[field.name] !== null) put(field, now);
  for (const field of roles.upcoming)
    if (open(field.name) && record[field.name] !== null) put(field, after(now, 30 * DAY));
  const live = phase === undefined ? !ended : phase === 'live';
  for (const flag of roles.flags) {
    if (open(flag.name) && typeof record[flag.name] === 'boolean') record[flag.name] = flag.meansEnded ? ended : live;
  }
}

/**
 * Draws a placeholder's status again, weighted as a live system's records are: a live value (`active`, or the
 * initial one) four times as often as another, an ended one twice as often. A `null` or a value outside the
 * enum stays.
 */
function redrawStatus(record: StoredRecord, status: StatusRole, random: () => number): void {
  const drawn = record[status.name];
  if (typeof drawn !== 'string' || !status.values.includes(drawn)) return;
  const weights = status.values.map((value) => (status.live.has(value) ? 4 : status.ended.has(value) ? 2 : 1));
  let left = random() * weights.reduce((sum, weight) => sum + weight, 0);
  record[status.name] = status.values.find((_, i) => (left -= weights[i]!) < 0) ?? drawn;
}

function phaseOf(roles: RecordRoles, status: unknown): Phase {
  if (!roles.status || typeof status !== 'string') return undefined;
  if (roles.status.ended.has(status)) return 'ended';
  return roles.status.upcoming.has(status) ? 'upcoming' : 'live';
}

/**
 * When a record starting at `start` ends: a term that is over by `ref` for an ended one (or a share of its time
 * so far, when no term fits), one that is not for any other (or the next anniversary after `ref`).
 */
function endOf(phase: Phase, start: Date, ref: Date, random: () => number): Date {
  const span = ref.getTime() - start.getTime();
  const terms = TERMS.map((days) => days * DAY).filter((term) =>
    phase === 'ended' ? term <= span - DAY : phase === undefined || term >= span + DAY,
  );
  if (terms.length > 0) return after(start, terms[Math.floor(random() * terms.length)]!);
  if (phase === 'ended') return after(start, span * (0.3 + 0.6 * random()));
  return after(start, Math.ceil((span + DAY) / YEAR) * YEAR);
}

function setFlags(record: StoredRecord, roles: RecordRoles, ended: boolean, live: boolean): void {
  if (!roles.status && roles.ends.length === 0) return;
  for (const flag of roles.flags) {
    if (typeof record[flag.name] === 'boolean') record[flag.name] = flag.meansEnded ? ended : live;
  }
}

/** A moment between two others, to the second; in the daytime (06:00 to 22:00) when they are days apart. */
function between(from: Date, to: Date, random: () => number): Date {
  const lo = from.getTime();
  const hi = Math.max(lo, to.getTime());
  let moment = lo + random() * (hi - lo);
  let daytime = Math.floor(moment / DAY) * DAY + (6 + 16 * random()) * HOUR;
  if (daytime > hi) daytime -= DAY;
  if (daytime < lo) daytime += DAY;
  if (hi - lo >= 2 * DAY && daytime >= lo && daytime <= hi) moment = daytime;
  return new Date(Math.floor(moment / 1000) * 1000);
}

function after(date: Date, ms: number): Date {
  return new Date(Math.floor((date.getTime() + ms) / 1000) * 1000);
}

/** The moment a field's text names; a date (`2026-05-01`) lasts until the end of its day. */
function momentOf(text: string): number {
  const moment = Date.parse(text);
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? moment + DAY - 1000 : moment;
}

/** A field's text for a moment: RFC 3339 without milliseconds, or the day for a `date`. */
function stamp(field: TimeField, date: Date): string {
  const iso = date.toISOString();
  return field.dateOnly ? iso.slice(0, 10) : iso.replace(/\.\d{3}Z$/, 'Z');
}
