// The state store: what clients wrote, by collection and id, within a byte budget, behind an interface so other
// backends can follow.
import {
  newOverlay,
  NO_PLACEHOLDERS,
  overlayCost,
  planDelete,
  planPut,
  recordsCost,
  visibleCount,
  countChanged,
  forgetCounts,
  visibleRecord,
  visibleRecords,
  visiblePosition,
  writeRecord,
  dropRecord,
  type Overlay,
  type Placeholders,
  type StoredRecord,
} from './overlay.js';
import { StateBudget } from './state-budget.js';
import { deepFreeze, isFrozenThrough } from '../lib/frozen-json.js';

export type { StoredRecord };

/** Everything a store holds, as plain JSON: collection path → records in insertion order. */
export type StoreSnapshot = Record<string, StoredRecord[]>;

/**
 * A session's state in the one shape every transport gives it: `GET /__mock/state`, `state()` in process and
 * through `connectMock`, and what `setState()` returns.
 */
export interface MockState {
  collections: StoreSnapshot;
}

/** How much a store may hold: records in one collection (placeholders included), and the bytes clients wrote. */
export interface StoreLimits {
  collection: number;
  /** What the records clients wrote may take (see StateBudget); shared by every session's memory store. */
  budget: StateBudget;
}

/** What a store is, for health: its kind, its file, and the last write that failed (if any did). */
export interface StoreInfo {
  kind: 'memory' | 'sqlite' | 'redis';
  file?: string;
  lastError?: { message: string; at: string };
  /** The last write failed: changes are being refused (answered with a problem) until one succeeds. */
  failing?: boolean;
  /** The file was deleted or replaced while the mock ran: only a restart serves the file at that path again. */
  lost?: boolean;
  /** Writes that failed or were refused since the store was opened (a memory store never fails: none). */
  errors?: number;
  /** Records (and removed ids) of the file kept parsed in memory, at most 20,000: what the state costs the heap. */
  cached?: number;
  /** The id of the last entry of the Redis log this replica applied (`--store redis://…`). */
  applied?: string;
}

/** What became of a write: stored, or refused (nothing changed) because a collection or the budget is full. */
export type StoreOutcome = 'stored' | 'collection-full' | 'state-full';

/** What became of a delete: done, nothing to delete, or refused because removing a placeholder needs room. */
export type DeleteOutcome = 'deleted' | 'missing' | 'state-full';

/** Where a store finds a collection's placeholders (see PlaceholderSource.of). */
export type DerivePlaceholders = (collection: string) => Placeholders;

/**
 * Where state lives. A collection is named by its concrete path (`/members/m1/passes`), so every member's data
 * is apart. A collection starts as its placeholders, which the store does not keep: it asks `derive` for them
 * (see {@link Store.usePlaceholders}), and keeps only what clients changed (an {@link Overlay}): created and
 * replaced records, and the ids of placeholders deleted. Only that is charged against the budget, so reading
 * any number of members never fills it. A restored collection (fixtures, `PUT /__mock/state`) holds exactly
 * the records it was given.
 *
 * A store that keeps state in a file has every change (`put`, `delete`, `restore`) on disk when it returns; when
 * the file cannot take it, the change throws (a `StateWriteError`) and nothing changed.
 */
