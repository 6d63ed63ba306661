// The placeholders of every member's collections: derived from the seed, kept in a bounded cache, made again when
// dropped.
import type { BodyGenerator } from '../generate/generate-body.js';
import { WeightedLru } from '../lib/weighted-lru.js';
import type { CollectionMap } from '../plan/infer-collections.js';
import { collectionOf, pathParamsOf } from './check-snapshot.js';
import { makePlaceholder } from './make-record.js';
import { NO_PLACEHOLDERS, type Placeholders } from './overlay.js';
import { deepFreeze } from '../lib/frozen-json.js';
import type { StoredRecord } from './store.js';

/**
 * Records the cache holds, across collections: about 10,000 members' passes and credentials at the default of
 * three each (a record costs the heap about 1 KB). Past it the least recently used collection is dropped; reading
 * it again makes it again, the same, at the cost of a first read.
 */
export const PLACEHOLDER_CACHE_RECORDS = 60_000;

/**
 * Where a collection's placeholders come from: made from the seed the first time a collection is read, then
 * kept (frozen, shared by every session) while there is room. Nothing here is what clients wrote, so nothing
 * here counts against the state budget. Their times are read as of `asOf` (see makePlaceholder).
 * @example new PlaceholderSource(served.collections, generator, 3).of('/members/m1/passes').size // 3
 */
export class PlaceholderSource {
  readonly #cache: WeightedLru<string, Placeholders>;
  #made = 0;

  constructor(
    readonly collections: CollectionMap,
    readonly generator: BodyGenerator,
    readonly count: number,
    readonly asOf = generator.anchor,
    readonly cacheRecords = PLACEHOLDER_CACHE_RECORDS,
  ) {
    // An empty one weighs one: a stream of paths of no collection is bounded too.
    this.#cache = new WeightedLru(cacheRecords, (made) => Math.max(made.size, 1));
  }

  /** The placeholders of a collection by its concrete path; none for a path of no collection. */
  of(key: string): Placeholders {
    return this.#cache.get(key) ?? this.#cache.set(key, this.#make(key));
  }

  /** For health: collections made so far (a number that keeps growing on every read means the cache is too small). */
  info(): { cached: number; made: number } {
    return { cached: this.#cache.size, made: this.#made };
  }

  #make(key: string): Placeholders {
    const collection = collectionOf(this.collections, key);
    if (collection === undefined || this.count === 0) return NO_PLACEHOLDERS;
    this.#made++;
    const pathParams = pathParamsOf(collection, key);
    const records = new Map<string, StoredRecord>();
    for (let index = 0; index < this.count; index++) {
      const slot = { collectionKey: key, pathParams, index, count: this.count };
      const record = deepFreeze(makePlaceholder(this.generator, collection, slot, this.asOf));
      records.set(String(record[collection.idField]), record);
    }
    return records;
  }
}
