import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { createBodyGenerator } from '../../mock/generate/generate-body.js';
import { DEFAULT_CONTRACT, type MockApp } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

const SEED = 12;
const ANCHOR = createBodyGenerator(SEED).anchor.getTime();
const SUBSCRIPTIONS = fileURLToPath(new URL('../fixtures/subscriptions.openapi.yaml', import.meta.url));
const schemas = parse(readFileSync(DEFAULT_CONTRACT, 'utf8')).components.schemas;
const PASS_NAMES: string[] = schemas.Pass.properties.name['x-examples'];
const LABELS: string[] = schemas.Credential.properties.label['x-examples'];
/** 67 members of three placeholders each: 201 records of each collection. */
const MEMBERS = Array.from({ length: 67 }, (_, i) => `mbr_${1000 + i}`);
const ms = (value: unknown) => Date.parse(value as string);

type Row = Record<string, any>;
async function placeholders(mock: MockApp, path: (member: string) => string, auth = AUTH): Promise<Row[]> {
  const rows: Row[] = [];
  for (const member of MEMBERS) {
    const body = (await request(mock.app).get(path(member)).set(auth).expect(200)).body;
    rows.push(...(Array.isArray(body) ? body : body.data));
  }
  return rows;
}

describe('placeholders of the membership contract look real and agree with themselves', () => {
  let passes: Row[];
  let credentials: Row[];
  beforeAll(async () => {
    const mock = await newMock({ seed: SEED });
    passes = await placeholders(mock, (member) => `/members/${member}/passes`);
    credentials = await placeholders(mock, (member) => `/members/${member}/credentials`);
  });

  test('every pass is named from the contract’s x-examples, and the names vary', () => {
    expect(passes).toHaveLength(201);
    for (const pass of passes) expect(PASS_NAMES).toContain(pass.name);
    expect(new Set(passes.map((pass) => pass.name)).size).toBeGreaterThan(8);
  });

  test('every pass was made before the anchor and starts when it was made', () => {
    for (const pass of passes) {
      expect(ms(pass.created_at)).toBeLessThan(ANCHOR);
      expect(pass.valid_from).toBe(pass.created_at);
    }
  });

  test('an expired pass ended before the anchor, after it started', () => {
    const expired = passes.filter((pass) => pass.status === 'expired');
    expect(expired.length).toBeGreaterThan(20);
    for (const pass of expired) {
      expect(ms(pass.valid_until)).toBeLessThan(ANCHOR);
      expect(ms(pass.valid_until)).toBeGreaterThan(ms(pass.valid_from));
    }
  });

  test('an active or suspended pass has no end or ends after the anchor', () => {
    const live = passes.filter((pass) => pass.status !== 'expired');
    expect(live.some((pass) => pass.valid_until === null)).toBe(true);
    for (const pass of live) if (pass.valid_until !== null) expect(ms(pass.valid_until)).toBeGreaterThan(ANCHOR);
  });

  test('most passes are active', () => {
    const active = passes.filter((pass) => pass.status === 'active').length;
    expect(active).toBeGreaterThan(passes.length / 2);
  });

  test('a labelled credential’s label is from the contract and names its kind', () => {
    const labelled = credentials.filter((credential) => credential.label !== null);
    expect(labelled.length).toBeGreaterThan(credentials.length / 2);
    for (const { label, kind } of labelled) {
      expect(LABELS).toContain(label);
      expect(label.toLowerCase()).toContain(kind);
    }
  });

  test('a credential was last used after it was made and before the anchor, or never', () => {
    for (const credential of credentials) {
      expect(ms(credential.created_at)).toBeLessThan(ANCHOR);
      if (credential.last_used_at === null) continue;
      expect(ms(credential.last_used_at)).toBeGreaterThanOrEqual(ms(credential.created_at));
      expect(ms(credential.last_used_at)).toBeLessThanOrEqual(ANCHOR);
    }
  });
});

describe('a pass created with an end in the past', () => {
  test('is expired, and one created with no end or a future one is active', async () => {
    const mock = await newMock({ seed: SEED });
    const create = async (body: object) =>
      (await request(mock.app).post('/members/m1/passes').set(AUTH).send(body).expect(201)).body;
    expect(await create({ valid_from: '2019-01-01T00:00:00Z', valid_until: '2020-01-01T00:00:00Z' })).toMatchObject({
      status: 'expired',
      valid_from: '2019-01-01T00:00:00Z',
      valid_until: '2020-01-01T00:00:00Z',
    });
    expect(await create({ valid_until: '2020-01-01T00:00:00Z' })).toMatchObject({
      status: 'expired',
      valid_from: '2020-01-01T00:00:00Z',
    });
    expect(await create({})).toMatchObject({ status: 'active', valid_until: null });
    expect(await create({ valid_until: '2099-01-01T00:00:00Z' })).toMatchObject({ status: 'active' });
  });
});

describe('placeholders of another contract, with other names for the same things, agree too', () => {
  let subscriptions: Row[];
  beforeAll(async () => {
    const mock = await newMock({ contract: SUBSCRIPTIONS, seed: SEED });
    subscriptions = await placeholders(mock, (account) => `/accounts/${account}/subscriptions`, {} as typeof AUTH);
  });

  test('an ended one (cancelled, lapsed) ended before the anchor; only a cancelled one has cancelled_at', () => {
    expect(subscriptions).toHaveLength(201);
    for (const sub of subscriptions) {
      const ended = sub.state === 'cancelled' || sub.state === 'lapsed';
      expect(sub.is_active).toBe(sub.state === 'running' || sub.state === 'trialing');
      if (ended) expect(ms(sub.ends_at)).toBeLessThan(ANCHOR);
      else if (sub.ends_at !== null) expect(ms(sub.ends_at)).toBeGreaterThan(ANCHOR);
      if (sub.state === 'cancelled') expect(sub.cancelled_at).toBe(sub.ends_at);
      else expect(sub.cancelled_at).toBeNull();
    }
    expect(new Set(subscriptions.map((sub) => sub.state))).toEqual(
      new Set(['trialing', 'running', 'scheduled', 'cancelled', 'lapsed']),
    );
  });

  test('nothing starts after it ends, a scheduled one starts after the anchor, and updates follow creation', () => {
    for (const sub of subscriptions) {
      if (sub.ends_at !== null) expect(ms(sub.starts_at)).toBeLessThanOrEqual(ms(sub.ends_at));
      expect(sub.term_end >= sub.starts_at.slice(0, 10)).toBe(true);
      if (sub.state === 'scheduled') expect(ms(sub.starts_at)).toBeGreaterThan(ANCHOR);
      if (sub.createdAt && sub.updatedAt) expect(ms(sub.updatedAt)).toBeGreaterThanOrEqual(ms(sub.createdAt));
      if (sub.updatedAt) expect(ms(sub.updatedAt)).toBeLessThanOrEqual(ANCHOR);
    }
    // The rule on updates was looked at: some subscriptions have both times.
    expect(subscriptions.some((sub) => sub.createdAt && sub.updatedAt)).toBe(true);
  });

  test('plans come from the examples list; the owner’s email and initials are made from the owner’s names', () => {
    for (const { plan, owner } of subscriptions) {
      expect(['Basic plan', 'Premium plan', 'Team plan', 'Family plan']).toContain(plan);
      expect(owner.initials).toBe(`${owner.first_name[0]}${owner.last_name[0]}`.toUpperCase());
      expect(owner.email.toLowerCase()).toContain(
        owner.first_name
          .toLowerCase()
          .replace(/[^a-z]/g, '')
          .slice(0, 3),
      );
    }
  });
});
