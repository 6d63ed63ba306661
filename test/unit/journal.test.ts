import { describe, expect, test, vi } from 'vitest';
import { JournalBudget } from '../../mock/journal/journal-budget.js';
import {
  callNumber,
  copyOfCall,
  Journal,
  type CallRecord,
  type Kept,
  type NewCall,
} from '../../mock/journal/journal.js';
import { parseForm } from '../../mock/http/body-kind.js';
import { withFormText } from '../../mock/http/request-body.js';

const call = (path: string, method = 'GET', operationId: string | null = 'op'): NewCall => ({
  operationId,
  method,
  path,
  pathParams: {},
  query: {},
  headers: {},
  response: { status: 200, headers: {} },
  violations: [],
});

describe('Journal', () => {
  test('a listener that throws stops neither the recording nor the other listeners', () => {
    const journal = new Journal(10);
    const heard: string[] = [];
    journal.subscribe(() => {
      throw new TypeError('a broken matcher');
    });
    journal.subscribe((c) => heard.push(c.path));
    expect(() => journal.record(call('/a'))).not.toThrow();
    expect(heard).toEqual(['/a']);
    expect(journal.list().map((c) => c.path)).toEqual(['/a']);
  });

  test("a listener reads a JSON body as the handler parsed it, or the kept text's parse when it was cut or had no text", () => {
    const journal = new Journal(10, { bodyLimit: 40 });
    const heard: { body: unknown; copied: unknown }[] = [];
    journal.subscribe((c) => heard.push({ body: c.body, copied: copyOfCall(c).body }));
    const small = { name: 'Gold' };
    const large = { name: 'x'.repeat(100) };
    journal.record({ ...call('/a', 'POST'), body: small, sentJson: JSON.stringify(small) });
    journal.record({ ...call('/b', 'POST'), body: large, sentJson: JSON.stringify(large) });
    journal.record({ ...call('/c', 'POST'), body: small });
    // Parsed once from its text: the same object, equal to what a copy parses from the kept text.
    expect(heard[0]!.body).toBe(small);
    expect(heard[0]!.copied).toEqual(small);
    // Cut at 40 characters: the kept (cut) text, as a copy reads it, not the whole object.
    expect(heard[1]!.body).not.toBe(large);
    expect(heard[1]!.body).toEqual(heard[1]!.copied);
    // No text (a body another app parsed): the kept text's parse, not the caller's object.
    expect(heard[2]!.body).not.toBe(small);
    expect(heard[2]!.body).toEqual(small);
  });

  test('returns calls oldest first with increasing ids', () => {
    const journal = new Journal(10);
    journal.record(call('/a'));
    journal.record(call('/b'));
    expect(journal.list().map((c) => [c.id, c.path])).toEqual([
      ['call-1', '/a'],
      ['call-2', '/b'],
    ]);
  });

  test('drops the oldest calls past its limit and counts them', () => {
    const journal = new Journal(3);
    for (const p of ['/1', '/2', '/3', '/4', '/5']) journal.record(call(p));
    expect(journal.list().map((c) => c.path)).toEqual(['/3', '/4', '/5']);
    expect(journal.dropped).toBe(2);
  });

  test('filters by operationId, method (any case) and path prefix', () => {
    const journal = new Journal(10);
    journal.record(call('/members/1/passes', 'GET', 'listPasses'));
    journal.record(call('/members/1/passes', 'POST', 'createPass'));
    journal.record(call('/nowhere', 'GET', null));
    expect(journal.list({ operationId: 'createPass' })).toHaveLength(1);
    expect(journal.list({ method: 'get' })).toHaveLength(2);
    expect(journal.list({ path: '/members/*' })).toHaveLength(2);
    expect(journal.list({ path: '/members' })).toHaveLength(0);
  });

  test('clear empties it but ids keep increasing', () => {
    const journal = new Journal(2);
    journal.record(call('/a'));
    journal.record(call('/b'));
    journal.record(call('/c'));
    journal.clear();
    expect(journal.list()).toEqual([]);
    expect(journal.dropped).toBe(0);
    journal.record(call('/d'));
    expect(journal.list()[0]!.id).toBe('call-4');
  });

  test.each([[0], [-1], [1.5], [NaN]])('refuses a limit of %s, saying it must be a positive integer', (limit) => {
    expect(() => new Journal(limit)).toThrow(
      new RangeError(`The journal limit must be a positive integer, not ${limit}.`),
    );
  });

  test('keeps the last call with a limit of one', () => {
    const journal = new Journal(1);
    journal.record(call('/a'));
    journal.record(call('/b'));
    expect(journal.list().map((c) => c.path)).toEqual(['/b']);
    expect(journal.dropped).toBe(1);
  });

  test('returns the id of the call it records, and stamps the time it was recorded', () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T12:00:00Z'), toFake: ['Date'] });
    try {
      const journal = new Journal(10);
      const id = journal.record(call('/a'));
      // A call that says nothing of who answered was the mock's.
      expect(journal.list()).toEqual([{ id, time: '2026-03-01T12:00:00.000Z', ...call('/a'), answeredBy: 'mock' }]);
    } finally {
      vi.useRealTimers();
    }
  });

  test('numbers calls with the numbering it is given, so sessions sharing it never repeat an id', () => {
    let n = 0;
    const next = () => ++n;
    const one = new Journal(10, { nextNumber: next });
    const two = new Journal(10, { nextNumber: next });
    expect([one.record(call('/a')), two.record(call('/b')), one.record(call('/c'))]).toEqual([
      'call-1',
      'call-2',
      'call-3',
    ]);
  });

  test('hands out copies that cannot change what it keeps', () => {
    const journal = new Journal(10);
    journal.record({ ...call('/a'), body: { kind: 'pin' } });
    const [copy] = journal.list();
    copy!.path = '/changed';
    (copy!.body as { kind: string }).kind = 'card';
    expect(journal.list()[0]).toMatchObject({ path: '/a', body: { kind: 'pin' } });
  });

  test('counts the calls that match a filter, across a ring that wrapped', () => {
    const journal = new Journal(3);
    for (const method of ['GET', 'POST', 'GET', 'GET', 'POST']) journal.record(call('/a', method));
    expect(journal.count()).toBe(3);
    expect(journal.count({ method: 'get' })).toBe(2);
    expect(journal.count({ method: 'post' })).toBe(1);
  });

  test.each([
    [{ operationId: 'getPass' }, ['/passes/p1']],
    [{ method: 'DELETE' }, ['/passes/p2']],
    [{ path: '/passes/p1' }, ['/passes/p1']],
    [{ path: '/passes/*' }, ['/passes/p1', '/passes/p2']],
    [{ path: '*' }, ['/passes/p1', '/passes/p2', '/other']],
    [{ operationId: 'getPass', method: 'DELETE' }, []],
    [{ operationId: 'getPass', path: '/other' }, []],
    [{ method: 'GET', path: '/passes/p2' }, []],
  ])('lists the calls that match every field of %j', (filter, paths) => {
    const journal = new Journal(10);
    journal.record(call('/passes/p1', 'GET', 'getPass'));
    journal.record(call('/passes/p2', 'DELETE', 'deletePass'));
    journal.record(call('/other', 'GET', null));
    expect(journal.list(filter).map((c) => c.path)).toEqual(paths);
    expect(journal.count(filter)).toBe(paths.length);
  });

  test('counts who listens, until they unsubscribe', () => {
    const journal = new Journal(10);
    expect(journal.waiters).toBe(0);
    const heard: string[] = [];
    const stop = journal.subscribe((c) => heard.push(c.path));
    expect(journal.waiters).toBe(1);
    journal.record(call('/a'));
    stop();
    journal.record(call('/b'));
    expect(journal.waiters).toBe(0);
    expect(heard).toEqual(['/a']);
  });

  test('records after a clear from the start of its ring', () => {
    const journal = new Journal(3);
    for (const p of ['/1', '/2', '/3', '/4']) journal.record(call(p));
    journal.clear();
    for (const p of ['/5', '/6']) journal.record(call(p));
    expect(journal.list().map((c) => c.path)).toEqual(['/5', '/6']);
    expect(journal.count()).toBe(2);
  });
});

