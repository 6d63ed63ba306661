import { validateHeaderName, validateHeaderValue, type ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { problem } from '../../mock/http/problems.js';
import { writeReply } from '../../mock/handler/write-reply.js';
import { bodyText, problemReply, sendableHeaders, type Reply, type WireText } from '../../mock/http/reply.js';

/** A stand-in for Node's response that keeps what was written. */
function response(): ServerResponse & { written: { status?: number; headers?: string[]; body?: string | Uint8Array } } {
  const written: { status?: number; headers?: string[]; body?: string | Uint8Array } = {};
  return {
    written,
    writeHead(status: number, headers: string[]) {
      written.status = status;
      written.headers = headers;
      return this;
    },
    end(body?: string | Uint8Array) {
      written.body = body;
      return this;
    },
  } as unknown as ServerResponse & { written: typeof written };
}

describe('writeReply', () => {
  test('writes a JSON body with its media type, charset and byte length, after the answer’s own headers', () => {
    const res = response();
    writeReply(
      res,
      { status: 201, headers: { Location: '/p/1' }, contentType: 'application/json', body: { name: 'é' } },
      ['X-Request-Id', 'r1'],
    );
    expect(res.written).toEqual({
      status: 201,
      headers: [
        'X-Request-Id',
        'r1',
        'Location',
        '/p/1',
        'Content-Type',
        'application/json; charset=utf-8',
        'Content-Length',
        '13',
      ],
      body: '{"name":"é"}',
    });
  });

  test('sends the text it was given for a body instead of serialising it again', () => {
    const res = response();
    writeReply(res, { status: 200, headers: {}, contentType: 'application/json', body: { a: 1 }, text: '{"a":1 }' });
    expect(res.written.body).toBe('{"a":1 }');
    expect(res.written.headers).toContain('8');
  });

  test('sends a kept text as its UTF-8 bytes, made on the first answer and kept for the next ones', () => {
    const wire: WireText = { text: '{"name":"Café ☕"}' };
    const reply = { status: 200, headers: {}, body: { name: 'Café ☕' }, text: wire.text, wire };
    const first = response();
    writeReply(first, reply);
    expect(Buffer.from(first.written.body as Uint8Array).toString('utf8')).toBe('{"name":"Café ☕"}');
    expect(first.written.headers).toEqual(['Content-Type', 'application/json; charset=utf-8', 'Content-Length', '20']);
    expect(wire.bytes).toBe(first.written.body);
    const again = response();
    writeReply(again, reply);
    expect(again.written.body).toBe(wire.bytes);
  });

  test('sends the text, not bytes kept for another text', () => {
    const res = response();
    const wire: WireText = { text: '{"a":1}', bytes: Buffer.from('{"a":1}') };
    writeReply(res, { status: 200, headers: {}, body: { a: 2 }, text: '{"a":2}', wire });
    expect(res.written.body).toBe('{"a":2}');
  });

  test.each([
    ['a problem type as JSON', 'application/problem+json', { a: 1 }, '{"a":1}'],
    ['a text type as it is', 'text/plain', 'plain words', 'plain words'],
    ['no type as JSON', undefined, [1], '[1]'],
  ])('serialises %s', (_name, contentType, body, text) => {
    const res = response();
    writeReply(res, { status: 200, headers: {}, contentType, body });
    expect(res.written.body).toBe(text);
  });

  test('keeps a charset the media type already names', () => {
    const res = response();
    writeReply(res, { status: 200, headers: {}, contentType: 'text/plain; charset=latin1', body: 'x' });
    expect(res.written.headers).toContain('text/plain; charset=latin1');
  });

  test('writes no body, type or length for a reply without a body', () => {
    const res = response();
    writeReply(res, { status: 204, headers: { Allow: 'GET' } }, ['X-Request-Id', 'r1']);
    expect(res.written).toEqual({ status: 204, headers: ['X-Request-Id', 'r1', 'Allow', 'GET'], body: undefined });
  });

  test('lets a reply header replace the answer’s own header of the same name, in any case', () => {
    const res = response();
    writeReply(res, { status: 204, headers: { vary: 'Accept' } }, ['X-Request-Id', 'r1', 'Vary', 'Origin']);
    expect(res.written.headers).toEqual(['X-Request-Id', 'r1', 'vary', 'Accept']);
  });
});

describe('problemReply', () => {
  test('answers the problem’s status as problem+json, recording its violations by default', () => {
    const found = problem('invalidBody', 'body /kind: wrong', {
      violations: [{ location: 'body', pointer: '/kind', message: 'wrong' }],
    });
    const reply: Reply = problemReply(found, { 'Retry-After': '1' });
    expect(reply).toEqual({
      status: 422,
      headers: { 'Retry-After': '1' },
      contentType: 'application/problem+json',
      body: found,
      violations: found.violations,
    });
  });

  test('records the violations it is given instead, such as none for a valid request answered 404', () => {
    const found = problem('notFound', 'no pass', {
      violations: [{ location: 'path', pointer: '/pass_id', message: 'none' }],
    });
    expect(problemReply(found, {}, []).violations).toEqual([]);
  });
});

describe('sendableHeaders', () => {
  test('keeps the headers Node can send and leaves out the others', () => {
    expect(sendableHeaders({ 'X-Ok': 'yes', 'X Bad Name': 'v', 'X-Bad-Value': 'a\nb', 'X-Latin': 'café' })).toEqual({
      'X-Ok': 'yes',
      'X-Latin': 'café',
    });
  });

  test('keeps a value exactly when Node would send it, for every character up to U+0800 and beyond', () => {
    const nodeSends = (value: string) => {
      try {
        validateHeaderValue('x-test', value);
        return true;
      } catch {
        return false;
      }
    };
    const characters = [...Array.from({ length: 0x800 }, (_, code) => String.fromCharCode(code)), '😀', '\u2028'];
    const differ = characters.filter(
      (c) => 'x-test' in sendableHeaders({ 'x-test': `a${c}b` }) !== nodeSends(`a${c}b`),
    );
    expect(differ.map((c) => c.codePointAt(0)!.toString(16))).toEqual([]);
  });

  test('keeps a name exactly when Node would send it, for every ASCII character', () => {
    const nodeSends = (name: string) => {
      try {
        validateHeaderName(name);
        return true;
      } catch {
        return false;
      }
    };
    const characters = Array.from({ length: 0x100 }, (_, code) => String.fromCharCode(code));
    const differ = characters.filter((c) => `x${c}` in sendableHeaders({ [`x${c}`]: 'v' }) !== nodeSends(`x${c}`));
    expect(differ.map((c) => c.charCodeAt(0).toString(16))).toEqual([]);
  });

  test('hands back the very same object when there is nothing to check', () => {
    const none = {};
    expect(sendableHeaders(none)).toBe(none);
  });
});

describe('bodyText', () => {
  const reply = (contentType: string, body: unknown): Reply => ({ status: 200, headers: {}, contentType, body });

  test.each([
    ['application/xml', { id: 0, name: 'doggie' }, '<xml><id>0</id><name>doggie</name></xml>'],
    ['text/xml', { id: 1 }, '<xml><id>1</id></xml>'],
    ['application/atom+xml', { id: 2 }, '<xml><id>2</id></xml>'],
    ['application/json', { id: 3 }, '{"id":3}'],
    ['application/vnd.api+json', 'text', '"text"'],
    ['text/plain', 'hello', 'hello'],
    ['text/plain', 0, '0'],
    ['text/plain', { id: 4 }, '{"id":4}'],
    ['application/octet-stream', [1], '[1]'],
  ])('a %s body %j is sent as %s, never "[object Object]"', (contentType, body, text) => {
    expect(bodyText(reply(contentType, body))).toBe(text);
  });

  test('writeReply writes one Content-Length, the body’s, whatever the reply’s headers say', () => {
    const res = response();
    writeReply(res, { ...reply('text/html', '<p>hi</p>'), headers: { 'Content-Length': '5', 'X-Id': '1' } });
    const names = res.written.headers!.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
    expect(names.filter((n) => n === 'content-length')).toHaveLength(1);
    expect(res.written.headers).toContain(String(Buffer.byteLength('<p>hi</p>')));
    expect(names).toContain('x-id');
  });

  test('writeReply sends an object under an XML media type as XML', () => {
    const res = response();
    writeReply(res, reply('application/xml', { id: 0 }));
    expect(res.written.body).toBe('<xml><id>0</id></xml>');
  });
});

describe('writeReply of a streamed reply', () => {
  // The writer also yields after a few milliseconds of work; a loaded machine must not make these tests see it.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A response whose socket takes `room` writes before it asks the writer to wait for `drain`. */
  function socket(room: number) {
    const writes: string[] = [];
    const listeners: (() => void)[] = [];
    let ended = false;
    const res = {
      req: { method: 'GET' },
      destroyed: false,
      writeHead: () => res,
      write(chunk: string) {
        writes.push(chunk);
        return writes.length % room !== 0;
      },
      once(event: string, listener: () => void) {
        if (event === 'drain') listeners.push(listener);
        return res;
      },
      end() {
        ended = true;
        return res;
      },
      destroy() {
        res.destroyed = true;
      },
    };
    return {
      res: res as unknown as ServerResponse,
      writes,
      drain: () => listeners.shift()?.(),
      get ended() {
        return ended;
      },
    };
  }

  test('makes the next chunk only once the socket has taken the last: a slow reader holds one chunk', () => {
    const made: number[] = [];
    function* chunks() {
      for (let i = 0; i < 5; i++) {
        made.push(i);
        yield `chunk ${i};`;
      }
    }
    const client = socket(2);
    writeReply(client.res, { status: 200, headers: {}, contentType: 'application/json', chunks: chunks() });
    expect([made, client.ended]).toEqual([[0, 1], false]);
    client.drain();
    expect(made).toEqual([0, 1, 2, 3]);
    client.drain();
    expect([client.writes.join(''), client.ended]).toEqual(['chunk 0;chunk 1;chunk 2;chunk 3;chunk 4;', true]);
  });

  test('stops making chunks once the client has gone', () => {
    let made = 0;
    function* chunks() {
      for (;;) {
        made++;
        yield 'x';
      }
    }
    const client = socket(1);
    writeReply(client.res, { status: 200, headers: {}, chunks: chunks() });
    (client.res as unknown as { destroyed: boolean }).destroyed = true;
    client.drain();
    expect(made).toBe(2);
  });
});
