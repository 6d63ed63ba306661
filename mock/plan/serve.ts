// Compiles a contract into what one mock instance serves: a plan per operation and the table that routes to them.
import type { Contract } from '../contract/contract.js';
import { inferCollections, type CollectionMap } from './infer-collections.js';
import { compileOperation, type OperationPlan } from './operation-plan.js';
import { RouteTable } from './route-table.js';
import { serverBases, type ServerBase } from '../contract/server-paths.js';
import { HEADER_NAME } from '../http/reply.js';
import { secretNames, type SecretNames } from '../contract/secret-names.js';

/** What a mock serves, derived from one contract; replaced whole when the contract is reloaded. */
export interface Served {
  contract: Contract;
  /** One plan per operation, in contract order. */
  plans: OperationPlan[];
  /** The operations' ids, in contract order: what a test may name (see journal/call-match.ts unknownOperation). */
  operationIds: string[];
  /** Routes a method and path to its plan, as Prism's router would. */
  routes: RouteTable<OperationPlan>;
  /** The path prefixes of the contract's servers (`/v1`), longest first: operations are served under them too. */
  bases: ServerBase<OperationPlan>[];
  collections: CollectionMap;
  /** The response headers the contract documents (those Node can send), for `Access-Control-Expose-Headers`. */
  exposedHeaders: string;
  /** Where the contract's API keys travel, kept out of the journal (see journal/redact.ts). */
  secrets: SecretNames;
}

/** Paths whose route is remembered: the paths a front-end calls, a few per member. */
const ROUTES_REMEMBERED = 4096;

/**
 * Compiles a contract for one mock instance. Every memo a plan keeps (validation verdicts, negotiated
 * media types, list envelopes) lives in the plans, so two mocks of one contract share nothing.
 * @example const served = serve(await loadContract('contracts/membership.openapi.yaml'));
 */
export function serve(contract: Contract): Served {
  const collections = inferCollections(contract.operations);
  const plans = contract.operations.map((operation) => compileOperation(operation, collections, contract.prepared));
  const headers = contract.operations.flatMap((op) => op.spec.responses.flatMap((r) => r.headers ?? []));
  return {
    contract,
    plans,
    operationIds: plans.map((plan) => plan.operation.id),
    routes: new RouteTable(
      plans.map((plan) => ({ method: plan.operation.method, path: plan.operation.path, value: plan })),
      { remember: ROUTES_REMEMBERED },
    ),
    bases: serverBases(plans),
    collections,
    exposedHeaders: [
      ...new Set(['X-Request-Id', ...headers.map((h) => h.name).filter((name) => HEADER_NAME.test(name))]),
    ].join(', '),
    secrets: secretNames(contract.operations),
  };
}