describe('Journal.adopt (a call another replica served)', () => {
  /** A call as one replica's journal keeps it, to adopt in another's. */
  function keptBy(path: string): Kept {
    const kept: Kept[] = [];
    const served = new Journal(10);
    served.share({ kept: (k) => kept.push(k), cleared: () => undefined, closed: () => undefined });
    served.record(call(path));
    return kept[0]!;
  }

  test('listeners hear an adopted call once, told it was adopted', () => {
    const journal = new Journal(10);
    const heard: [string, boolean | undefined][] = [];
    journal.subscribe((c, adopted) => void heard.push([c.path, adopted]));
    journal.record(call('/served'));
    journal.adopt(keptBy('/adopted'));
    expect(heard).toEqual([
      ['/served', false],
      ['/adopted', true],
    ]);
  });

  test('a call adopted again (its copy made again from the log) is kept without its listeners hearing it twice', () => {
    const journal = new Journal(10);
    const heard: string[] = [];
    journal.subscribe((c) => heard.push(c.path));
    const kept = keptBy('/replayed');
    journal.adopt(kept);
    journal.clear();
    journal.adopt(kept, false);
    expect(heard).toEqual(['/replayed']);
    expect(journal.list().map((c) => c.path)).toEqual(['/replayed']);
  });
});

