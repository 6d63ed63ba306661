// What a stateful answer works with: the session's store and pages, the generator, the clock; and the request.
import type { BodyGenerator } from '../generate/generate-body.js';
import type { BoundedTrieMemo } from '../lib/bounded-memo.js';
import type { JsonObject } from '../schema/schema-facts.js';
import type { Store } from './store.js';

/** What state is kept in and made with. */
export interface StateTools {
  store: Store;
  /** Pages already made from this store (see {@link Store.version}): a page is frozen and shared. */
  pages: BoundedTrieMemo<JsonObject>;
  generator: BodyGenerator;
  /** The time a new record is created at. */
  now(): Date;
}

/** The request facts a stateful answer needs. */
export interface StateRequest {
  operationId: string;
  path: string;
  pathParams: Record<string, string>;
  query: Record<string, string | string[]>;
  body: unknown;
  /** The request body's media type (an update reads `application/merge-patch+json`). */
  contentType?: string;
  /** The generation key of this request (seed-stable, unique per create). */
  key: string;
}
