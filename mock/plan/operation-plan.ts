// One operation of the contract compiled for serving: how to read its path, validate its requests, find its
// responses and negotiate their media types, and its part in a collection.
import type { Operation } from '../contract/contract.js';
import { compilePathParams } from '../http/path-params.js';
import { BoundedMemo } from '../lib/bounded-memo.js';
import { planCollection, type CollectionPlan } from './collection-plan.js';
import {
  chooseResponse,
  negotiateMediaType,
  type ChoiceResult,
  type ResponseChoice,
  type ResponseWish,
} from './choose-response.js';
import { planBodyEcho, type BodyEcho } from './path-echo.js';
import type { CollectionMap } from './infer-collections.js';
import { createRequestValidator, type RequestValidator } from './request-validator.js';
import { compileResponses, type ResponseTable } from '../schema/response-table.js';

/** Everything the request path needs of one operation, compiled once per mock instance. */
export interface OperationPlan {
  readonly operation: Operation;
  /** The match of a request path routed to this operation, with its path parameters (remembered, frozen). */
  match(path: string): RouteHit;
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
  /** The documented response for what a request asks (see choose-response.ts), remembered (frozen). */
  choose(wish: ResponseWish, accept: string | undefined): ChoiceResult;
  /**
   * Where the path's parameters go in a generated body of a success response (see path-echo.ts), remembered per
   * media type; `undefined` for an error response, or where none goes anywhere.
   */
  echo(choice: ResponseChoice): BodyEcho | undefined;
}

/** A request routed to an operation: the plan, the path as routed, its path parameters. */
export interface RouteHit {
  readonly plan: OperationPlan;
  readonly pathParams: Readonly<Record<string, string>>;
  /** The request path as routed: without a server path prefix, and a trailing slash the contract does not declare. */
  readonly path: string;
}

/** Accept headers remembered per operation: a few per client library, so a small bound is plenty. */
const NEGOTIATIONS = 200;
/** Paths whose matches are remembered per operation. */
const PATHS = 4096;
/** Response choices remembered per operation, by code, example and Accept. */
const CHOICES = 256;

/**
 * Compiles one operation.
 * @example const plan = compileOperation(contract.operations[0], inferCollections(contract.operations));
 */
export function compileOperation(
  operation: Operation,
  collections: CollectionMap,
  prepared: WeakMap<object, unknown> = new WeakMap(),
): OperationPlan {
  const negotiated = new BoundedMemo<string | false>(NEGOTIATIONS);
  const hits = new BoundedMemo<RouteHit>(PATHS, 1024);
  const choices = new BoundedMemo<ChoiceResult>(CHOICES);
  const read = compilePathParams(operation.path);
  const echoes = new WeakMap<object, BodyEcho | null>();
  const body = operation.spec.request?.body;
  const plan: OperationPlan = {
    operation,
    match: (path) =>
      hits.get(path) ?? hits.set(path, Object.freeze({ plan, pathParams: Object.freeze(read(path)), path })),
    responses: compileResponses(operation.spec.responses),
    validate: createRequestValidator(operation.spec, prepared),
    takesBody: body !== undefined,
    bodyTypes: body ? (body.contents ?? []).map((c) => c.mediaType.toLowerCase()) : [],
    collection: planCollection(operation, collections),
    negotiate(accept, types) {
      const key = `${accept ?? ''}\u0000${types.join(',')}`;
      const known = negotiated.get(key);
      if (known !== undefined) return known;
      return negotiated.set(key, negotiateMediaType(accept, types));
    },
    choose(wish, accept) {
      const key = `${wish.code ?? ''}\u0000${wish.example ?? ''}\u0000${accept ?? ''}`;
      return choices.get(key) ?? choices.set(key, Object.freeze(chooseResponse(choosing, wish, accept)));
    },
    echo({ status, content }) {
      if (status >= 400 || !content) return undefined;
      let known = echoes.get(content);
      if (known === undefined) echoes.set(content, (known = planBodyEcho(operation, content.schema) ?? null));
      return known ?? undefined;
    },
  };
  const choosing = { operationId: operation.id, responses: plan.responses, negotiate: plan.negotiate };
  return plan;
}
