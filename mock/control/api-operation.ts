// One API's operationIds of a mock that serves several: as its own contract names them, and as the mock does
// (`api:id` where another API has the same id). `mock.api(name)` and `connectMock(url).api(name)` both read
// them so.
import { unknownOperation } from '../journal/call-match.js';
import type { CallRecord } from '../journal/journal.js';

/**
 * An operationId as its API's own contract names it, without the `api:` the mock put before a shared one.
 * @example ownId('payments', 'payments:listItems') // 'listItems'
 */
export function ownId(api: string, id: string): string {
  return id.startsWith(`${api}:`) ? id.slice(api.length + 1) : id;
}

/**
 * The mock's operationId for one of an API's own: `api:id` where the mock qualified it, else `id`.
 * `ids` are the API's operationIds as the mock names them.
 * @throws TypeError naming the nearest of the API's own, for an operationId the API lacks
 * @example mockOperationId('payments', 'listItems', ['createCharge', 'payments:listItems']) // 'payments:listItems'
 */
export function mockOperationId(api: string, id: string, ids: readonly string[]): string {
  const found = ids.find((known) => known === id || known === `${api}:${id}`);
  if (found !== undefined) return found;
  const own = ids.map((known) => ownId(api, known));
  throw new TypeError(unknownOperation(id, own) ?? `"${id}" is not an operationId of ${api}.`);
}

/** A call with its operationId as its API's own contract names it. */
export function ownCall(api: string, call: CallRecord): CallRecord {
  return call.operationId === null ? call : { ...call, operationId: ownId(api, call.operationId) };
}
