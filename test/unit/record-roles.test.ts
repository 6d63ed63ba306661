import { describe, expect, test } from 'vitest';
import { recordRoles, type RecordRoles } from '../../mock/state/record-roles.js';
import type { JsonObject } from '../../mock/schema/schema-facts.js';

const time = (extra: JsonObject = {}) => ({ type: 'string', format: 'date-time', ...extra });
const record = (properties: JsonObject): JsonObject => ({ type: 'object', properties });
const roleOf = (roles: RecordRoles, name: string) =>
  (Object.keys(roles) as (keyof RecordRoles)[]).find(
    (role) => Array.isArray(roles[role]) && (roles[role] as { name: string }[]).some((field) => field.name === name),
  );

describe('recordRoles', () => {
  test.each([
    ['created_at', 'created'],
    ['createdAt', 'created'],
    ['issued_at', 'created'],
    ['updated_at', 'updated'],
    ['modifiedAt', 'updated'],
    ['valid_from', 'starts'],
    ['starts_at', 'starts'],
    ['start_date', 'starts'],
    ['period_start', 'starts'],
    ['valid_until', 'ends'],
    ['validUntil', 'ends'],
    ['expires_at', 'ends'],
    ['ends_at', 'ends'],
    ['end_date', 'ends'],
    ['active_to', 'ends'],
    ['access_until', 'ends'],
    ['next_billing_at', 'upcoming'],
    ['due_date', 'upcoming'],
    ['renews_at', 'upcoming'],
    ['last_used_at', 'past'],
    ['seen', 'past'],
  ])('a date-time named %s plays the part of %s', (name, role) => {
    expect(roleOf(recordRoles(record({ [name]: time() })), name)).toBe(role);
  });

  test('only dates and date-times get a time part, and a birth date none', () => {
    const roles = recordRoles(
      record({
        valid_until: { type: 'string' },
        end_date: time({ format: 'date' }),
        birth_date: time({ format: 'date' }),
      }),
    );
    expect(roles.ends).toEqual([{ name: 'end_date', nullable: false, dateOnly: true }]);
    expect(roleOf(roles, 'valid_until')).toBeUndefined();
    expect(roleOf(roles, 'birth_date')).toBeUndefined();
  });

  test('a nullable time is known to be one, in OpenAPI 3.0 and JSON Schema spelling', () => {
    const roles = recordRoles(
      record({ a_until: time({ nullable: true }), b_until: time({ type: ['string', 'null'] }) }),
    );
    expect(roles.ends.map((field) => field.nullable)).toEqual([true, true]);
  });

  test('the status is the enum named like one, and its values read as ended, not begun, or live', () => {
    const roles = recordRoles(
      record({
        kind: { type: 'string', enum: ['pin', 'card'] },
        state: { type: 'string', enum: ['trialing', 'Active', 'scheduled', 'CANCELLED', 'lapsed'] },
      }),
    );
    expect(roles.status?.name).toBe('state');
    expect([...roles.status!.ended]).toEqual(['CANCELLED', 'lapsed']);
    expect([...roles.status!.upcoming]).toEqual(['scheduled']);
    expect([...roles.status!.live]).toEqual(['trialing', 'Active']);
  });

  test('without a status-like name, the first enum whose values read as a life is the status', () => {
    const roles = recordRoles(
      record({ kind: { enum: ['pin', 'card'] }, standing: { type: 'string', enum: ['open', 'closed'] } }),
    );
    expect(roles.status?.name).toBe('standing');
  });

  test('an enum of other things is no status', () => {
    expect(recordRoles(record({ kind: { enum: ['pin', 'card', 'mobile'] } })).status).toBeUndefined();
  });

  test('a timestamp named after a status value is that value’s stamp, canceled or cancelled alike', () => {
    const roles = recordRoles(
      record({
        status: { enum: ['active', 'suspended', 'canceled'] },
        suspended_at: time({ nullable: true }),
        cancelled_at: time({ nullable: true }),
        revoked_at: time({ nullable: true }),
      }),
    );
    expect(roles.stamps.map(({ name, value }) => [name, value])).toEqual([
      ['suspended_at', 'suspended'],
      ['cancelled_at', 'canceled'],
      ['revoked_at', undefined],
    ]);
  });

  test('booleans that say live or ended are flags', () => {
    const roles = recordRoles(
      record({ is_active: { type: 'boolean' }, revoked: { type: 'boolean' }, verified: { type: 'boolean' } }),
    );
    expect(roles.flags).toEqual([
      { name: 'is_active', meansEnded: false },
      { name: 'revoked', meansEnded: true },
    ]);
  });

  test('is worked out once per schema object', () => {
    const schema = record({ valid_until: time() });
    expect(recordRoles(schema)).toBe(recordRoles(schema));
  });
});

describe('the status a new record takes', () => {
  test.each([
    [['active', 'revoked', 'expired'], 'expired', 'active'],
    [['revoked', 'active', 'lapsed'], 'lapsed', 'active'],
    [['open', 'cancelled'], 'cancelled', 'open'],
    [['running'], undefined, 'running'],
  ])('among %j: %s once its end has passed, else %s', (values, afterEnd, firstLive) => {
    const roles = recordRoles(record({ status: { type: 'string', enum: values } }));
    expect(roles.status?.afterEnd).toBe(afterEnd);
    expect(roles.status?.firstLive).toBe(firstLive);
  });
});