describe('Journal memory', () => {
  // Each call here costs about 3.5 KB: four fit in the budget of 15 KB, a fifth does not.
  const sized = (path: string) => ({ ...call(path), body: 'x'.repeat(2000) });
  const journals = (count: number) => {
    const budget = new JournalBudget(15_000);
    let n = 0;
    const settings = { budget, nextNumber: () => ++n };
    return { budget, all: Array.from({ length: count }, () => new Journal(100, settings)) };
  };

  test('a budget shared by journals drops the oldest call of any, and counts it where it was', () => {
    const { budget, all } = journals(3);
    const [one, two, three] = all as [Journal, Journal, Journal];
    one.record(sized('/1'));
    for (const p of ['/2', '/3', '/4']) two.record(sized(p));
    expect([one.dropped, two.dropped]).toEqual([0, 0]);
    three.record(sized('/5'));
    expect([one, two, three].map((j) => j.list().map((c) => c.path))).toEqual([[], ['/2', '/3', '/4'], ['/5']]);
    expect([one.dropped, two.dropped, three.dropped]).toEqual([1, 0, 0]);
    expect(budget.used).toBe(one.bytes + two.bytes + three.bytes);
    expect(budget.used).toBeLessThanOrEqual(15_000);
  });

  test('a journal holding more than half the budget pays for its own calls first', () => {
    const { all } = journals(2);
    const [one, two] = all as [Journal, Journal];
    one.record(sized('/1'));
    for (const p of ['/2', '/3', '/4', '/5']) two.record(sized(p));
    expect(one.list().map((c) => c.path)).toEqual(['/1']);
    expect(two.list().map((c) => c.path)).toEqual(['/3', '/4', '/5']);
  });

  test('a body that cannot be serialised (a circular one a host app parsed) is kept as text, and the journal stays readable', () => {
    const journal = new Journal(10);
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    journal.record({ ...call('/c'), body: circular });
    expect(journal.list()[0]!.body).toBe('[object Object]');
  });

  test('a journal within half the budget does not pay for its own calls: the oldest call anywhere goes', () => {
    const { all } = journals(2);
    const [one, two] = all as [Journal, Journal];
    two.record(sized('/1'));
    one.record(sized('/2'));
    for (const p of ['/3', '/4']) two.record(sized(p));
    one.record(sized('/5'));
    expect(one.list().map((c) => c.path)).toEqual(['/2', '/5']);
    expect(two.list().map((c) => c.path)).toEqual(['/3', '/4']);
  });

  test('a journal that dropped some calls still gives up its others when another journal needs room', () => {
    const { budget, all } = journals(2);
    const [one, two] = all as [Journal, Journal];
    for (const p of ['/1', '/2', '/3', '/4', '/5']) one.record(sized(p));
    two.record(sized('/6'));
    expect(budget.used).toBeLessThanOrEqual(15_000);
    expect(two.list().map((c) => c.path)).toEqual(['/6']);
  });

  test.each([0, -1, 1.5, Number.NaN])('a budget of %s bytes is refused', (bytes) => {
    expect(() => new JournalBudget(bytes)).toThrow(RangeError);
  });

  test('a budget of 1 byte is allowed', () => {
    expect(new JournalBudget(1).bytes).toBe(1);
  });

  test('keeps the call just recorded even when it alone is over the budget', () => {
    const journal = new Journal(10, { budget: new JournalBudget(100) });
    journal.record(call('/a'));
    journal.record(call('/b'));
    expect(journal.list().map((c) => c.path)).toEqual(['/b']);
    expect(journal.dropped).toBe(1);
  });

  test('clearing or closing a journal releases its bytes from the budget', () => {
    const budget = new JournalBudget(1_000_000);
    const one = new Journal(10, { budget });
    const two = new Journal(10, { budget });
    one.record(call('/a'));
    two.record(call('/b'));
    one.clear();
    expect(budget.used).toBe(two.bytes);
    two.close();
    expect(budget.used).toBe(0);
  });

  test('charges a 64 KiB body of empty objects about its text, not its parsed objects', () => {
    const text = `[${'{},'.repeat(21_844)}{}]`;
    const journal = new Journal(10, { bodyLimit: 65_536 });
    journal.record({ ...call('/a'), body: JSON.parse(text) });
    expect(journal.bytes).toBeGreaterThan(text.length);
    expect(journal.bytes).toBeLessThan(text.length + 4096);
    expect(journal.list()[0]!.body).toHaveLength(21_845);
  });

  test('keeps the start of a body past its limit as text, and says how big it was as received', () => {
    const journal = new Journal(10, { bodyLimit: 10 });
    journal.record({ ...call('/a'), body: { kind: 'a long enough body' }, bodyBytes: 33 });
    const [kept] = journal.list();
    expect(kept!.body).toBe('{"kind":"a');
    expect(kept!.truncated).toEqual({ bytes: 33 });
  });

  test('measures a cut body in UTF-8 bytes when it was not told its size', () => {
    const journal = new Journal(10, { bodyLimit: 4 });
    journal.record({ ...call('/a'), body: 'été et hiver' });
    expect(journal.list()[0]).toMatchObject({ body: 'été ', truncated: { bytes: 14 } });
  });

  test('keeps a body at its limit whole, with no truncated marker', () => {
    const journal = new Journal(10, { bodyLimit: '{"kind":"pin"}'.length });
    journal.record({ ...call('/a'), body: { kind: 'pin' } });
    const [kept] = journal.list();
    expect(kept!.body).toEqual({ kind: 'pin' });
    expect(kept).not.toHaveProperty('truncated');
  });

  test('keeps a JSON string as its JSON text: read back as the string, marked as sent as JSON', () => {
    const journal = new Journal(10);
    const heard: CallRecord[] = [];
    journal.subscribe((c) => heard.push(c));
    const response = { status: 200, headers: {}, body: 'bye', text: '"bye"' };
    journal.record({ ...call('/a', 'POST'), body: 'hello', sentJson: ' "hello"', response });
    journal.record({ ...call('/b', 'POST'), body: 'hello', response: { ...response, text: 'bye' } });
    const [json, text] = journal.list();
    expect(json).toMatchObject({ body: 'hello', bodyJson: true, response: { body: 'bye', bodyJson: true } });
    expect(text).toMatchObject({ body: 'hello', response: { body: 'bye' } });
    expect(text).not.toHaveProperty('bodyJson');
    expect(text!.response).not.toHaveProperty('bodyJson');
    expect([heard[0]!.bodyJson, heard[0]!.response.bodyJson, heard[1]!.bodyJson]).toEqual([true, true, undefined]);
    expect(JSON.parse(JSON.stringify(heard[0]))).toEqual(json);
  });

  test('keeps a form it was given the text of as that text: read back as its fields, the text beside them', () => {
    const journal = new Journal(10, { bodyLimit: 20 });
    const form = (text: string, charset = 'utf-8') => withFormText(parseForm(text, charset), text);
    const latin1 = { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' };
    journal.record({ ...call('/a', 'POST'), body: form('a=1%202&b=x&a=3') });
    journal.record({ ...call('/b', 'POST'), headers: latin1, body: form('name=caf%E9', 'iso-8859-1') });
    journal.record({ ...call('/c', 'POST'), body: form('user=a%20long%20name%20indeed'), bodyBytes: 29 });
    const [plain, encoded, cut] = journal.list();
    expect(plain).toMatchObject({ body: { a: ['1 2', '3'], b: 'x' }, bodyText: 'a=1%202&b=x&a=3' });
    expect(encoded).toMatchObject({ body: { name: 'café' }, bodyText: 'name=caf%E9' });
    expect(cut).toMatchObject({ body: 'user=a%20long%20name', truncated: { bytes: 29 } });
    expect(cut).not.toHaveProperty('bodyText');
  });

  test('cuts a response body past its limit the same way, marking the response', () => {
    const journal = new Journal(10, { bodyLimit: 5 });
    const response = { status: 200, headers: {}, body: { data: [1, 2, 3] }, text: '{"data":[1,2,3]}' };
    journal.record({ ...call('/a'), response });
    expect(journal.list()[0]!.response).toEqual({ status: 200, headers: {}, body: '{"dat', truncated: { bytes: 16 } });
  });

  test('keeps 100 violations of a call and how many there were', () => {
    const journal = new Journal(10);
    const violations = Array.from({ length: 250 }, (_, i) => ({
      location: 'body' as const,
      pointer: `/k${i}`,
      message: 'must NOT have additional properties',
    }));
    journal.record({ ...call('/a'), violations });
    const [kept] = journal.list();
    expect(kept!.violations).toHaveLength(100);
    expect(kept!.violations[99]!.pointer).toBe('/k99');
    expect(kept!.violationCount).toBe(250);
  });

  test('gives no violation count to a call with 100 violations or fewer', () => {
    const journal = new Journal(10);
    const violation = { location: 'body' as const, pointer: '/kind', message: 'must be a string' };
    journal.record({ ...call('/a'), violations: Array.from({ length: 100 }, () => violation) });
    expect(journal.list()[0]).not.toHaveProperty('violationCount');
  });
});

describe('Journal reads', () => {
  test('find looks at calls in place and copies only the one it returns', () => {
    const journal = new Journal(10);
    for (const path of ['/a', '/b', '/c']) journal.record({ ...call(path), body: { path } });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const found = journal.find((c) => c.path === '/b');
      expect(found).toMatchObject({ id: 'call-2', body: { path: '/b' } });
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  test('find hands out a copy that cannot change what it keeps', () => {
    const journal = new Journal(10);
    journal.record({ ...call('/a'), body: { kind: 'pin' } });
    const found = journal.find(() => true)!;
    (found.body as { kind: string }).kind = 'card';
    found.headers.changed = 'yes';
    expect(journal.list()[0]).toMatchObject({ body: { kind: 'pin' }, headers: {} });
  });

  test('find skips the calls up to the number it is given', () => {
    const journal = new Journal(10);
    for (const path of ['/a', '/b', '/c']) journal.record(call(path));
    expect(journal.find(() => true, 2)?.path).toBe('/c');
    expect(journal.find(() => true, 3)).toBeUndefined();
  });

  test('since hands out the matching calls after a number, oldest first', () => {
    const journal = new Journal(10);
    for (const method of ['GET', 'POST', 'GET', 'GET']) journal.record(call('/a', method));
    expect([...journal.since(1, { method: 'GET' })].map((c) => c.id)).toEqual(['call-3', 'call-4']);
  });

  test('since and find start after the number given in a ring that went round, whatever its numbers', () => {
    let number = 100;
    // Numbers shared with other sessions skip: this journal sees 103, 106, 109...
    const journal = new Journal(4, { nextNumber: () => (number += 3) });
    for (const path of ['/a', '/b', '/c', '/d', '/e', '/f']) journal.record(call(path));
    const ids = (after: number) => [...journal.since(after)].map((c) => c.id);
    expect(ids(0)).toEqual(['call-109', 'call-112', 'call-115', 'call-118']);
    expect(ids(110)).toEqual(['call-112', 'call-115', 'call-118']);
    expect(ids(112)).toEqual(['call-115', 'call-118']);
    expect(ids(118)).toEqual([]);
    expect(journal.find(() => true, 109)?.path).toBe('/d');
    expect(journal.find((c) => c.path === '/c', 0)?.id).toBe('call-109');
  });

  test('closing ends every wait on it and keeps no more calls', () => {
    const journal = new Journal(10);
    const closed = vi.fn();
    journal.subscribe(() => undefined, closed);
    journal.close();
    expect(closed).toHaveBeenCalledTimes(1);
    expect(journal.waiters).toBe(0);
    expect(journal.record(call('/a'))).toBe('call-1');
    expect(journal.list()).toEqual([]);
  });

  test('listeners of one call get one copy between them', () => {
    const journal = new Journal(10);
    const copies: CallRecord[] = [];
    journal.subscribe((c) => copies.push(copyOfCall(c)));
    journal.subscribe((c) => copies.push(copyOfCall(c)));
    journal.record(call('/a'));
    expect(copies).toHaveLength(2);
    expect(copies[0]).toBe(copies[1]);
  });

  test("a listener's copy shares nothing with the journal; a record that is no view is copied whole", () => {
    const journal = new Journal(10);
    let copied: CallRecord | undefined;
    let rest: unknown[] = [];
    journal.subscribe((c, ...others) => {
      rest = others;
      copied = copyOfCall(c);
    });
    journal.record({ ...call('/a'), headers: { 'x-a': '1' } });
    // The view and whether it was adopted: nothing made for the call besides the view.
    expect(rest).toEqual([false]);
    copied!.headers['x-a'] = 'changed';
    expect(journal.list()[0]!.headers['x-a']).toBe('1');
    const plain = journal.list()[0]!;
    expect(copyOfCall(plain)).toEqual(plain);
    expect(copyOfCall(plain)).not.toBe(plain);
  });
});

describe('callNumber', () => {
  test.each([
    ['call-12', 12],
    ['call-0', 0],
    ['call-', undefined],
    ['call-1x', undefined],
    ['xcall-1', undefined],
  ])('%s is %s', (id, number) => {
    expect(callNumber(id)).toBe(number);
  });
});
