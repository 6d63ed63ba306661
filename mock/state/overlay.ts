// What clients wrote to one collection, laid over the placeholders it starts with: the stores keep only this.
import { jsonText } from '../lib/frozen-json.js';

/** A stored record: a JSON object. */
export type StoredRecord = Record<string, unknown>;

/** A collection's placeholders by id, in order: derived from the seed, the same whenever they are made again. */
export type Placeholders = ReadonlyMap<string, StoredRecord>;

/** No placeholders: the base of a collection that was given its records (restored), or of a path of no collection. */
export const NO_PLACEHOLDERS: Placeholders = new Map();

/**
 * What clients did to a collection. A collection nobody changed has no overlay: it is its placeholders.
 * `derived`: its base is its placeholders, less `removed`; otherwise it holds only `written` (restored from a
 * snapshot or fixtures, which say every record). `written` keeps insertion order; a placeholder written again
 * (PUT of its id) stays in its place, one removed and written again goes after the rest.
 */
export interface Overlay {
  derived: boolean;
  written: Map<string, StoredRecord>;
  /**
   * Where each written record stands (see {@link visiblePosition}): given when its id is written anew, kept while
   * it stays. Kept in step with `written` by {@link writeRecord} and {@link dropRecord}.
   */
  positions: Map<string, number>;
  removed: Set<string>;
  /** Changes with every change of the collection (see Store.version). */
  version: number;
  /**
   * How many records clients see, once counted: each put and delete keeps it current (see {@link countChanged}),
   * so a create into a collection of thousands does not walk them. Placeholders are the same whenever they are
   * made again; a store given other placeholders (a reload) forgets every count (see {@link forgetCounts}).
   */
  counted?: number;
}

/** A new overlay over the placeholders (`derived`) or over nothing. */
export function newOverlay(derived: boolean, version: number): Overlay {
  return { derived, written: new Map(), positions: new Map(), removed: new Set(), version };
}

/**
 * Writes a record into an overlay. An id written anew goes after the rest, at `position` (higher than any
 * position the store gave before); one written before keeps its place and its position.
 */
export function writeRecord(overlay: Overlay, id: string, record: StoredRecord, position: number): void {
  if (!overlay.written.has(id)) overlay.positions.set(id, position);
  overlay.written.set(id, record);
}

/** Drops a written record from an overlay, and its position with it. */
export function dropRecord(overlay: Overlay, id: string): void {
  overlay.written.delete(id);
  overlay.positions.delete(id);
}

/** The record with this id as clients see it: written, else a placeholder not removed. */
export function visibleRecord(
  overlay: Overlay | null | undefined,
  base: Placeholders,
  id: string,
): StoredRecord | undefined {
  if (overlay == null) return base.get(id);
  const written = overlay.written.get(id);
  if (written !== undefined || !overlay.derived || overlay.removed.has(id)) return written;
  return base.get(id);
}

/** The records as clients see them, oldest first: placeholders (less those removed), then what was written. */
export function visibleRecords(overlay: Overlay | null | undefined, base: Placeholders): StoredRecord[] {
  if (overlay == null) return [...base.values()];
  const out: StoredRecord[] = [];
  const { derived, written, removed } = overlay;
  if (derived) for (const [id, record] of base) if (!removed.has(id)) out.push(written.get(id) ?? record);
  for (const [id, record] of written) if (!derived || !base.has(id) || removed.has(id)) out.push(record);
  return out;
}

/**
 * Where the record with this id stands in the order {@link visibleRecords} lists, as a number that stays while the
 * record does: placeholders below zero in their order, a written record where it was written anew (see
 * {@link writeRecord}). Deletes and creates move no other record's, and a deleted one's is never given again, so
 * the records still there below a deleted one's position are those that were older than it.
 */
export function visiblePosition(
  overlay: Overlay | null | undefined,
  base: Placeholders,
  id: string,
): number | undefined {
  if (overlay == null || (overlay.derived && !overlay.removed.has(id))) {
    const placed = placeholderPosition(base, id);
    if (placed !== undefined || overlay == null) return placed;
  }
  return overlay.positions.get(id);
}

/** Each placeholder's position by id, made once for each set of placeholders (they are made again seldom). */
const PLACEHOLDER_POSITIONS = new WeakMap<Placeholders, ReadonlyMap<string, number>>();

/** A placeholder's position: its place among them, counted from `-size`, so every one stands below zero. */
function placeholderPosition(base: Placeholders, id: string): number | undefined {
  if (base.size === 0) return undefined;
  let positions = PLACEHOLDER_POSITIONS.get(base);
  if (positions === undefined) {
    let position = -base.size;
    const made = new Map<string, number>();
    for (const key of base.keys()) made.set(key, position++);
    PLACEHOLDER_POSITIONS.set(base, (positions = made));
  }
  return positions.get(id);
}

