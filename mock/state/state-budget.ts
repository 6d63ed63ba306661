// The bytes what clients wrote may take: one budget for the memory stores of every session, one for a state file.

/**
 * A budget of characters of JSON (about bytes) that stores charge for what clients wrote (created, replaced
 * and removed records, and restored state). Placeholders are never charged: they are made again from the seed.
 * Shared by the stores of every session, so a hundred sessions cannot hold more than one budget between them.
 * @example const budget = new StateBudget(64 * 1024 * 1024); budget.charge(400) // true
 */
export class StateBudget {
  #used = 0;

  constructor(readonly bytes: number) {
    if (!Number.isInteger(bytes) || bytes < 1)
      throw new RangeError(`The state budget must be a positive number of bytes, not ${bytes}.`);
  }

  /** What is charged now. */
  get used(): number {
    return this.#used;
  }

  /**
   * Charges `cost` when it fits (or `force`: fixtures and state files are never refused); `false`, nothing charged,
   * when not.
   */
  charge(cost: number, force = false): boolean {
    if (!force && cost > 0 && this.#used + cost > this.bytes) return false;
    this.#used += cost;
    return true;
  }

  /** Gives back what an earlier charge took. */
  release(cost: number): void {
    this.#used = Math.max(0, this.#used - cost);
  }
}
