import { describe, expect, test } from 'vitest';
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

  test('refuses a limit that is not a positive integer', () => {
    expect(() => new Journal(0)).toThrow(RangeError);
  });
});
