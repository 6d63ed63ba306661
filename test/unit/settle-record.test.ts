import { describe, expect, test } from 'vitest';
import { mulberry32 } from '../../mock/generate/quick-draw.js';
import type { JsonObject } from '../../mock/schema/schema-facts.js';
import { recordRoles } from '../../mock/state/record-roles.js';
import { settleCreated, settlePlaceholder } from '../../mock/state/settle-record.js';
import type { StoredRecord } from '../../mock/state/store.js';

const DAY = 86_400_000;
const REF = new Date('2025-06-01T09:30:00Z');
const CREATED = new Date('2024-11-20T14:00:00Z');
const NOW = new Date('2026-11-22T10:00:00Z');
const NOW_TEXT = '2026-11-22T10:00:00Z';
const time = (extra: JsonObject = {}) => ({ type: 'string', format: 'date-time', ...extra });

const SUBSCRIPTION = {
  type: 'object',
  properties: {
    state: { type: 'string', enum: ['running', 'suspended', 'scheduled', 'revoked', 'expired'] },
    starts_at: time(),
    ends_at: time({ nullable: true }),
    term_end: time({ format: 'date' }),
    revoked_at: time({ nullable: true }),
    suspended_at: time({ nullable: true }),
    last_used_at: time({ nullable: true }),
    next_invoice_at: time({ nullable: true }),
    created_at: time(),
    updated_at: time(),
    is_active: { type: 'boolean' },
  },
};
const ROLES = recordRoles(SUBSCRIPTION);
const X = '2000-01-01T00:00:00Z';
/** A drawn record: every time set to a moment long gone, so that a field left alone would show. */
const drawn = (extra: StoredRecord = {}): StoredRecord => ({
  state: 'running',
  starts_at: X,
  ends_at: X,
  term_end: '2000-01-01',
  revoked_at: X,
  suspended_at: X,
  last_used_at: X,
  next_invoice_at: X,
  created_at: X,
  updated_at: X,
  is_active: false,
  ...extra,
});
const ms = (value: unknown) => Date.parse(value as string);

/** Settles 200 placeholders drawn with this state (fixed seeds 0–199), so the rules hold for every draw. */
const placeholders = (state: string, extra: StoredRecord = {}) => {
  const kept = Array.from({ length: 200 }, (_, seed) => {
    const record = drawn({ state, ...extra });
    const random = mulberry32(seed);
    // The status is drawn again; keep only the draws that stayed `state`, to look at that state alone.
    settlePlaceholder(record, ROLES, { created: CREATED, ref: REF, random });
    return record;
  }).filter((record) => record.state === state);
  // Enough draws stayed `state` for the rules looked at to mean something (a test over none checks nothing).
  expect(kept.length).toBeGreaterThan(5);
  return kept;
};

