// The call journal: every request that reached a session, kept in a bounded ring, recorded before the reply.
import type { BodyViolation } from '../prism/check-response.js';
import type { Violation } from '../problems/problems.js';
import type { Refusal } from '../problems/shape-refusal.js';
import type { FaultKind } from '../respond/faults.js';
import { JournalBudget, type BudgetHolder } from './journal-budget.js';
import { copyOf, keepCall, viewOf, type Kept } from './kept-call.js';

/** One request the mock received and what it answered. */
export interface CallRecord {
  /** Increasing, unique for the life of the mock: `call-1`, `call-2`, ... */
  id: string;
  /** The `X-Request-Id` the mock answered with (the caller's, or a new UUID). */
  requestId?: string;
  /** ISO 8601 time the request was recorded. */
  time: string;
  /**
   * Milliseconds from the request's arrival to its answer being decided (its delay included): the time the
   * log line says, measured as the call is recorded, just before the answer is written.
   */
  ms?: number;
  /** The contract's operationId, or `null` when no operation matched. */
  operationId: string | null;
  method: string;
  path: string;
  pathParams: Record<string, string>;
  query: Record<string, string | string[]>;
  /** Request headers, lower-case names. */
  headers: Record<string, string | string[]>;
  /**
   * The parsed body (JSON value, form fields, or text), `undefined` when there was none. A body longer than
   * the journal keeps (`journalBodyLimit`) is the first characters of its text, a string: see `truncated`.
   */
  body?: unknown;
  /** Set only when `body` was cut: the body is then the start of its text, and `bytes` the size received. */
  truncated?: { bytes: number };
  /**
   * What the mock answered; a body cut like the request's says so in `truncated`. When no answer was sent
   * (`fault: "drop"`), `status` is 0 and `headers` empty: read `fault` first, 0 is no status.
   */
  response: { status: number; headers: Record<string, string>; body?: unknown; truncated?: { bytes: number } };
  /** How the request broke the contract; empty for a valid request. At most 100: see `violationCount`. */
  violations: Violation[];
  /** Set only when the request broke the contract in more than the 100 ways kept: how many there were. */
  violationCount?: number;
  /**
   * Set only when the mock refused the request (or could not give what it asked): the status answered, and
   * whether that answer is the operation's documented response (`true`) or the mock's own problem+json,
   * sent because the contract documents nothing fitting (`false`).
   */
  refusal?: Refusal;
  /**
   * Set only when the body the contract gives (an example, or one generated from the schema) breaks the
   * documented schema: each way it does. With `errors` on, the answer was a 500 problem listing them instead.
   */
  responseViolations?: BodyViolation[];
  /**
   * Set only when the test chose the answer rather than the request earning it: `prefer` (`Prefer: code=` or
   * `example=`), `override` (an override's status or body, a replayed HAR among them). Such a call says
   * what the app does with that answer, not what the provider answers; the Pact export leaves it out.
   */
  answeredBy?: AnsweredBy;
  /**
   * Set only when the mock departed on purpose from the answer the contract gives (faults, `--latency`,
   * `--failure-rate`, `--drop-rate`, or an override's `fault` and `delay`):
   * - `drop`: **no answer was sent**; the connection was closed (`response.status` is 0, not a status);
   * - `failure`: the answer is an injected 5xx (the operation's documented one, else a 500 problem), not one
   *   the request itself earned;
   * - `latency`: the answer was held back (`--latency`, the faults' latency, an override's `delay`).
   * One value a call: a drop or a failure held back too is marked `drop` or `failure`, which say more than
   * the delay. What a request asks for itself (`Prefer: code=500, delay=2000`) is no fault and is not marked.
   */
  fault?: FaultKind;
}

/**
 * A response header of a call, whatever the case of its name (the journal keeps the names as sent).
 * @example responseHeader(call, 'content-type') // 'application/json'
 */
export function responseHeader(call: Pick<CallRecord, 'response'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const key in call.response.headers) if (key.toLowerCase() === wanted) return call.response.headers[key];
  return undefined;
}

/** Who chose an answer the request did not earn by itself (see CallRecord.answeredBy). */
export type AnsweredBy = 'prefer' | 'override';

/** Which calls to return; every field that is set must match. */
export interface CallFilter {
  operationId?: string;
  /** Case-insensitive. */
  method?: string;
  /** The exact request path, or a prefix ending in `*`: `/members/m1/*`. */
  path?: string;
}

