// The inspector page's "copy as curl" (a browser module, pure enough to run here).
import { describe, expect, test } from 'vitest';

interface RecordedCall {
  method: string;
  path: string;
  query?: Record<string, string | string[]>;
  headers?: Record<string, string | string[]>;
  body?: unknown;
}
const moduleUrl = new URL('../../mock/inspector/assets/curl.js', import.meta.url).href;
const { toCurl } = (await import(moduleUrl)) as { toCurl(call: RecordedCall, origin: string): string };

const ORIGIN = 'http://127.0.0.1:4010';

describe('toCurl', () => {
  test('writes a GET as the URL alone, its query included', () => {
    const call = { method: 'GET', path: '/members/m1/passes', query: { limit: '2', tag: ['a', 'b'] }, headers: {} };
    expect(toCurl(call, ORIGIN)).toBe(`curl 'http://127.0.0.1:4010/members/m1/passes?limit=2&tag=a&tag=b'`);
  });

  test('sends the method, the headers a replay needs and the JSON body', () => {
    const call = {
      method: 'POST',
      path: '/members/m1/passes',
      headers: { host: '127.0.0.1:4010', 'content-length': '11', 'content-type': 'application/json' },
      body: { name: 42 },
    };
    expect(toCurl(call, ORIGIN)).toBe(
      `curl -X POST 'http://127.0.0.1:4010/members/m1/passes' -H 'content-type: application/json' --data-raw '{"name":42}'`,
    );
  });

  test('quotes a single quote so the shell gives it back', () => {
    const call = { method: 'POST', path: '/p', headers: {}, body: { name: "O'Brien" } };
    expect(toCurl(call, ORIGIN)).toContain(`--data-raw '{"name":"O'\\''Brien"}'`);
  });

  test('encodes form fields again as a form', () => {
    const call = {
      method: 'POST',
      path: '/p',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: { a: '1 2', b: ['x', 'y'] },
    };
    expect(toCurl(call, ORIGIN)).toContain(`--data-raw 'a=1+2&b=x&b=y'`);
  });
});
