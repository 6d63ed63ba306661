// The schemas a record's schema refers to where it contains itself, as the records show them.
import type { Collection } from '../plan/infer-collections.js';
import { answeredBundle } from '../prism/schema-check.js';
import { bundleOf } from '../schema/operation-bundle.js';

/**
 * The collection's `__bundled__` (from its create) as a record shows it: without write-only fields at any depth,
 * as the record schema itself is (see answeredSchema). Records are drawn and checked through it.
 * @example generator.generate(collection.schema, key, recordBundle(collection))
 */
export function recordBundle(collection: Collection): Record<string, unknown> | undefined {
  return answeredBundle(bundleOf(collection.create.spec));
}