describe('settlePlaceholder', () => {
  test('most placeholders are live: a live value four times as often as another, an ended one twice', () => {
    const counts: Record<string, number> = {};
    for (let seed = 0; seed < 1000; seed++) {
      const record = drawn();
      settlePlaceholder(record, ROLES, { created: CREATED, ref: REF, random: mulberry32(seed) });
      counts[record.state as string] = (counts[record.state as string] ?? 0) + 1;
    }
    expect(counts.running).toBeGreaterThan(350);
    expect(counts.suspended).toBeLessThan(150);
    expect(counts.expired).toBeGreaterThan(counts.suspended!);
  });

  test('an ended one starts when it was made and ends before the reference time, its own stamp at the end', () => {
    const records = placeholders('revoked', { ends_at: null });
    expect(records.length).toBeGreaterThan(10);
    for (const record of records) {
      expect(record.starts_at).toBe('2024-11-20T14:00:00Z');
      expect(ms(record.ends_at)).toBeLessThan(REF.getTime());
      expect(ms(record.ends_at)).toBeGreaterThan(ms(record.starts_at));
      expect(record.revoked_at).toBe(record.ends_at);
      expect(record.term_end).toBe((record.ends_at as string).slice(0, 10));
      expect(record.suspended_at).toBeNull();
      expect(record.next_invoice_at).toBeNull();
      expect(record.is_active).toBe(false);
      expect(ms(record.last_used_at)).toBeLessThanOrEqual(ms(record.ends_at));
      expect(ms(record.updated_at)).toBeGreaterThanOrEqual(ms(record.ends_at));
      expect(ms(record.updated_at)).toBeLessThanOrEqual(REF.getTime());
    }
  });

  test('a live one has no end or ends after the reference time, and no stamp of another status', () => {
    const records = [...placeholders('running'), ...placeholders('running', { ends_at: null })];
    expect(records.length).toBeGreaterThan(100);
    for (const record of records) {
      if (record.ends_at !== null) expect(ms(record.ends_at)).toBeGreaterThan(REF.getTime());
      expect(ms(record.term_end) + DAY).toBeGreaterThan(REF.getTime());
      expect(record.revoked_at).toBeNull();
      expect(record.suspended_at).toBeNull();
      expect(ms(record.next_invoice_at)).toBeGreaterThan(REF.getTime());
      expect(record.is_active).toBe(true);
      expect(ms(record.last_used_at)).toBeGreaterThanOrEqual(CREATED.getTime());
      expect(ms(record.last_used_at)).toBeLessThanOrEqual(REF.getTime());
    }
    expect(records.some((record) => record.ends_at === null)).toBe(true);
  });

  test('a drawn null end of a live one stays null: it has no end', () => {
    for (const record of placeholders('running', { ends_at: null })) expect(record.ends_at).toBeNull();
  });

  test('a status with its own stamp has it set between the start and the reference time', () => {
    for (const record of placeholders('suspended')) {
      expect(ms(record.suspended_at)).toBeGreaterThanOrEqual(ms(record.starts_at));
      expect(ms(record.suspended_at)).toBeLessThanOrEqual(REF.getTime());
      expect(ms(record.updated_at)).toBeGreaterThanOrEqual(ms(record.suspended_at));
      expect(ms(record.ends_at)).toBeGreaterThan(REF.getTime());
    }
  });

  test('a not-yet one starts after the reference time and ends after it starts', () => {
    for (const record of placeholders('scheduled')) {
      expect(ms(record.starts_at)).toBeGreaterThan(REF.getTime());
      expect(ms(record.ends_at)).toBeGreaterThan(ms(record.starts_at));
      expect(record.is_active).toBe(false);
    }
  });

  test('a field the draw left out stays out, and one drawn null stays null when nothing needs it', () => {
    const record: StoredRecord = { state: 'running', last_used_at: null };
    settlePlaceholder(record, ROLES, { created: CREATED, ref: REF, random: mulberry32(1) });
    expect(Object.keys(record).sort()).toEqual(['last_used_at', 'state']);
    expect(record.last_used_at).toBeNull();
  });

  test('without a status, an end is a term after the start, before or after the reference time', () => {
    const roles = recordRoles({ type: 'object', properties: { from: time(), until: time() } });
    const terms = new Set<number>();
    for (let seed = 0; seed < 100; seed++) {
      const record: StoredRecord = { from: X, until: X };
      settlePlaceholder(record, roles, { created: CREATED, ref: REF, random: mulberry32(seed) });
      terms.add((ms(record.until) - ms(record.from)) / DAY);
    }
    expect([...terms].sort((a, b) => a - b)).toEqual([30, 90, 180, 365]);
  });
});

describe('settleCreated', () => {
  const create = (record: StoredRecord, decided: string[] = []) => {
    settleCreated(record, ROLES, { now: NOW, decided: new Set(decided) });
    return record;
  };
  /** What makeCreated hands over before settling: the initial state, null where it may be, now elsewhere. */
  const fresh = (extra: StoredRecord = {}): StoredRecord => ({
    state: 'running',
    starts_at: NOW_TEXT,
    ends_at: null,
    term_end: '2026-01-01',
    revoked_at: null,
    suspended_at: null,
    last_used_at: null,
    next_invoice_at: null,
    created_at: NOW_TEXT,
    updated_at: NOW_TEXT,
    is_active: false,
    ...extra,
  });

  test('a new record is live from now, a non-nullable end a year away, nullable stamps null', () => {
    const record = create(fresh());
    expect(record).toMatchObject({
      state: 'running',
      starts_at: '2026-11-22T10:00:00Z',
      ends_at: null,
      term_end: '2027-11-22',
      revoked_at: null,
      created_at: '2026-11-22T10:00:00Z',
      is_active: true,
    });
  });

  test('one sent an end in the past is created expired, started no later than that end', () => {
    const record = create(fresh({ ends_at: '2020-01-01T00:00:00Z' }), ['ends_at']);
    expect(record).toMatchObject({
      state: 'expired',
      ends_at: '2020-01-01T00:00:00Z',
      starts_at: '2020-01-01T00:00:00Z',
      term_end: '2020-01-01',
      is_active: false,
    });
  });

  test('one sent an ended status ends now and gets that status’s stamp', () => {
    const record = create(fresh({ state: 'revoked' }), ['state']);
    expect(record).toMatchObject({
      state: 'revoked',
      ends_at: '2026-11-22T10:00:00Z',
      revoked_at: '2026-11-22T10:00:00Z',
      is_active: false,
    });
  });

  test('an initial value that reads as ended gives way to the first live one', () => {
    const roles = recordRoles({
      type: 'object',
      properties: { status: { enum: ['inactive', 'active'] }, expires_at: time({ nullable: true }) },
    });
    const record: StoredRecord = { status: 'inactive', expires_at: null };
    settleCreated(record, roles, { now: NOW, decided: new Set() });
    expect(record).toEqual({ status: 'active', expires_at: null });
  });

  test('never changes what was sent or defaulted, even when it disagrees', () => {
    const sent = { state: 'running', ends_at: '2020-01-01T00:00:00Z', is_active: false, revoked_at: X };
    const record = create(fresh(sent), Object.keys(sent));
    expect(record).toMatchObject(sent);
  });
});
