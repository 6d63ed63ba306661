// Verifies a real provider against the contract: walks its operations and checks every answer.
import { loadContract, type Operation } from '../node/load-contract.js';
import { DEFAULT_CONTRACT } from '../node/default-contract.js';
import { inferCollections, type Collection } from '../plan/infer-collections.js';
import { walkCollection } from './walk-collection.js';
import { createVerifySession } from './verify-session.js';
import type { VerifyReport } from './verify-report.js';

export { formatReport } from './format-report.js';
export { formatAs, REPORT_FORMATS, reportHints, type ReportFormat } from './report-formats.js';
export type { SkippedOperation, VerifyReport, VerifyStep } from './verify-report.js';

/** Where the provider is and how to call it. */
export interface VerifyOptions {
  /** The provider's address, e.g. `https://staging.example.com`; paths are appended to it. */
  baseUrl: string;
  /**
   * Path or URL of the OpenAPI document to verify against.
   * @default the bundled contracts/membership.openapi.yaml
   */
  contract?: string;
  /**
   * Headers sent with every request, e.g. `{ Authorization: 'Bearer …' }`; they win over the defaults.
   * @default {}
   */
  headers?: Record<string, string>;
  /**
   * Seed for generated bodies and parameter values: the same seed sends the same requests.
   * @default 1
   */
  seed?: number | string;
  /**
   * How long to wait for each answer; a request without an answer in time is a violation.
   * @default 10000
   */
  timeoutMs?: number;
  /**
   * Parameter values by name, used instead of made-up ones, e.g. `{ member_id: 'mbr_1' }`.
   * @default {} (path parameters are `verify_<seed-derived suffix>` where the schema allows it, else generated)
   */
  params?: Record<string, string>;
}

/**
 * Walks every operation of the contract against a running provider: each collection in a client's order
 * (create with a generated body, list, read, delete, read again), then every other operation once. Every
 * answer is checked against the contract; network errors and timeouts are violations, never throws.
 * @throws ContractError when the contract cannot be loaded; TypeError when `baseUrl` is not an http(s) URL
 * @example
 * const report = await verifyProvider({ baseUrl: 'http://127.0.0.1:8080', headers: { Authorization: 'Bearer t' } });
 * console.log(formatReport(report));
 * process.exitCode = report.violations > 0 ? 1 : 0;
 */
export async function verifyProvider(options: VerifyOptions): Promise<VerifyReport> {
  const { baseUrl, contract = DEFAULT_CONTRACT, headers = {}, seed = 1, timeoutMs = 10_000, params = {} } = options;
  if (!/^https?:\/\/[^/]/i.test(baseUrl) || !URL.canParse(baseUrl))
    throw new TypeError(`The base URL "${baseUrl}" is not an http(s) URL.`);
  const { operations, title, version } = await loadContract(contract);
  const { collections, roles } = inferCollections(operations);
  const session = createVerifySession({ baseUrl, headers, seed, timeoutMs, params });
  // Updates are walked as the item's other operations are: once, on the record just created.
  const others = operations.filter((operation) => (roles.get(operation)?.role ?? 'update') === 'update');
  const walked = new Set<Operation>();
  for (const collection of collections) {
    const itemOperations = others.filter((op) => itemOwner(collections, op) === collection);
    itemOperations.forEach((op) => walked.add(op));
    await walkCollection(session, collection, itemOperations);
  }
  for (const operation of others.filter((op) => !walked.has(op))) {
    const plan = session.planBody(operation);
    if ('skip' in plan) session.skip(operation, plan.skip);
    else await session.call(operation, {}, plan);
  }
  return { ...session.report(), baseUrl, contract: { title, version } };
}

/**
 * The collection whose item an operation acts on: the one with the longest item path at or above its path
 * (`/boards/{boardId}/notes/{noteId}` is a note's, not its board's), so each is walked once, on its own record.
 */
function itemOwner(collections: readonly Collection[], operation: Operation): Collection | undefined {
  let owner: Collection | undefined;
  for (const collection of collections) {
    const { itemPath } = collection;
    if (!itemPath || (operation.path !== itemPath && !operation.path.startsWith(`${itemPath}/`))) continue;
    if (!owner || itemPath.length > owner.itemPath!.length) owner = collection;
  }
  return owner;
}
