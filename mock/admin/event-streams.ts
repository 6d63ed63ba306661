// GET /__mock/events: a session's calls as server-sent events, the kept ones first, then each as it is recorded.
// A bounded number of streams a mock, each holding a bounded number of bytes unsent, each ended when its client
// leaves, its session is dropped, or the mock closes.
import type { Exchange } from '../handler/exchange.js';
import { callNumber, matchesFilter, type CallFilter, type CallRecord } from '../journal/journal.js';
import type { Reply } from '../http/reply.js';

/** How a mock's event streams are bounded. */
export interface EventStreamSettings {
  /**
   * Streams open at once on a mock; past it, a new one ends the oldest (`event: evicted`), so streams left open
   * by a client that never reads cannot lock a person's inspector out. @default 100
   */
  max?: number;
  /** Milliseconds between the `: ping` comments that keep proxies and the client's reader awake. @default 15000 */
  ping?: number;
  /**
   * Bytes a stream may leave unsent (its socket's buffer) before it stops writing and waits for its reader:
   * a slow reader costs at most this, never a copy of the journal.
   * @default 262144
   */
  unsent?: number;
}

/** Calls a stream opened without a last id replays: the newest of the journal. */
export const REPLAYED = 200;

/** Where a stream starts: after call number `after`, or (without one) with the newest {@link REPLAYED} calls. */
export interface StreamStart {
  after?: number;
  /** The highest call number the mock has given: a last id above it is from before a restart. */
  lastIssued: number;
}

/** The event streams of one mock. */
export interface EventStreams {
  /** Opens a stream on the exchange: `undefined` once it is open (it writes its own answer), or a refusal. */
  open(ex: Exchange, filter: CallFilter, start: StreamStart): Reply | undefined;
  /** Ends every open stream (the mock closes): each client reads the end of its stream. Returns how many. */
  endAll(): number;
  /** How many are open. */
  readonly size: number;
}

/**
 * The event streams of a mock.
 * @example const streams = createEventStreams(); streams.open(ex, {}, { lastIssued: 12 })
 */
export function createEventStreams({
  max = 100,
  ping = 15_000,
  unsent = 262_144,
}: EventStreamSettings = {}): EventStreams {
  // Oldest first: a Set keeps the order streams were opened in.
  const open = new Set<Ender>();
  return {
    open(ex, filter, start) {
      // The newest stream wins: the oldest is told why it ends, and may come back (with its Last-Event-ID).
      for (const oldest of open) {
        if (open.size < max) break;
        oldest(
          `event: evicted\ndata: ${JSON.stringify({ reason: `${max} streams were open, the most this mock keeps` })}\n\n`,
        );
      }
      const end = stream(ex, filter, start, { ping, unsent }, () => open.delete(end));
      open.add(end);
      return undefined;
    },
    endAll() {
      const ending = [...open];
      for (const end of ending) end();
      return ending.length;
    },
    get size() {
      return open.size;
    },
  };
}

/**
 * Writes the stream of one exchange until it ends; returns the function that ends it. It sends the calls
 * after the last one sent, reading them from the journal, and stops whenever more than `unsent` bytes wait
 * for the reader, to go on at its `drain`: a call recorded meanwhile is read from the journal then. A call
 * the journal dropped before the reader caught up is lost to the stream: it ends with `event: overflow`
 * (data `{ "after": "<the last id sent>" }`), so the page says so and resumes with what is kept.
 */
/**
 * A call as an event, written once however many streams send it: the journal hands every listener the same
 * view of a call it just recorded.
 */
const events = new WeakMap<CallRecord, string>();
function eventOf(call: CallRecord): string {
  let text = events.get(call);
  if (text === undefined) events.set(call, (text = `id: ${call.id}\nevent: call\ndata: ${JSON.stringify(call)}\n\n`));
  return text;
}

/** Ends a stream, its last event (`event: reset`, `event: evicted`…) written first when given. */
type Ender = (lastEvent?: string) => void;

function stream(
  ex: Exchange,
  filter: CallFilter,
  start: StreamStart,
  { ping, unsent }: Required<Pick<EventStreamSettings, 'ping' | 'unsent'>>,
  forget: () => void,
): Ender {
  const { res, session } = ex;
  const { journal } = session;
  const matches = matchesFilter(filter);
  let last = 0;
  let waiting = false;
  let ended = false;

  const end = (lastEvent?: string) => {
    if (ended) return;
    ended = true;
    forget();
    stop();
    clearInterval(pinging);
    res.off('close', left);
    if (!res.destroyed) res.end(lastEvent);
  };
  const left = () => end();
  const write = (text: string) => {
    res.write(text);
    // One drain listener at a time: a reset written while waiting must not make the stream pump twice.
    if (!waiting && res.writableLength > unsent) {
      waiting = true;
      res.once('drain', resume);
    }
  };
  const send = (call: CallRecord) => {
    last = callNumber(call.id)!;
    write(eventOf(call));
  };
  /** Sends the calls kept after the last one sent, until the reader falls behind. */
  const pump = () => {
    for (const call of journal.since(last, filter)) {
      send(call);
      if (waiting) return;
    }
  };
  const resume = () => {
    if (ended) return;
    waiting = false;
    // A call after the last one sent was dropped from the journal (its bound, or the shared budget) while the
    // reader lagged: one recorded meanwhile, or one of a backlog still to be sent. Without a filter the
    // stream cannot tell whether it matched, so it says so rather than skip it silently.
    const lost = journal.lastDropped > last;
    if (lost) return end(`event: overflow\ndata: ${JSON.stringify({ after: `call-${last}` })}\n\n`);
    pump();
  };

  res.writeHead(200, [
    ...ex.headers,
    'Content-Type',
    'text/event-stream; charset=utf-8',
    'Cache-Control',
    'no-cache',
    // A proxy that buffers answers (nginx) would hold the events back.
    'X-Accel-Buffering',
    'no',
  ]);
  res.flushHeaders();
  ex.log?.(ex, 200);
  res.on('close', left);

  const stop = journal.subscribe(
    (call) => {
      if (!matches(call)) {
        // Passed over: a later drop of it is no loss to this stream.
        if (!waiting) last = Math.max(last, callNumber(call.id)!);
        return;
      }
      // Waiting, the call is sent from the journal when the reader catches up (or reported lost).
      if (!waiting) send(call); // read once, at once: the journal's own view serves
    },
    // The session was dropped: its calls are gone, and no more come to it.
    () => end('event: reset\ndata: {}\n\n'),
    () => write('event: reset\ndata: {}\n\n'),
  );
  const pinging = setInterval(() => {
    if (!waiting) write(': ping\n\n');
  }, ping);
  pinging.unref();

  const newest = () =>
    newestFrom(journal.count(filter), (n) => {
      let seen = 0;
      return journal.find((call) => matches(call) && ++seen === n)?.id;
    });
  if (start.after === undefined) last = newest();
  else if (start.after <= start.lastIssued) last = start.after;
  else {
    // A last id the mock never gave: the client saw a mock that has restarted since, and its calls are gone.
    write('event: reset\ndata: {}\n\n');
    last = newest();
  }
  if (!waiting) pump();
  return end;
}

/** The number after which the newest {@link REPLAYED} of `count` calls start (0: all of them). */
function newestFrom(count: number, nth: (n: number) => string | undefined): number {
  if (count <= REPLAYED) return 0;
  const id = nth(count - REPLAYED);
  return id === undefined ? 0 : callNumber(id)!;
}