export interface Store {
  readonly limits: Readonly<StoreLimits>;
  /** Where placeholders come from from now on (a reload of the contract gives another source). */
  usePlaceholders(derive: DerivePlaceholders): void;
  /** A record, read-only. */
  get(collection: string, id: string): StoredRecord | undefined;
  /** Records in insertion order (oldest first, placeholders before what was created), read-only. */
  list(collection: string): StoredRecord[];
  /** How many records the collection holds, placeholders included. */
  count(collection: string): number;
  /**
   * Where a record stands in {@link Store.list}'s order, as a number that stays while the record does: one
   * created later stands higher, and creates and deletes move no other's. `undefined` when there is none. A list
   * page starts from it (list-page.ts): after a deleted record, at the first record below where it stood.
   */
  position(collection: string, id: string): number | undefined;
  /**
   * Stores a record the caller hands over: it must not change it afterwards (the memory store freezes it).
   * A new record in a collection at the collection limit, or one the budget has no room for, is refused and
   * nothing changes.
   */
  put(collection: string, id: string, record: StoredRecord): StoreOutcome;
  /**
   * Removes a record; `missing` when there was none; `state-full` when removing a placeholder finds no room to say so.
   */
  delete(collection: string, id: string): DeleteOutcome;
  /**
   * A number that changes whenever the collection changes (put, delete, restore): answers made from it can
   * be kept until then.
   */
  version(collection: string): number;
  /** Records clients wrote and their charge against the budget (placeholders are neither). */
  usage(): { records: number; bytes: number };
  /** Every collection clients changed or that was restored, as clients see it. Untouched ones are placeholders. */
  snapshot(): StoreSnapshot;
  /**
   * The paths of the collections {@link Store.snapshot} holds, in its order, read a page at a time as they are
   * taken (for a reader of the whole state that takes it piece by piece).
   */
  collections(): Iterable<string>;
  /**
   * Replaces everything with the snapshot; `idOf` names each record's key. With `charged` (what a client sent)
   * it must fit the budget, else `state-full` and nothing changed; without (fixtures, a state file) it is never
   * refused, but counts.
   */
  restore(
    snapshot: StoreSnapshot,
    idOf: (collection: string, record: StoredRecord) => string,
    charged?: boolean,
  ): 'stored' | 'state-full';
  /** What the store is, for health. */
  info(): StoreInfo;
  /** Gives back its charge and lets go of what it holds open (a database file); a closed store is not used again. */
  close(): void;
}

/**
 * The in-memory store: an overlay per collection clients changed. Records are frozen when they go in, so reads
 * hand them out without copying: a list of fifty records costs no clone on every request, and no caller can
 * change the store by accident. A put takes the record as it is (the mock made it for the store); a restore
 * copies the snapshot first, but for records already frozen (nobody can change them).
 * @example
 * const store = new MemoryStore({ collection: 1000, budget: new StateBudget(64 * 1024 * 1024) });
 * store.put('/members/m1/passes', 'pas_1', { id: 'pas_1' }); // 'stored'
 */
export class MemoryStore implements Store {
  readonly limits: Readonly<StoreLimits>;
  #overlays = new Map<string, Overlay>();
  #derive: DerivePlaceholders = () => NO_PLACEHOLDERS;
  /** Counts every change of the store; a collection's version is the count at its last change. */
  #changes = 0;
  /** Counts records written anew: each one's position (see Store.position). */
  #placed = 0;
  #records = 0;
  #charged = 0;
  /** Closed: its bytes went back to the budget, and nothing it is given later is charged again. */
  #closed = false;

  constructor(limits: Partial<StoreLimits> = {}) {
    this.limits = Object.freeze({ collection: Infinity, budget: new StateBudget(Number.MAX_SAFE_INTEGER), ...limits });
  }