/** A call to record: what the journal does not add itself. */
export interface NewCall extends Omit<CallRecord, 'id' | 'time' | 'truncated' | 'response' | 'violationCount'> {
  /** The size of the body as received, in bytes, when known (a cut body says it in `truncated`). */
  bodyBytes?: number;
  /** The body's text as received, when it was JSON: kept instead of serialising `body` again. */
  bodyText?: string;
  /** How many violations there were, when the validator listed fewer (see `violations`). */
  violationCount?: number;
  /** What the mock answered; `text` is the body as it was serialised for the wire, when it was. */
  response: { status: number; headers: Record<string, string>; body?: unknown; text?: string };
}

/** How a journal is made. */
export interface JournalSettings {
  /** Numbers the calls; the sessions of one mock share one, so ids stay unique across resets. @default its own */
  nextNumber?: () => number;
  /** The bytes it may hold; the sessions of one mock share one budget. @default a budget of its own, 64 MiB */
  budget?: JournalBudget;
  /** Longest body text kept, in characters; longer bodies keep their start (see `truncated`). @default 16384 */
  bodyLimit?: number;
  /** Hears every call recorded, for the journal's whole life (the coverage record); not a waiter. @default none */
  observe?: CallListener;
}

/** What a listener hears besides calls: its journal closed, or cleared. */
interface Ends {
  closed: (() => void) | undefined;
  cleared: (() => void) | undefined;
}

/** Thrown to a wait when its journal is closed: the session it belongs to was dropped. */
export class JournalClosedError extends Error {
  constructor() {
    super('The journal was closed: its session was dropped.');
    this.name = 'JournalClosedError';
  }
}

/**
 * Hears each call recorded: `call` is a view of what the journal keeps (read it, do not keep or change it);
 * `copy()` hands out a copy, made once a call however many listeners ask.
 */
export type CallListener = (call: CallRecord, copy: () => CallRecord) => void;

/** The journal of one session. It hands out copies; its own records never leave it. */
export class Journal implements BudgetHolder {
  #ring: (Kept | undefined)[] = [];
  #next = 0;
  #size = 0;
  #bytes = 0;
  #sequence = 0;
  #dropped = 0;
  #lastDropped = 0;
  #closed = false;
  readonly #nextNumber: () => number;
  readonly #budget: JournalBudget;
  readonly #bodyLimit: number;
  readonly #listeners = new Map<CallListener, Ends>();
  readonly #observe: CallListener | undefined;

