// The bytes the journals of one mock may hold together: past them, the oldest call of any session goes first.

/** What the budget asks of a journal: its oldest call, and dropping it. */
export interface BudgetHolder {
  /** The number of its oldest call (numbers increase across the mock), `undefined` when it holds none. */
  readonly oldest: number | undefined;
  /** What its calls are charged in all. */
  readonly bytes: number;
  /** Drops its oldest call, releasing what it was charged. */
  dropOldest(): void;
}

/**
 * A byte budget shared by journals. Each call is charged what it is estimated to cost; past the budget, the
 * journal that recorded it drops its own oldest calls while it holds more than half the budget, then the
 * oldest call across every journal is dropped until the rest fits (the call just recorded always stays).
 * @example const budget = new JournalBudget(64 * 1024 * 1024); new Journal(10000, { budget });
 */
export class JournalBudget {
  #used = 0;
  /** The journals that hold calls: the ones to look in for the oldest. */
  readonly #holders = new Set<BudgetHolder>();

  constructor(readonly bytes: number) {
    if (!Number.isInteger(bytes) || bytes < 1)
      throw new RangeError(`The journal budget must be a positive number of bytes, not ${bytes}.`);
  }

  /** The bytes charged now, across every journal. */
  get used(): number {
    return this.#used;
  }

  /** Charges a call `holder` just recorded (call number `newest`), then drops the oldest calls past the budget. */
  charge(holder: BudgetHolder, cost: number, newest: number): void {
    this.#holders.add(holder);
    this.#used += cost;
    // A journal past half the budget pays for its own calls first: one session flooded with calls (a stranger's
    // in the default session, say) cannot push every other session's calls out.
    while (this.#used > this.bytes && holder.bytes > this.bytes / 2 && holder.oldest !== newest) holder.dropOldest();
    while (this.#used > this.bytes) {
      // A mock has at most a few hundred sessions: looking at each is cheaper than keeping them in order.
      let oldest: BudgetHolder | undefined;
      for (const h of this.#holders) if (oldest === undefined || h.oldest! < oldest.oldest!) oldest = h;
      if (oldest === undefined || oldest.oldest === newest) return;
      oldest.dropOldest();
    }
  }

  /** Releases what a journal's dropped or cleared calls were charged; `empty` when it holds none any more. */
  release(holder: BudgetHolder, cost: number, empty: boolean): void {
    this.#used -= cost;
    if (empty) this.#holders.delete(holder);
  }
}
