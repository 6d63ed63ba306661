// Placeholders read as of a day (`asOf`): a live pass is live that day and an expired one ended before it, the
// same bytes for one seed and day, only the times moving on another day; the seed's own day stays as it was.
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type { AsOf, MockApp, MockOptions } from '../../mock/index.js';
import { AUTH, newMock } from '../support/harness.js';

const SEED = 12;
const DAY = 86_400_000;
/** The day of the demo issue 29 tells of, and its bounds. */
const DEMO_DAY = '2026-11-26';
const DAY_START = Date.UTC(2026, 10, 26);
const DAY_END = DAY_START + DAY;
const SUBSCRIPTIONS = fileURLToPath(new URL('../fixtures/subscriptions.openapi.yaml', import.meta.url));
/** 67 members of three placeholders each: 201 records of each collection. */
const MEMBERS = Array.from({ length: 67 }, (_, i) => `mbr_${1000 + i}`);
const ms = (value: unknown) => Date.parse(value as string);

type Row = Record<string, any>;

async function placeholders(mock: MockApp, collection: string, members = MEMBERS): Promise<Row[]> {
  const rows: Row[] = [];
  for (const member of members) {
    rows.push(...(await request(mock.app).get(`/members/${member}/${collection}`).set(AUTH).expect(200)).body.data);
  }
  return rows;
}

/** The text of the first members' passes and credentials lists, as a client reads them. */
async function texts(options: MockOptions): Promise<string[]> {
  const mock = await newMock(options);
  const read = async (path: string) => (await request(mock.app).get(path).set(AUTH).expect(200)).text;
  const out: string[] = [];
  for (const member of MEMBERS.slice(0, 5)) {
    out.push(await read(`/members/${member}/passes`), await read(`/members/${member}/credentials`));
  }
  return out;
}

/** `record` with every time field moved by `days` (the fields a pass or a credential has). */
function moved(record: Row, days: number): Row {
  const copy = { ...record };
  for (const field of ['valid_from', 'valid_until', 'created_at', 'last_used_at']) {
    if (typeof copy[field] !== 'string') continue;
    copy[field] = new Date(ms(copy[field]) + days * DAY).toISOString().replace('.000Z', 'Z');
  }
  return copy;
}

describe(`placeholders read as of ${DEMO_DAY}`, () => {
  let passes: Row[];
  let credentials: Row[];
  beforeAll(async () => {
    const mock = await newMock({ seed: SEED, asOf: DEMO_DAY });
    passes = await placeholders(mock, 'passes');
    credentials = await placeholders(mock, 'credentials');
  });

  test('an active or suspended pass began before that day and is valid through it, or has no end', () => {
    const live = passes.filter((pass) => pass.status !== 'expired');
    expect(live.filter((pass) => pass.status === 'active').length).toBeGreaterThan(passes.length / 2);
    expect(live.some((pass) => pass.valid_until === null)).toBe(true);
    for (const pass of live) {
      expect(ms(pass.valid_from)).toBeLessThanOrEqual(DAY_START);
      if (pass.valid_until !== null) expect(ms(pass.valid_until)).toBeGreaterThanOrEqual(DAY_END);
    }
  });

  test('an expired pass ended before that day, after it began', () => {
    const expired = passes.filter((pass) => pass.status === 'expired');
    expect(expired.length).toBeGreaterThan(20);
    for (const pass of expired) {
      expect(ms(pass.valid_until)).toBeLessThan(DAY_START);
      expect(ms(pass.valid_until)).toBeGreaterThan(ms(pass.valid_from));
    }
  });

  test('every pass and credential was made in the two years before that day, and a credential used before it', () => {
    for (const record of [...passes, ...credentials]) {
      expect(ms(record.created_at)).toBeLessThan(DAY_START);
      expect(ms(record.created_at)).toBeGreaterThan(DAY_START - 2 * 365 * DAY);
    }
    const used = credentials.filter((credential) => credential.last_used_at !== null);
    expect(used.length).toBeGreaterThan(10);
    for (const credential of used) expect(ms(credential.last_used_at)).toBeLessThanOrEqual(DAY_START);
  });

  test('seed 1’s Junior Swim Club of mbr_1, shown as active until 2026-04-11 at that demo, is valid that day', async () => {
    const read = async (asOf: AsOf) =>
      (
        await request((await newMock({ seed: 1, asOf })).app)
          .get('/members/mbr_1/passes')
          .set(AUTH)
      ).body.data[0];
    const seedDay = { id: 'pas_2F933T1J47RDHAYN3177H5DEZG', name: 'Junior Swim Club', status: 'active' };
    expect(await read('seed')).toEqual({
      ...seedDay,
      member_id: 'mbr_1',
      valid_from: '2025-04-11T19:17:00Z',
      valid_until: '2026-04-11T19:17:00Z',
      created_at: '2025-04-11T19:17:00Z',
    });
    const demo = await read(DEMO_DAY);
    expect(demo).toMatchObject(seedDay);
    expect(ms(demo.valid_from)).toBeLessThanOrEqual(DAY_START);
    expect(ms(demo.valid_until)).toBeGreaterThanOrEqual(DAY_END);
  });
});

