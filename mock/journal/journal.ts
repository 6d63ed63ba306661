// The call journal: every request that reached a session, kept in a bounded ring, recorded before the reply.
export * from './call-record.js';
import type { CallFilter, CallRecord, NewCall } from './call-record.js';
import { JournalBudget, type BudgetHolder } from './journal-budget.js';
import { copyOf, keepCall, NOT_PARSED, viewOf, type Kept } from './kept-call.js';

export type { Kept };
export { copyOfCall, wholeCopyOfCall } from './kept-call.js';

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
 * Hears each call recorded: `call` is a view of what the journal keeps (read it, do not keep or change it;
 * `copyOfCall(call)` hands out a copy to keep, made once a call however many listeners ask; `wholeCopyOfCall(call)`
 * one with its bodies not cut at the journal's limit); `adopted`: another replica served it. No closure is made
 * per call: the view is all a listener gets.
 */
export type CallListener = (call: CallRecord, adopted?: boolean) => void;

/** Hears what a journal keeps and clears, to hand it to other replicas (see {@link Journal.share}). */
export interface JournalShare {
  kept(kept: Kept): void;
  cleared(): void;
  /** The journal was closed: its session was dropped. */
  closed(): void;
}

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
  #share: JournalShare | undefined;

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
    // A body sent as JSON or form text was parsed from that text: listeners read it as it is, not parsed again.
    this.#keep(
      kept,
      call.sentJson === undefined && kept.body?.sent !== 'form' ? NOT_PARSED : call.body,
      'served',
      call,
    );
    this.#share?.kept(kept);
    return id;
  }

  /**
   * Keeps a call another replica recorded, as that replica kept it (its number and time): replicas number
   * calls in one order, so it is newer than every call kept here. `fresh`: false for a call this replica's
   * listeners heard already (its copy made again from the log), kept without telling them again.
   */
  adopt(kept: Kept, fresh = true): void {
    if (this.#closed) return;
    if (this.#size === this.limit) this.dropOldest();
    this.#keep(kept, NOT_PARSED, fresh ? 'adopted' : 'heard');
  }

  /** Hands every call kept from now on, and every clear, to `share` (one at a time; `undefined`: none). */
  share(share: JournalShare | undefined): void {
    this.#share = share;
  }

  /**
   * Keeps a call; `parsed`: its body as the handler parsed it, for listeners (else NOT_PARSED); `from`: served
   * here, adopted from another replica, or adopted again (its listeners heard it already: not told again);
   * `call`: the call as it was given, when served here, for listeners that ask for its bodies whole.
   */
  #keep(kept: Kept, parsed: unknown, from: 'served' | 'adopted' | 'heard' = 'served', call?: NewCall): void {
    this.#ring[this.#next] = kept;
    this.#next = (this.#next + 1) % this.limit;
    this.#size++;
    this.#bytes += kept.cost;
    this.#budget.charge(this, kept.cost, kept.number);
    if (from === 'heard') return;
    if (this.#observe || this.#listeners.size > 0) this.#tell(kept, parsed, from === 'adopted', call);
  }

  #tell(kept: Kept, parsed: unknown, adopted: boolean, call: NewCall | undefined): void {
    const view = viewOf(kept, parsed, call);
    if (this.#observe) this.#hear(this.#observe, view, adopted);
    for (const listener of this.#listeners.keys()) this.#hear(listener, view, adopted);
  }

  #hear(listener: CallListener, view: CallRecord, adopted: boolean): void {
    try {
      listener(view, adopted);
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
    for (const kept of this.#kept(after)) if (matches(kept)) yield copyOf(kept);
  }

  /**
   * A copy of the first call after call number `after` for which `test` is true, or `undefined`. `test` sees
   * each call in place, without a copy: only the one found is copied.
   */
  find(test: (call: CallRecord) => boolean, after = 0): CallRecord | undefined {
    for (const kept of this.#kept(after)) if (test(viewOf(kept))) return copyOf(kept);
    return undefined;
  }

  /**
   * The newest `limit` calls, oldest first, as views of what it keeps (not copies): to read at once, never to
   * change or keep. What a timed-out wait looks through for the closest calls, at a cost a full journal does not
   * raise.
   */
  recent(limit: number): CallRecord[] {
    const views: CallRecord[] = [];
    const start = this.#start;
    for (let i = Math.max(0, this.#size - limit); i < this.#size; i++)
      views.push(viewOf(this.#ring[(start + i) % this.limit]!));
    return views;
  }

  /** The kept calls numbered after `after`, oldest first: numbers only grow, so the first is found by halving. */
  *#kept(after = 0): Generator<Kept> {
    const start = this.#start;
    const at = (i: number) => this.#ring[(start + i) % this.limit]!;
    let [low, high] = [0, this.#size];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (at(middle).number > after) high = middle;
      else low = middle + 1;
    }
    for (let i = low; i < this.#size; i++) yield at(i);
  }

  /** Where the oldest call sits in the ring. */
  get #start(): number {
    return (this.#next - this.#size + this.limit) % this.limit;
  }

  /** The calls it keeps, oldest first, as it keeps them (to hand them to another replica: read, never change). */
  keptCalls(): Kept[] {
    return [...this.#kept()];
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
    this.#share?.cleared();
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
    this.#share?.closed();
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
 * Why a value a client gave as a call id (`since`, `Last-Event-ID`) is not one, `undefined` when it is one.
 * @example notACallId('since', 'bogus') // 'since must be the id of a call the mock recorded (call-12), not "bogus".'
 */
export function notACallId(name: string, given: unknown): string | undefined {
  if (typeof given === 'string' && callNumber(given) !== undefined) return undefined;
  return `${name} must be the id of a call the mock recorded (call-12), not ${JSON.stringify(given)}.`;
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
  contract,
  method,
  path,
}: CallFilter): (kept: Pick<Kept, 'operationId' | 'contract' | 'method' | 'path'>) => boolean {
  const upper = method?.toUpperCase();
  const prefix = path?.endsWith('*') ? path.slice(0, -1) : undefined;
  return (kept) =>
    (operationId === undefined || kept.operationId === operationId) &&
    (contract === undefined || kept.contract === contract) &&
    (upper === undefined || kept.method === upper) &&
    (path === undefined || (prefix === undefined ? kept.path === path : kept.path.startsWith(prefix)));
}
