// Reads a server-sent event stream as the inspector page does: fetch() and a stream reader, not EventSource.

/** One event of the stream; `comment` for a `: ...` line (a ping). */
export interface StreamEvent {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** An open stream: its answer, and its events one at a time. */
export interface EventReader {
  response: Response;
  /** The next event (pings included when `comments`), or `undefined` once the stream has ended. */
  next(options?: { comments?: boolean }): Promise<StreamEvent | undefined>;
  /** The next `count` events that are not comments. */
  take(count: number): Promise<StreamEvent[]>;
  close(): void;
}

/**
 * Opens `url` and reads its events.
 * @example const events = await openEvents(`${mock.url}/__mock/events`); await events.take(2);
 */
export async function openEvents(url: string, headers: Record<string, string> = {}): Promise<EventReader> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const blocks: string[] = [];
  let done = false;
  const block = async (): Promise<string | undefined> => {
    for (;;) {
      if (blocks.length) return blocks.shift();
      if (done) return undefined;
      const read = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (read.done) done = true;
      else buffer += read.value;
      const parts = buffer.split('\n\n');
      buffer = parts.pop()!;
      blocks.push(...parts);
    }
  };
  const next = async ({ comments = false } = {}) => {
    for (;;) {
      const text = await block();
      if (text === undefined) return undefined;
      const event: StreamEvent = {};
      for (const line of text.split('\n')) {
        if (line.startsWith(':')) event.comment = line.slice(1).trim();
        else {
          const at = line.indexOf(': ');
          (event as Record<string, string>)[line.slice(0, at)] = line.slice(at + 2);
        }
      }
      if (event.comment === undefined || comments) return event;
    }
  };
  return {
    response,
    next,
    async take(count) {
      const events: StreamEvent[] = [];
      while (events.length < count) {
        const event = await next();
        if (!event) throw new Error(`the stream ended after ${events.length} of ${count} events`);
        events.push(event);
      }
      return events;
    },
    close: () => abort.abort(),
  };
}