describe('the same seed and day', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('give the same bytes in two mocks', async () => {
    expect(await texts({ seed: SEED, asOf: DEMO_DAY })).toEqual(await texts({ seed: SEED, asOf: DEMO_DAY }));
  });

  test('give the same bytes after the contract is reloaded', async () => {
    const mock = await newMock({ seed: SEED, asOf: DEMO_DAY });
    const read = async () => (await request(mock.app).get('/members/mbr_1/passes').set(AUTH).expect(200)).text;
    const before = await read();
    mock.reload(mock.contract);
    expect(await read()).toBe(before);
  });

  test('today is the UTC day the mock starts on: the same from its first second to its last', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(`${DEMO_DAY}T00:00:01Z`));
    const early = await texts({ seed: SEED, asOf: 'today' });
    vi.setSystemTime(new Date(`${DEMO_DAY}T23:59:59.999Z`));
    const late = await texts({ seed: SEED, asOf: 'today' });
    vi.setSystemTime(new Date('2026-11-27T00:00:00Z'));
    const next = await texts({ seed: SEED, asOf: 'today' });
    vi.useRealTimers();
    expect(late).toEqual(early);
    expect(early).toEqual(await texts({ seed: SEED, asOf: DEMO_DAY }));
    expect(next).toEqual(await texts({ seed: SEED, asOf: '2026-11-27' }));
    expect(next).not.toEqual(early);
  });
});

describe('another day', () => {
  test.each([1, 400])('%i days later moves every time by that many days and changes nothing else', async (days) => {
    const later = new Date(DAY_START + days * DAY).toISOString().slice(0, 10) as AsOf;
    for (const collection of ['passes', 'credentials']) {
      const before = await placeholders(
        await newMock({ seed: SEED, asOf: DEMO_DAY }),
        collection,
        MEMBERS.slice(0, 20),
      );
      const after = await placeholders(await newMock({ seed: SEED, asOf: later }), collection, MEMBERS.slice(0, 20));
      expect(after).toEqual(before.map((record) => moved(record, days)));
    }
  });

  test('keeps the ids, names and statuses of the seed’s own day: only the times differ', async () => {
    const pick = (rows: Row[]) => rows.map(({ id, name, status }) => ({ id, name, status }));
    const seedDay = await placeholders(await newMock({ seed: SEED }), 'passes', MEMBERS.slice(0, 20));
    const demo = await placeholders(await newMock({ seed: SEED, asOf: DEMO_DAY }), 'passes', MEMBERS.slice(0, 20));
    expect(pick(demo)).toEqual(pick(seedDay));
    expect(demo.map((pass) => pass.created_at)).not.toEqual(seedDay.map((pass) => pass.created_at));
  });
});

describe('the seed’s own day', () => {
  test('is the default: asOf seed answers the same bytes as no asOf', async () => {
    expect(await texts({ seed: SEED, asOf: 'seed' })).toEqual(await texts({ seed: SEED }));
  });
});

describe('what else leads up to the day', () => {
  test('generated timestamps fall in the year before it', async () => {
    const mock = await newMock({ seed: SEED, stateless: true, asOf: DEMO_DAY });
    const body = (await request(mock.app).get('/members/m1/passes/pas_1').set(AUTH).expect(200)).body;
    expect(ms(body.created_at)).toBeLessThan(DAY_START);
    expect(ms(body.created_at)).toBeGreaterThan(DAY_START - 366 * DAY);
  });

  test('the seed’s clock counts minutes from its start, after every placeholder', async () => {
    const mock = await newMock({ seed: SEED, clock: 'seed', asOf: DEMO_DAY });
    const created = (await request(mock.app).post('/members/m1/passes').set(AUTH).send({}).expect(201)).body;
    expect(created.created_at).toBe(`${DEMO_DAY}T00:01:00Z`);
  });

  test('a fixture’s missing times are made as of the day', async () => {
    const mock = await newMock({ seed: SEED, asOf: DEMO_DAY, state: { '/members/f1/passes': [{ name: 'Kept' }] } });
    const [pass] = (await request(mock.app).get('/members/f1/passes').set(AUTH).expect(200)).body.data;
    expect(pass).toMatchObject({ name: 'Kept', status: 'active', created_at: `${DEMO_DAY}T00:00:00Z` });
  });
});

describe('placeholders of another contract read as of the day', () => {
  test('an ended subscription ended before it, a running one ends after it, a scheduled one starts after it', async () => {
    const mock = await newMock({ contract: SUBSCRIPTIONS, seed: SEED, asOf: DEMO_DAY });
    const subscriptions: Row[] = [];
    for (const account of MEMBERS) {
      subscriptions.push(...(await request(mock.app).get(`/accounts/${account}/subscriptions`).expect(200)).body);
    }
    expect(new Set(subscriptions.map((sub) => sub.state))).toEqual(
      new Set(['trialing', 'running', 'scheduled', 'cancelled', 'lapsed']),
    );
    for (const sub of subscriptions) {
      if (sub.state === 'cancelled' || sub.state === 'lapsed') expect(ms(sub.ends_at)).toBeLessThan(DAY_START);
      else if (sub.ends_at !== null) expect(ms(sub.ends_at)).toBeGreaterThanOrEqual(DAY_END);
      if (sub.state === 'scheduled') expect(ms(sub.starts_at)).toBeGreaterThanOrEqual(DAY_END);
      else expect(ms(sub.starts_at)).toBeLessThanOrEqual(DAY_START);
      if (sub.state !== 'cancelled' && sub.state !== 'lapsed') expect(sub.term_end > DEMO_DAY).toBe(true);
      if (sub.updatedAt) expect(ms(sub.updatedAt)).toBeLessThanOrEqual(DAY_START);
    }
  });
});

describe('a day that is not one', () => {
  test.each(['2026-02-30', '26-11-2026', 'tomorrow'])('%s is refused when the mock is made', async (asOf) => {
    await expect(newMock({ asOf: asOf as AsOf })).rejects.toThrow(
      `asOf must be seed, today or a day as YYYY-MM-DD, not "${asOf}".`,
    );
  });
});