  /** @param limit how many calls it keeps */
  constructor(
    readonly limit: number,
    { nextNumber, budget, bodyLimit = 16384, observe }: JournalSettings = {},
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`The journal limit must be a positive integer, not ${limit}.`);
    if (!Number.isInteger(bodyLimit) || bodyLimit < 0)
      throw new RangeError(`The journal body limit must be a whole number of characters, not ${bodyLimit}.`);
    this.#nextNumber = nextNumber ?? (() => ++this.#sequence);
    this.#budget = budget ?? new JournalBudget(64 * 1024 * 1024);
    this.#bodyLimit = bodyLimit;
    this.#observe = observe;
  }

  /**
   * Records a call and returns its id. Its bodies are kept as text (so a body costs its size, not its parsed
   * objects); its objects (query, headers) are kept as they are given, not copied.
   */
  record(call: NewCall): string {
    const number = this.#nextNumber();
    const id = `call-${number}`;
    // A request that began before its session was dropped has nowhere to be kept.
    if (this.#closed) return id;
    if (this.#size === this.limit) this.dropOldest();
    const kept = keepCall(number, call, this.#bodyLimit);
    this.#ring[this.#next] = kept;
    this.#next = (this.#next + 1) % this.limit;
    this.#size++;
    this.#bytes += kept.cost;
    this.#budget.charge(this, kept.cost, number);
    if (this.#observe || this.#listeners.size > 0) this.#tell(kept);
    return id;
  }

  #tell(kept: Kept): void {
    const view = viewOf(kept);
    let copy: CallRecord | undefined;
    const copyOnce = () => (copy ??= copyOf(kept));
    if (this.#observe) this.#hear(this.#observe, view, copyOnce);
    for (const listener of this.#listeners.keys()) this.#hear(listener, view, copyOnce);
  }

  #hear(listener: CallListener, view: CallRecord, copy: () => CallRecord): void {
    try {
      listener(view, copy);
    } catch {
      // A listener's failure is its own: the call is recorded, and the request still gets its answer.
    }
  }

  /** Copies of the recorded calls that match the filter, oldest first. */
  list(filter: CallFilter = {}): CallRecord[] {
    return [...this.since(0, filter)];
  }

  /**
   * Copies of the calls recorded after call number `after` that match the filter, oldest first, one at a time:
   * a reader takes as many as it wants (a page). Read it at once: recording changes what it walks.
   */
  *since(after: number, filter: CallFilter = {}): Generator<CallRecord> {
    const matches = matcher(filter);
    for (const kept of this.#kept()) if (kept.number > after && matches(kept)) yield copyOf(kept);
  }

  /**
   * A copy of the first call after call number `after` for which `test` is true, or `undefined`. `test` sees
   * each call in place, without a copy: only the one found is copied.
   */
  find(test: (call: CallRecord) => boolean, after = 0): CallRecord | undefined {
    for (const kept of this.#kept()) if (kept.number > after && test(viewOf(kept))) return copyOf(kept);
    return undefined;
  }

  *#kept(): Generator<Kept> {
    const start = this.#start;
    for (let i = 0; i < this.#size; i++) yield this.#ring[(start + i) % this.limit]!;
  }

  /** Where the oldest call sits in the ring. */
  get #start(): number {
    return (this.#next - this.#size + this.limit) % this.limit;
  }

  /** How many calls match, without copying them. */
  count(filter: CallFilter = {}): number {
    const matches = matcher(filter);
    let n = 0;
    for (const kept of this.#kept()) if (matches(kept)) n++;
    return n;
  }

  /**
   * Calls `listener` with each call recorded from now on, `closed` if the journal is closed first (its
   * session was dropped), and `cleared` each time it is cleared (a reset). Returns the function that stops
   * listening.
   */
  subscribe(listener: CallListener, closed?: () => void, cleared?: () => void): () => void {
    this.#listeners.set(listener, { closed, cleared });
    return () => this.#listeners.delete(listener);
  }

  /** How many listen for calls (waits, long-polls). */
  get waiters(): number {
    return this.#listeners.size;
  }

  /** The number of the newest call dropped past its limit or the budget (not by a clear); 0 when none was. */
  get lastDropped(): number {
    return this.#lastDropped;
  }

  /** How many calls were dropped (past its limit, or the budget), since the last clear. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The bytes its calls are charged. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The number of its oldest call, `undefined` when it has none (for the budget). */
  get oldest(): number | undefined {
    return this.#size === 0 ? undefined : this.#ring[this.#start]!.number;
  }

  /** Drops its oldest call, and counts it in `dropped`. */
  dropOldest(): void {
    if (this.#size === 0) return;
    const at = this.#start;
    const { cost, number } = this.#ring[at]!;
    this.#lastDropped = Math.max(this.#lastDropped, number);
    this.#ring[at] = undefined;
    this.#size--;
    this.#bytes -= cost;
    this.#dropped++;
    this.#budget.release(this, cost, this.#size === 0);
  }

  /** Forgets every call, releasing their bytes; ids keep increasing. Tells the listeners that asked. */
  clear(): void {
    this.#forget();
    for (const { cleared } of [...this.#listeners.values()]) cleared?.();
  }

  #forget(): void {
    this.#budget.release(this, this.#bytes, true);
    this.#ring = [];
    this.#next = 0;
    this.#size = 0;
    this.#bytes = 0;
    this.#dropped = 0;
  }

  /** Clears it for good (its session is dropped): it keeps no more calls, and every wait on it ends. */
  close(): void {
    this.#forget();
    this.#closed = true;
    const closing = [...this.#listeners.values()];
    this.#listeners.clear();
    for (const { closed } of closing) closed?.();
  }
}

/**
 * The number in a call id (`call-12` → 12), `undefined` for anything else.
 * @example callNumber('call-12') // 12
 */
export function callNumber(id: string): number | undefined {
  const found = /^call-(\d{1,15})$/.exec(id);
  return found ? Number(found[1]) : undefined;
}

/**
 * Whether a call matches a filter, as {@link Journal.list} filters.
 * @example matchesFilter({ method: 'get' })(call) // true for a GET
 */
export function matchesFilter(
  filter: CallFilter,
): (call: Pick<CallRecord, 'operationId' | 'method' | 'path'>) => boolean {
  return matcher(filter);
}

function matcher({
  operationId,
  method,
  path,
}: CallFilter): (kept: Pick<Kept, 'operationId' | 'method' | 'path'>) => boolean {
  const upper = method?.toUpperCase();
  const prefix = path?.endsWith('*') ? path.slice(0, -1) : undefined;
  return (kept) =>
    (operationId === undefined || kept.operationId === operationId) &&
    (upper === undefined || kept.method === upper) &&
    (path === undefined || (prefix === undefined ? kept.path === path : kept.path.startsWith(prefix)));
}
