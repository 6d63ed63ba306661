// One operation of the contract compiled for serving: how to read its path, validate its requests, find its
// responses and negotiate their media types, and its part in a collection.
import type { IncomingMessage } from 'node:http';
import accepts from 'accepts';
import type { Operation } from '../contract/load-contract.js';
import { compilePathParams, type PathParamReader } from '../contract/path-params.js';
import { BoundedMemo } from '../memo/bounded-memo.js';
import { planCollection, type CollectionPlan } from './collection-plan.js';
import type { CollectionMap } from './infer-collections.js';
import { createRequestValidator, type RequestValidator } from './request-validator.js';
import { compileResponses, type ResponseTable } from '../contract/response-table.js';

/** Everything the request path needs of one operation, compiled once per mock instance. */
export interface OperationPlan {
  readonly operation: Operation;
  /** Reads the path parameters of a request path routed to this operation. */
  readonly pathParams: PathParamReader;
  readonly responses: ResponseTable;
  /** Validates a request with Prism, with a memo of this operation's own. */
  readonly validate: RequestValidator;
  /** Whether it documents a request body (only then is one read). */
  readonly takesBody: boolean;
  /** The media types its request body may have, lower-case; empty when it lists none. */
  readonly bodyTypes: readonly string[];
  /** Its part in an inferred collection, if it has one. */
  readonly collection?: CollectionPlan;
  /** The best of `types` for an Accept header (`false`: none), remembered by header and types. */
  negotiate(accept: string | undefined, types: readonly string[]): string | false;
}

/** Accept headers remembered per operation: a few per client library, so a small bound is plenty. */
const NEGOTIATIONS = 200;
/** Paths whose parameters are remembered per operation. */
const PATHS = 4096;

/**
 * Compiles one operation.
 * @example const plan = compileOperation(contract.operations[0], inferCollections(contract.operations));
 */
export function compileOperation(operation: Operation, collections: CollectionMap): OperationPlan {
  const negotiated = new BoundedMemo<string | false>(NEGOTIATIONS);
  const body = operation.spec.request?.body;
  return {
    operation,
    pathParams: remembered(compilePathParams(operation.path)),
    responses: compileResponses(operation.spec.responses),
    validate: createRequestValidator(operation.spec),
    takesBody: body !== undefined,
    bodyTypes: body ? (body.contents ?? []).map((c) => c.mediaType.toLowerCase()) : [],
    collection: planCollection(operation, collections),
    negotiate(accept, types) {
      const key = `${accept ?? ''}\u0000${types.join(',')}`;
      const known = negotiated.get(key);
      if (known !== undefined) return known;
      // Parsing Accept is a cost on every request: `accepts` does it as Express's req.accepts would.
      const best = accepts({ headers: { accept } } as IncomingMessage).types([...types]);
      return negotiated.set(key, typeof best === 'string' ? best : false);
    },
  };
}

/** A path parameter reader that remembers what it read (frozen: every caller gets the same object). */
function remembered(read: PathParamReader): PathParamReader {
  const known = new BoundedMemo<Record<string, string>>(PATHS, 1024);
  return (path) => known.get(path) ?? known.set(path, Object.freeze(read(path)));
}
