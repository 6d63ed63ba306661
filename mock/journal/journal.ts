// The call journal: every request that reached the mock, kept in a bounded ring, recorded before the reply.
import type { Violation } from '../problems/problems.js';

/** One request the mock received and what it answered. */
export interface CallRecord {
  /** Increasing, unique for the life of the mock: `call-1`, `call-2`, ... */
  id: string;
  /** The `X-Request-Id` the mock answered with (the caller's, or a new UUID). */
  requestId?: string;
  /** ISO 8601 time the request was recorded. */
  time: string;
  /** The contract's operationId, or `null` when no operation matched. */
  operationId: string | null;
  method: string;
  path: string;
  pathParams: Record<string, string>;
  query: Record<string, string | string[]>;
  /** Request headers, lower-case names. */
  headers: Record<string, string | string[]>;
  /** The parsed body (JSON value, form fields, or text), `undefined` when there was none. */
  body?: unknown;
  response: { status: number; headers: Record<string, string>; body?: unknown };
  /** How the request broke the contract; empty for a valid request. */
  violations: Violation[];
}

/** Which calls to return; every field that is set must match. */
export interface CallFilter {
  operationId?: string;
  /** Case-insensitive. */
  method?: string;
  /** The exact request path, or a prefix ending in `*`: `/members/m1/*`. */
  path?: string;
}

export type NewCall = Omit<CallRecord, 'id' | 'time'>;

/**
 * A call as the journal keeps it: the call it was given (not a copy), its id, and its time as a number until
 * it is handed out (formatting it, or copying the call's fields, cost every request).
 */
interface Kept {
  id: string;
  at: number;
  call: NewCall;
}

/** The journal of one mock. It hands out copies; its own records never leave it. */
export class Journal {
  #ring: (Kept | undefined)[];
  #next = 0;
  #size = 0;
  #sequence = 0;
  #nextNumber: () => number;
  #dropped = 0;
  #listeners = new Set<(call: CallRecord) => void>();

  /**
   * @param limit how many calls it keeps
   * @param nextNumber numbers the calls; sessions of one mock share one, so ids stay unique across resets
   */
  constructor(
    readonly limit: number,
    nextNumber?: () => number,
  ) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`The journal limit must be a positive integer, not ${limit}.`);
    // The ring grows as calls come (a session that sees three calls holds three), up to the limit.
    this.#ring = [];
    this.#nextNumber = nextNumber ?? (() => ++this.#sequence);
  }

  /** Records a call and returns its id. The call is kept as it is given: it is handed over, not copied. */
  record(call: NewCall): string {
    const id = `call-${this.#nextNumber()}`;
    if (this.#size === this.limit) this.#dropped++;
    else this.#size++;
    const kept: Kept = { id, at: Date.now(), call };
    this.#ring[this.#next] = kept;
    this.#next = (this.#next + 1) % this.limit;
    if (this.#listeners.size === 0) return id;
    const record = handOut(kept);
    for (const listener of this.#listeners) {
      try {
        listener(record);
      } catch {
        // A listener's failure is its own: the call is recorded, and the request still gets its answer.
      }
    }
    return id;
  }

  /** Copies of the recorded calls that match the filter, oldest first. */
  list(filter: CallFilter = {}): CallRecord[] {
    const matches = matcher(filter);
    const out: CallRecord[] = [];
    this.#each((call) => matches(call) && out.push(structuredClone(handOut(call))));
    return out;
  }

  #each(visit: (call: Kept) => unknown): void {
    const start = (this.#next - this.#size + this.limit) % this.limit;
    for (let i = 0; i < this.#size; i++) visit(this.#ring[(start + i) % this.limit]!);
  }

  /** Calls `listener` with each call recorded from now on (the record itself: copy before handing out). */
  subscribe(listener: (call: CallRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Whether someone is waiting for a call (a long-poll): such a session is not evicted. */
  get awaited(): boolean {
    return this.#listeners.size > 0;
  }

  /** How many calls match, without copying them. */
  count(filter: CallFilter = {}): number {
    const matches = matcher(filter);
    let n = 0;
    this.#each((call) => matches(call) && n++);
    return n;
  }

  /** How many calls were dropped because the ring was full, since the last clear. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Forgets every call; ids keep increasing. */
  clear(): void {
    this.#ring = [];
    this.#next = 0;
    this.#size = 0;
    this.#dropped = 0;
  }
}

/** The record of a kept call, its time formatted (not a copy of what it holds). */
function handOut({ id, at, call }: Kept): CallRecord {
  return { id, time: new Date(at).toISOString(), ...call };
}

function matcher({ operationId, method, path }: CallFilter): (kept: Kept) => boolean {
  const upper = method?.toUpperCase();
  const prefix = path?.endsWith('*') ? path.slice(0, -1) : undefined;
  return ({ call }) =>
    (operationId === undefined || call.operationId === operationId) &&
    (upper === undefined || call.method === upper) &&
    (path === undefined || (prefix === undefined ? call.path === path : call.path.startsWith(prefix)));
}
