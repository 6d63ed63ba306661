import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createEventStreams, type EventStreamSettings } from '../../mock/admin/event-streams.js';
import type { Exchange } from '../../mock/handler/exchange.js';
import { Journal, type NewCall } from '../../mock/journal/journal.js';
import { writeReply } from '../../mock/handler/write-reply.js';
import { openEvents } from '../support/event-reader.js';

let server: Server | undefined;

/** A server whose every request opens a stream of `journal`; `opened` gets each stream's response. */
async function serveStreams(journal: Journal, settings: EventStreamSettings) {
  const streams = createEventStreams(settings);
  const opened: ServerResponse[] = [];
  server = createServer((req, res) => {
    const ex = { req, res, session: { journal }, headers: [] } as unknown as Exchange;
    const refused = streams.open(ex, {}, { lastIssued: 1e9 });
    if (refused) writeReply(res, refused);
    else opened.push(res);
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { streams, opened, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

/** Reads a paused stream to its end: its events, each without the blank line after it. */
async function readToEnd(res: IncomingMessage): Promise<string[]> {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  res.resume();
  await once(res, 'end');
  return text.split('\n\n').filter(Boolean);
}

function newCall(body?: string): NewCall {
  return {
    operationId: 'op',
    method: 'POST',
    path: '/things',
    pathParams: {},
    query: {},
    headers: {},
    body,
    response: { status: 201, headers: {} },
    violations: [],
  };
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('event streams', () => {
  test('send a ping comment at the interval they are given', async () => {
    const { url } = await serveStreams(new Journal(10), { ping: 20 });
    const stream = await openEvents(url);
    expect(await stream.next({ comments: true })).toEqual({ comment: 'ping' });
    stream.close();
  });

  test('past the most open at once, a new stream ends the oldest, which is told why: none can lock others out', async () => {
    const { streams, url } = await serveStreams(new Journal(10), { max: 2 });
    // Two clients that never read (a stream hog), then a person opening the inspector.
    const [first, second] = [await openEvents(url), await openEvents(url)];
    const third = await openEvents(url);
    expect(third.response.status).toBe(200);
    expect(await first.next()).toEqual({
      event: 'evicted',
      data: JSON.stringify({ reason: '2 streams were open, the most this mock keeps' }),
    });
    expect(await first.next()).toBeUndefined();
    expect(streams.size).toBe(2);
    second.close();
    third.close();
  });

  test('endAll ends every stream, and says how many', async () => {
    const journal = new Journal(10);
    const { streams, url } = await serveStreams(journal, {});
    const [a, b] = [await openEvents(url), await openEvents(url)];
    expect(streams.endAll()).toBe(2);
    expect(await a.next()).toBeUndefined();
    expect(await b.next()).toBeUndefined();
    expect(streams.size).toBe(0);
  });

  test('a reader that does not read holds at most the bound unsent, and once the calls it missed are gone it gets event: overflow', async () => {
    const journal = new Journal(5);
    const unsent = 65_536;
    const { opened, url } = await serveStreams(journal, { unsent });
    const { hostname, port } = new URL(url);
    const answer = once(request({ hostname, port, path: '/', agent: false }).end(), 'response');
    const [res] = (await answer) as [IncomingMessage];
    res.pause();
    const body = 'x'.repeat(40_000);
    // Far more than a socket buffers: without the bound, the server would hold every one of them.
    for (let i = 0; i < 500; i++) journal.record(newCall(body));
    const [stream] = opened;
    expect(stream!.writableLength).toBeLessThan(unsent + 2 * body.length);
    const events = await readToEnd(res);
    expect(events.at(-1)).toMatch(/^event: overflow\ndata: \{"after":"call-\d+"\}$/);
  });

  test('calls of the backlog dropped from the journal while the reader lags end the stream with overflow, never a silent gap', async () => {
    const body = 'x'.repeat(2_000_000);
    const journal = new Journal(5, { bodyLimit: body.length });
    // Five large calls wait in the journal: the replay fills every buffer before the reader reads.
    for (let i = 0; i < 5; i++) journal.record(newCall(body));
    const { url } = await serveStreams(journal, { unsent: 65_536 });
    const { hostname, port } = new URL(url);
    const [res] = (await once(request({ hostname, port, path: '/', agent: false }).end(), 'response')) as [
      IncomingMessage,
    ];
    res.pause();
    // Four small calls push the oldest four out, the backlog the stream had not sent among them.
    for (let i = 0; i < 4; i++) journal.record(newCall('small'));
    const events = await readToEnd(res);
    const ids = events.flatMap((e) => /^id: call-(\d+)/.exec(e)?.[1] ?? []).map(Number);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(events.at(-1)).toBe(`event: overflow\ndata: {"after":"call-${ids.at(-1)}"}`);
  });
});
