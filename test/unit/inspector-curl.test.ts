// The inspector page's "copy as curl" (a browser module, pure enough to run here).
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';

interface RecordedCall {
  method: string;
  path: string;
  query?: Record<string, string | string[]>;
  headers?: Record<string, string | string[]>;
  body?: unknown;
  bodyText?: string;
  bodyJson?: true;
  bodyEncoding?: 'base64';
}
const moduleUrl = new URL('../../mock/inspector/assets/curl.js', import.meta.url).href;
const { toCurl } = (await import(moduleUrl)) as { toCurl(call: RecordedCall, origin: string): string };

const ORIGIN = 'http://127.0.0.1:4010';

describe('toCurl', () => {
  test('writes a GET as the URL alone, its query included', () => {
    const call = { method: 'GET', path: '/members/m1/passes', query: { limit: '2', tag: ['a', 'b'] }, headers: {} };
    expect(toCurl(call, ORIGIN)).toBe(`curl --globoff 'http://127.0.0.1:4010/members/m1/passes?limit=2&tag=a&tag=b'`);
  });

  test('sends the method, the headers a replay needs and the JSON body', () => {
    const call = {
      method: 'POST',
      path: '/members/m1/passes',
      headers: { host: '127.0.0.1:4010', 'content-length': '11', 'content-type': 'application/json' },
      body: { name: 42 },
    };
    expect(toCurl(call, ORIGIN)).toBe(
      `curl --globoff -X POST 'http://127.0.0.1:4010/members/m1/passes' -H 'content-type: application/json' --data-raw '{"name":42}'`,
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

  test('sends a form as the text it was sent as, when the journal kept it', () => {
    const call = {
      method: 'POST',
      path: '/p',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: { a: '1 2', b: ['x', 'y'] },
      bodyText: 'b=x&a=1%202&b=y',
    };
    expect(toCurl(call, ORIGIN)).toContain(`--data-raw 'b=x&a=1%202&b=y'`);
  });

  test('sends a string sent as JSON as JSON, quotes included, and a text body as it is', () => {
    const headers = { 'content-type': 'application/json' };
    expect(toCurl({ method: 'POST', path: '/p', headers, body: 'hello', bodyJson: true }, ORIGIN)).toContain(
      `--data-raw '"hello"'`,
    );
    expect(toCurl({ method: 'POST', path: '/p', headers: {}, body: 'hello' }, ORIGIN)).toContain(`--data-raw 'hello'`);
  });

  test('sends a path that starts with two slashes to the mock, never to the host it names', () => {
    const call = { method: 'GET', path: '//evil.example/members/m1/passes', headers: {} };
    expect(toCurl(call, ORIGIN)).toBe(`curl --globoff 'http://127.0.0.1:4010//evil.example/members/m1/passes'`);
  });

  test('turns off curl globbing, so brackets and braces in the path are sent as they are', () => {
    const call = { method: 'GET', path: '/members/[1-99999999]/passes/{a,b}', headers: {} };
    expect(toCurl(call, ORIGIN)).toBe(`curl --globoff 'http://127.0.0.1:4010/members/[1-99999999]/passes/{a,b}'`);
  });

  test('keeps dot segments of the path, which curl would otherwise squash', () => {
    const call = { method: 'GET', path: '/members/../__mock/state', headers: {} };
    expect(toCurl(call, ORIGIN)).toBe(`curl --globoff --path-as-is 'http://127.0.0.1:4010/members/../__mock/state'`);
  });

  test('keeps shell metacharacters in the path, the query, the headers and the body inside quotes', () => {
    const call = {
      method: 'POST',
      path: "/p/$(id)/`id`/;|&<>'x",
      query: { q: "$HOME'; rm -rf ~" },
      headers: { 'x-note': "a'$(id)`id`;|&\nb" },
      body: "$(id) 'quoted' `id`",
    };
    expect(toCurl(call, ORIGIN)).toBe(
      `curl --globoff -X POST 'http://127.0.0.1:4010/p/$(id)/\`id\`/;|&<>'\\''x?q=%24HOME%27%3B+rm+-rf+%7E' ` +
        `-H 'x-note: a'\\''$(id)\`id\`;|&\nb' --data-raw '$(id) '\\''quoted'\\'' \`id\`'`,
    );
  });

  test('sends a body journaled as base64 as its bytes, decoded by the shell on the way', () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x27]);
    const call = {
      method: 'PUT',
      path: '/files',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes.toString('base64'),
      bodyEncoding: 'base64' as const,
    };
    const command = toCurl(call, ORIGIN);
    expect(command).toBe(
      `printf '%s' '${bytes.toString('base64')}' | base64 -d | curl --globoff -X PUT 'http://127.0.0.1:4010/files' ` +
        `-H 'content-type: application/octet-stream' --data-binary @-`,
    );
    // What the shell pipes into curl is the bytes sent.
    const piped = execFileSync('bash', ['-c', command.slice(0, command.indexOf(' | curl '))]);
    expect(piped).toEqual(bytes);
  });

  test('quotes a method that is not a plain word', () => {
    const call = { method: 'X;id', path: '/p', headers: {} };
    expect(toCurl(call, ORIGIN)).toBe(`curl --globoff -X 'X;id' 'http://127.0.0.1:4010/p'`);
  });
});
