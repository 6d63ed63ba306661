import { describe, expect, test } from 'vitest';
import { callsPage, readCursor } from '../../mock/admin/calls-page.js';
import { Journal, type NewCall } from '../../mock/journal/journal.js';

const call = (path: string, body?: string): NewCall => ({
  operationId: 'op',
  method: 'GET',
  path,
  pathParams: {},
  query: {},
  headers: {},
  body,
  response: { status: 200, headers: {} },
  violations: [],
});

interface Page {
  calls: { id: string; path: string }[];
  dropped: number;
  next_cursor: string | null;
}

const pageOf = (journal: Journal, after: number, limit: number, maxText?: number): Page =>
  JSON.parse(callsPage(journal, {}, after, limit, maxText).text!) as Page;

describe('callsPage', () => {
  test('walks every call once, oldest first, a cursor from each page to the next', () => {
    const journal = new Journal(10);
    for (const p of ['/1', '/2', '/3', '/4', '/5']) journal.record(call(p));
    const seen: string[] = [];
    let after = 0;
    for (;;) {
      const page = pageOf(journal, after, 2);
      seen.push(...page.calls.map((c) => c.path));
      if (page.next_cursor === null) break;
      after = readCursor(page.next_cursor)!;
    }
    expect(seen).toEqual(['/1', '/2', '/3', '/4', '/5']);
  });

  test('gives no next cursor when the calls end exactly at the limit', () => {
    const journal = new Journal(10);
    for (const p of ['/1', '/2']) journal.record(call(p));
    expect(pageOf(journal, 0, 2).next_cursor).toBeNull();
  });

  test('ends a page early before its JSON passes the size it is given, with one call at least', () => {
    const journal = new Journal(10);
    for (const p of ['/1', '/2', '/3']) journal.record(call(p, 'x'.repeat(1000)));
    const page = pageOf(journal, 0, 100, 2500);
    expect(page.calls.map((c) => c.path)).toEqual(['/1', '/2']);
    expect(readCursor(page.next_cursor!)).toBe(2);
    expect(pageOf(journal, 0, 100, 10).calls).toHaveLength(1);
  });

  test('sends the same calls as its body, serialised once', () => {
    const journal = new Journal(10);
    journal.record(call('/1', 'text'));
    const reply = callsPage(journal, {}, 0, 10);
    expect(JSON.parse(reply.text!)).toEqual(JSON.parse(JSON.stringify(reply.body)));
  });

  test.each(['', 'abc', 'call-2', 'YWZ0ZXI6', Buffer.from('after:-1').toString('base64url'), 'a'.repeat(41)])(
    'reads %j as no cursor',
    (cursor) => {
      expect(readCursor(cursor)).toBeUndefined();
    },
  );
});
