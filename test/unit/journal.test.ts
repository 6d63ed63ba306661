import { describe, expect, test, vi } from 'vitest';
import { Journal, type NewCall } from '../../mock/journal/journal.js';

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
      expect(journal.list()).toEqual([{ id, time: '2026-03-01T12:00:00.000Z', ...call('/a') }]);
    } finally {
      vi.useRealTimers();
    }
  });

  test('numbers calls with the numbering it is given, so sessions sharing it never repeat an id', () => {
    let n = 0;
    const next = () => ++n;
    const one = new Journal(10, next);
    const two = new Journal(10, next);
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

  test('tells whether someone listens, until they unsubscribe', () => {
    const journal = new Journal(10);
    expect(journal.awaited).toBe(false);
    const heard: string[] = [];
    const stop = journal.subscribe((c) => heard.push(c.path));
    expect(journal.awaited).toBe(true);
    journal.record(call('/a'));
    stop();
    journal.record(call('/b'));
    expect(journal.awaited).toBe(false);
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
