// The requests of one replica waiting for a section (see redis-replica.ts): in order, each answered 503 once it
// has waited its timeout, at most `max` of them (one more is answered 503 at once), taken a batch at a time.
import type { Unavailable } from '../instance/replication.js';

/** A request's shared work, and how it is answered when it cannot run. */
export interface Work {
  work: () => void;
  unavailable: (why?: Unavailable) => void;
  /** When (ms since the epoch) it is answered 503 if its section has not begun by then. */
  deadline: number;
  /** Answered 503 already: its section skips it. */
  expired?: boolean;
}

/** Requests in order; the batch whose section is beginning is still answered 503 at its deadline. */
export class WaitingRequests {
  #queue: Work[] = [];
  #starting: Work[] = [];
  /** One timer, however many wait: it answers those past their deadline, then waits for the next. */
  #expiry: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    /** Milliseconds a request waits for its section to begin at most. */
    readonly timeout: number,
    /** Requests waiting at most. */
    readonly max: number,
    /**
     * Called before requests of the batch whose section is beginning are answered 503 for having waited their
     * timeout (once a timer, with how many): the store did not begin their section in time, and a probe asked
     * after their answer must not call it ready. Requests queued behind them that expire only waited their
     * turn (a burst of load): they say nothing of the store.
     */
    readonly onExpired: (count: number) => void = () => undefined,
  ) {}

  get size(): number {
    return this.#queue.length;
  }

  /** Queues a request; when `max` wait already, answers it 503 (`queue-full`) at once. */
  add(work: () => void, unavailable: (why?: Unavailable) => void): void {
    if (this.#queue.length >= this.max) return unavailable('queue-full');
    this.#queue.push({ work, unavailable, deadline: Date.now() + this.timeout });
    this.#arm();
  }

  /** The next `count` requests, whose section begins: until `began`, they too are answered at their deadline. */
  take(count: number): Work[] {
    this.#starting = this.#queue.splice(0, count);
    return this.#starting;
  }

  /** The section of the batch taken began (or failed to). */
  began(): void {
    this.#starting = [];
  }

  /** Answers 503 every request waiting and the batch (those not answered already). */
  failAll(batch: Work[]): void {
    for (const { unavailable, expired } of [...batch, ...this.#queue.splice(0)]) if (!expired) quietly(unavailable);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#expiry);
  }

  #arm(): void {
    if (this.#expiry !== undefined || this.#closed) return;
    const next = this.#starting.find((w) => !w.expired) ?? this.#queue[0];
    if (!next) return;
    this.#expiry = setTimeout(() => this.#expire(), Math.max(0, next.deadline - Date.now()));
    this.#expiry.unref();
  }

  #expire(): void {
    this.#expiry = undefined;
    const now = Date.now();
    const starting = this.#starting.filter((waiting) => !waiting.expired && waiting.deadline <= now);
    let gone = 0;
    while (gone < this.#queue.length && this.#queue[gone]!.deadline <= now) gone++;
    const expired = [...starting, ...this.#queue.splice(0, gone)];
    if (starting.length > 0) quietly(() => this.onExpired(starting.length));
    for (const waiting of expired) {
      waiting.expired = true;
      quietly(waiting.unavailable);
    }
    this.#arm();
  }
}

/** Runs a function, its failure its own (a request's work answers its own errors). */
export function quietly(action: () => void): void {
  try {
    action();
  } catch {
    // The handler answered or logged it.
  }
}
