// How a replica of the mock keeps what it shares with the others current: sections that run with every change
// the others made applied, and whose own changes are published before anything they wrote goes out. Alone
// (the default), a section runs at once and writes go out at once.

/**
 * Why a request could not have its section: too many waiting for one already (`queue-full`), or what it changed
 * could not be published (`not-published`: it may have reached Redis all the same); else Redis did not answer.
 */
export type Unavailable = 'queue-full' | 'not-published';

/**
 * The sections a request's shared work runs in (see mock/docs/replicas.md). The work of a section is synchronous;
 * what it writes waits until the changes it made are published.
 */
export interface Replication {
  /**
   * Runs `work` in a section: at once inside one, else when this replica is current and holds the shared lock.
   * `unavailable` runs instead when the shared store cannot be had in time (nothing ran, nothing changed).
   */
  within(work: () => void, unavailable: (why?: Unavailable) => void): void;
  /**
   * Runs `write` once the changes of the open section are published (at once outside a section), or
   * `unavailable` when they could not be (the answer written then says so; what the section did is undone).
   */
  afterPublish(write: () => void, unavailable: (why?: Unavailable) => void): void;
}

/** One mock alone: no section waits, every write goes out at once. */
export const ALONE: Replication = Object.freeze({
  within: (work: () => void) => work(),
  afterPublish: (write: () => void) => write(),
});