/** How many records clients see, without listing them: counted once, then kept current by puts and deletes. */
export function visibleCount(overlay: Overlay | null | undefined, base: Placeholders): number {
  if (overlay == null) return base.size;
  if (!overlay.derived) return overlay.written.size;
  if (overlay.counted !== undefined) return overlay.counted;
  const { written, removed } = overlay;
  let count = base.size;
  for (const id of removed) if (base.has(id)) count--;
  for (const id of written.keys()) if (!base.has(id) || removed.has(id)) count++;
  return (overlay.counted = count);
}

/**
 * Keeps an overlay's count current after a change: `shown` records more clients see (1 for a put that added
 * one, 0 for one that replaced one, -1 for a delete).
 */
export function countChanged(overlay: Overlay, shown: number): void {
  if (overlay.counted !== undefined) overlay.counted += shown;
}

/** Forgets the counts of these overlays: their collections' placeholders may differ now (another source). */
export function forgetCounts(overlays: Iterable<Overlay | null>): void {
  for (const overlay of overlays) if (overlay) overlay.counted = undefined;
}

/** What a put would change: refused for the collection limit, or the charge it adds and whether the id is new. */
export type PutPlan = { refused: 'collection-full' } | { cost: number; added: boolean; shown: boolean };

/**
 * Plans a put of `record` under `id`: a new record in a collection at `limit` is refused; the cost is its charge,
 * less what the record it replaces was charged, plus the overlay's when the collection has none yet.
 */
export function planPut(
  overlay: Overlay | null | undefined,
  base: Placeholders,
  put: { collection: string; id: string; record: StoredRecord; limit: number },
): PutPlan {
  const { collection, id, record, limit } = put;
  const before = overlay?.written.get(id);
  const shown = visibleRecord(overlay, base, id) === undefined;
  if (shown && visibleCount(overlay, base) >= limit) return { refused: 'collection-full' };
  // The record last: its text is the one written next (its row, its reply; see jsonText).
  const cost =
    -(before ? recordCost(id, before) : 0) + recordCost(id, record) + (overlay ? 0 : overlayCost(collection));
  return { cost, added: before === undefined, shown };
}

/** What a delete would change: nothing to delete, or the charge it adds (negative: it gives back) and what it does. */
export type DeletePlan = 'missing' | { cost: number; written: boolean; hides: boolean };

/**
 * Plans a delete: a written record is dropped (its charge given back); a placeholder, or a record written over
 * one, is remembered as removed (its id charged), so it does not come back from the seed.
 */
export function planDelete(
  overlay: Overlay | null | undefined,
  base: Placeholders,
  collection: string,
  id: string,
): DeletePlan {
  if (visibleRecord(overlay, base, id) === undefined) return 'missing';
  const written = overlay?.written.get(id);
  const hides = base.has(id) && !overlay?.removed.has(id);
  const cost =
    (hides ? removedCost(id) : 0) - (written ? recordCost(id, written) : 0) + (overlay ? 0 : overlayCost(collection));
  return { cost, written: written !== undefined, hides };
}

/** What a record is charged against the state budget: its JSON text, its id, and a fixed share for the entry. */
export function recordCost(id: string, record: StoredRecord): number {
  return jsonText(record).length + id.length + ENTRY_COST;
}

/**
 * What records are charged together, each as {@link recordCost} charges it: their JSON texts written as one
 * array (one call for a collection of fixtures, not one a record), less its brackets and commas.
 * @example recordsCost(new Map([['pas_1', { id: 'pas_1' }]])) === recordCost('pas_1', { id: 'pas_1' }) // true
 */
export function recordsCost(records: ReadonlyMap<string, StoredRecord>): number {
  if (records.size === 0) return 0;
  let ids = 0;
  for (const id of records.keys()) ids += id.length;
  const texts = JSON.stringify([...records.values()]).length - 2 - (records.size - 1);
  return texts + ids + records.size * ENTRY_COST;
}

/** What a removed placeholder is charged: its id and the entry. */
export function removedCost(id: string): number {
  return id.length + ENTRY_COST;
}

/**
 * What a changed collection is charged, records aside: its path and its maps (an emptied one costs the heap ~600
 * bytes).
 */
export function overlayCost(collection: string): number {
  return collection.length + OVERLAY_COST;
}

/**
 * The share of a record's map entry, in characters; and of a changed collection's overlay. Estimates that keep
 * the heap within about twice the budget (test/bench/state-size.ts measures the ratio).
 */
export const ENTRY_COST = 64;
export const OVERLAY_COST = 320;