  usePlaceholders(derive: DerivePlaceholders): void {
    this.#derive = derive;
    forgetCounts(this.#overlays.values());
  }

  get(collection: string, id: string): StoredRecord | undefined {
    const overlay = this.#overlays.get(collection);
    return visibleRecord(overlay, this.#base(overlay, collection), id);
  }

  list(collection: string): StoredRecord[] {
    const overlay = this.#overlays.get(collection);
    return visibleRecords(overlay, this.#base(overlay, collection));
  }

  count(collection: string): number {
    const overlay = this.#overlays.get(collection);
    return visibleCount(overlay, this.#base(overlay, collection));
  }

  position(collection: string, id: string): number | undefined {
    const overlay = this.#overlays.get(collection);
    return visiblePosition(overlay, this.#base(overlay, collection), id);
  }

  put(collection: string, id: string, record: StoredRecord): StoreOutcome {
    const overlay = this.#overlays.get(collection);
    // Frozen first: its text, written out to measure it, is then the reply's too (see jsonText).
    deepFreeze(record);
    const put = planPut(overlay, this.#base(overlay, collection), {
      collection,
      id,
      record,
      limit: this.limits.collection,
    });
    if ('refused' in put) return put.refused;
    if (!this.#charge(put.cost)) return 'state-full';
    const kept = overlay ?? this.#open(collection);
    writeRecord(kept, id, record, ++this.#placed);
    countChanged(kept, put.shown ? 1 : 0);
    if (put.added) this.#records++;
    kept.version = ++this.#changes;
    return 'stored';
  }

  delete(collection: string, id: string): DeleteOutcome {
    const overlay = this.#overlays.get(collection);
    const plan = planDelete(overlay, this.#base(overlay, collection), collection, id);
    if (plan === 'missing') return plan;
    if (!this.#charge(plan.cost)) return 'state-full';
    const kept = overlay ?? this.#open(collection);
    if (plan.written) {
      dropRecord(kept, id);
      this.#records--;
    }
    if (plan.hides) kept.removed.add(id);
    countChanged(kept, -1);
    kept.version = ++this.#changes;
    return 'deleted';
  }

  version(collection: string): number {
    return this.#overlays.get(collection)?.version ?? 0;
  }

  usage(): { records: number; bytes: number } {
    return { records: this.#records, bytes: this.#charged };
  }

  *collections(): Generator<string> {
    // The names as they are now: the map may change between two pieces a reader takes.
    yield* [...this.#overlays.keys()];
  }

  snapshot(): StoreSnapshot {
    const out: StoreSnapshot = {};
    for (const [name, overlay] of this.#overlays)
      out[name] = visibleRecords(overlay, this.#base(overlay, name)).map((r) => structuredClone(r));
    return out;
  }

  restore(
    snapshot: StoreSnapshot,
    idOf: (collection: string, record: StoredRecord) => string,
    charged = false,
  ): 'stored' | 'state-full' {
    const overlays = new Map<string, Overlay>();
    let cost = 0;
    let records = 0;
    for (const [name, list] of Object.entries(snapshot)) {
      // Versions go on counting from where they were, so nothing kept from before a restore is taken as current.
      const overlay = newOverlay(false, ++this.#changes);
      // A frozen record is shared, not copied: nobody can change it (fixtures read from a file come so).
      for (const record of list) writeRecord(overlay, idOf(name, record), frozenCopyOf(record), ++this.#placed);
      cost += recordsCost(overlay.written);
      cost += overlayCost(name);
      records += overlay.written.size;
      overlays.set(name, overlay);
    }
    const { budget } = this.limits;
    if (this.#closed) return 'stored';
    budget.release(this.#charged);
    if (!budget.charge(cost, !charged)) {
      budget.charge(this.#charged, true);
      return 'state-full';
    }
    this.#charged = cost;
    this.#records = records;
    this.#overlays = overlays;
    return 'stored';
  }

  info(): StoreInfo {
    return { kind: 'memory' };
  }

  close(): void {
    this.#closed = true;
    this.limits.budget.release(this.#charged);
    this.#charged = 0;
    this.#records = 0;
    this.#overlays = new Map();
  }

  /** The placeholders under a collection: none once it was restored. */
  #base(overlay: Overlay | undefined, collection: string): Placeholders {
    return overlay === undefined || overlay.derived ? this.#derive(collection) : NO_PLACEHOLDERS;
  }

  #open(collection: string): Overlay {
    const overlay = newOverlay(true, 0);
    this.#overlays.set(collection, overlay);
    return overlay;
  }

  #charge(cost: number): boolean {
    if (this.#closed) return true;
    if (cost > 0 && !this.limits.budget.charge(cost)) return false;
    if (cost < 0) this.limits.budget.release(-cost);
    this.#charged += cost;
    return true;
  }
}

/**
 * A record the store can keep: itself when {@link deepFreeze} froze it (fixtures read from a file), else a frozen
 * copy. A record a caller froze itself may be frozen at the top only: its lists and objects could still change.
 */
function frozenCopyOf(record: StoredRecord): StoredRecord {
  return isFrozenThrough(record) ? record : deepFreeze(structuredClone(record));
}
