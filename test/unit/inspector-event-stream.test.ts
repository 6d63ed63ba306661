// The inspector page's event stream reader (a browser module, run here on Node's fetch and streams).
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';

interface ServerEvent {
  id: string;
  event: string;
  data: string;
}
interface Follow {
  start(): void;
  stop(): void;
}
interface EventStreamModule {
  createEventParser(dispatch: (event: ServerEvent) => void): { push(chunk: string): void };
  followEvents(options: {
    url: () => string;
    headers: () => Record<string, string>;
    onEvent: (event: ServerEvent) => void;
    onStatus?: (state: string) => void;
    retryDelay?: (attempt: number) => number;
  }): Follow;
}

// Loaded by URL: the page's modules are plain JavaScript the browser loads, outside the TypeScript build.
const moduleUrl = new URL('../../mock/inspector/assets/event-stream.js', import.meta.url).href;
const { createEventParser, followEvents } = (await import(moduleUrl)) as EventStreamModule;

function parse(...chunks: string[]): ServerEvent[] {
  const events: ServerEvent[] = [];
  const parser = createEventParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  return events;
}

describe('createEventParser', () => {
  test('dispatches an event with its id, type and data', () => {
    expect(parse('id: call-1\nevent: call\ndata: {"id":"call-1"}\n\n')).toEqual([
      { id: 'call-1', event: 'call', data: '{"id":"call-1"}' },
    ]);
  });

  test('joins data lines with a newline, and skips comments', () => {
    expect(parse(': ping\n\ndata: a\n: ping\ndata: b\n\n')).toEqual([{ id: '', event: 'message', data: 'a\nb' }]);
  });

  test('reads an event split anywhere across chunks, with CRLF line ends', () => {
    const text = 'id: call-7\r\nevent: call\r\ndata: {"x":1}\r\n\r\n';
    expect(parse(...text.split(''))).toEqual([{ id: 'call-7', event: 'call', data: '{"x":1}' }]);
  });

  test('keeps the last id for later events, and dispatches nothing for an event without data', () => {
    expect(parse('id: call-2\nevent: call\n\nevent: reset\ndata: {}\n\n')).toEqual([
      { id: 'call-2', event: 'reset', data: '{}' },
    ]);
  });
});

const servers: ReturnType<typeof createServer>[] = [];
const follows: Follow[] = [];
afterEach(() => {
  follows.splice(0).forEach((f) => f.stop());
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A server answering the n-th connection (0, 1...) with `answer`; resolves with its URL. */
async function eventServer(
  answer: (n: number, headers: IncomingHttpHeaders, res: ServerResponse) => void,
): Promise<{ url: string; requests: IncomingHttpHeaders[] }> {
  const requests: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    requests.push(req.headers);
    answer(requests.length - 1, req.headers, res);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/__mock/events`, requests };
}

const stream = (res: ServerResponse) => res.writeHead(200, { 'Content-Type': 'text/event-stream' });

describe('followEvents', () => {
  test('reconnects when the stream ends, resuming with the Last-Event-ID of the last event seen', async () => {
    const { url, requests } = await eventServer((n, _, res) => {
      stream(res);
      if (n === 0) res.end('id: call-1\nevent: call\ndata: 1\n\n');
      else res.write('id: call-2\nevent: call\ndata: 2\n\n');
    });
    const seen: string[] = [];
    const states: string[] = [];
    const both = new Promise<void>((resolve) => {
      const follow = followEvents({
        url: () => url,
        headers: () => ({ Authorization: 'Bearer t' }),
        onEvent: (event) => seen.push(event.data) === 2 && resolve(),
        onStatus: (state) => states.push(state),
        retryDelay: () => 0,
      });
      follows.push(follow);
      follow.start();
    });
    await both;
    expect(seen).toEqual(['1', '2']);
    expect(requests[0]!['last-event-id']).toBeUndefined();
    expect(requests[1]!['last-event-id']).toBe('call-1');
    expect(requests[1]!.authorization).toBe('Bearer t');
    expect(requests[1]!.accept).toBe('text/event-stream');
    expect(states).toEqual(['connecting', 'live', 'reconnecting', 'reconnecting', 'live']);
  });

  test('stops at a 401 without retrying, and starts again when told to', async () => {
    const { url, requests } = await eventServer((n, _, res) => {
      if (n === 0) return res.writeHead(401).end();
      stream(res);
      res.write('id: call-1\nevent: call\ndata: 1\n\n');
    });
    const retryDelay = vi.fn(() => 0);
    let unauthorized!: () => void;
    const refused = new Promise<void>((resolve) => (unauthorized = resolve));
    let received!: () => void;
    const event = new Promise<void>((resolve) => (received = resolve));
    const follow = followEvents({
      url: () => url,
      headers: () => ({}),
      onEvent: () => received(),
      onStatus: (state) => state === 'unauthorized' && unauthorized(),
      retryDelay,
    });
    follows.push(follow);
    follow.start();
    await refused;
    expect(retryDelay).not.toHaveBeenCalled();
    follow.start();
    await event;
    expect(requests).toHaveLength(2);
  });
});
