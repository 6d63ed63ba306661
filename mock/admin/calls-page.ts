// A page of GET /__mock/calls: a bounded number of calls and of bytes, oldest first, and the cursor of the next.
import { callNumber, type CallFilter, type Journal } from '../journal/journal.js';
import type { Reply } from '../http/reply.js';

/** Calls a page holds unless `limit` says otherwise, and the most it may say. */
export const PAGE_LIMIT = { default: 100, max: 1000 };

/**
 * A page ends before its JSON would pass this many characters (always with one call at least): small enough
 * that serving one costs a few milliseconds, so reading a full journal never holds up other requests long.
 */
export const PAGE_TEXT = 1024 * 1024;

/**
 * The page of `limit` calls after call number `after` (0: from the first) that match the filter, ending early
 * before `maxText` characters of JSON: `{ calls, dropped, next_cursor }`, `next_cursor` null on the last page.
 * Each call is serialised once, to measure it and to send it.
 * @example callsPage(journal, {}, 0, 100) // { status: 200, body: { calls, dropped: 0, next_cursor: 'YWZ0ZXI6MTAw' } }
 */
export function callsPage(
  journal: Journal,
  filter: CallFilter,
  after: number,
  limit: number,
  maxText = PAGE_TEXT,
): Reply {
  const calls: unknown[] = [];
  const texts: string[] = [];
  let size = 0;
  let last = after;
  let next: string | null = null;
  for (const call of journal.since(after, filter)) {
    if (calls.length === limit) {
      next = cursorOf(last);
      break;
    }
    const text = JSON.stringify(call);
    if (calls.length > 0 && size + text.length > maxText) {
      next = cursorOf(last);
      break;
    }
    calls.push(call);
    texts.push(text);
    size += text.length + 1;
    last = callNumber(call.id)!;
  }
  const { dropped } = journal;
  const text = `{"calls":[${texts.join(',')}],"dropped":${dropped},"next_cursor":${JSON.stringify(next)}}`;
  return {
    status: 200,
    headers: {},
    contentType: 'application/json',
    body: { calls, dropped, next_cursor: next },
    text,
  };
}

/** An opaque cursor: the number of the last call a page gave. */
function cursorOf(number: number): string {
  return Buffer.from(`after:${number}`).toString('base64url');
}

/** The call number a cursor of {@link callsPage} stands for, or `undefined` when it is not one. */
export function readCursor(cursor: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return undefined;
  const found = /^after:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  return found ? Number(found[1]) : undefined;
}
