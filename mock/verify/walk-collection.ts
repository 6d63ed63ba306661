// Walks one collection in the order a client would: create, list, read, the item's other operations, delete,
// read again.
import { isDeepStrictEqual } from 'node:util';
import type { Operation } from '../contract/contract.js';
import { compileResponses } from '../schema/response-table.js';
import { listArray, type Collection } from '../plan/infer-collections.js';
import { isObject, type JsonObject } from '../schema/schema-facts.js';
import type { VerifySession } from './verify-session.js';

const MAX_DIFFERENCES = 5;

/**
 * Creates a record with a generated body and follows it through the collection's operations, checking that
 * it is listed, reads back as created and is gone once deleted. Without a created id, the item operations
 * are still called (with a made-up id) and their answers checked against the contract.
 * @example await walkCollection(session, inferCollections(contract.operations).collections[0], [])
 */
export async function walkCollection(
  session: VerifySession,
  collection: Collection,
  itemOperations: Operation[],
): Promise<void> {
  const { create, list, read, remove, idParam, idField } = collection;
  let created: JsonObject | undefined;
  const plan = session.planBody(create);
  if ('skip' in plan) session.skip(create, plan.skip);
  else {
    const { step, response } = await session.call(create, {}, plan);
    if (response && !isSuccess(response.status)) step.violations.push(expectedSuccess(create, response.status));
    else if (response && isObject(response.body) && isId(response.body[idField])) created = response.body;
    else if (response) step.violations.push(`the created record has no "${idField}"; the next steps use a made-up id`);
  }
  const id = created ? String(created[idField]) : undefined;

  const listed = await session.call(list);
  if (listed.response && !isSuccess(listed.response.status))
    listed.step.violations.push(expectedSuccess(list, listed.response.status));
  const records =
    listed.response && isSuccess(listed.response.status)
      ? itemsOf(listed.response.body, listArray(list, collection.schema))
      : undefined;
  if (id !== undefined && records && !records.some((r) => isObject(r) && String(r[idField]) === id)) {
    listed.step.violations.push(`created record is not in the list (${idField} ${id}, first page only)`);
  }

  const fixed = id !== undefined && idParam ? { [idParam]: id } : {};
  if (read) {
    const { step, response } = await session.call(read, fixed);
    if (created && response && !isSuccess(response.status))
      step.violations.push(expectedSuccess(read, response.status));
    else if (created && response) {
      const differences = differencesBetween(created, response.body);
      if (differences.length > 0)
        step.violations.push(`read record differs from the created record at ${differences.join(', ')}`);
    }
  }
  for (const operation of itemOperations) {
    const itemPlan = session.planBody(operation);
    if ('skip' in itemPlan) session.skip(operation, itemPlan.skip);
    else await session.call(operation, fixed, itemPlan);
  }
  if (!remove) return;
  const removed = await session.call(remove, fixed);
  if (!created || !removed.response) return;
  if (!isSuccess(removed.response.status)) {
    removed.step.violations.push(expectedSuccess(remove, removed.response.status));
    return;
  }
  if (!read) return;
  const again = await session.call(read, fixed);
  const status = again.response?.status;
  if (status !== undefined && status !== 404 && documents(read, 404))
    again.step.violations.push(`expected 404 after delete, got ${status}`);
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

function isId(value: unknown): value is string | number {
  return (typeof value === 'string' && value !== '') || typeof value === 'number';
}

function expectedSuccess(operation: Operation, status: number): string {
  const codes = operation.spec.responses.map((r) => r.code).filter((code) => /^2/.test(code));
  return `expected a success${codes.length ? ` (${codes.join(' or ')})` : ''}, got ${status}`;
}

/** Whether the operation documents a status itself (its code or class; `default` does not count). */
function documents(operation: Operation, status: number): boolean {
  const response = compileResponses(operation.spec.responses).lookup(status);
  return response !== undefined && response.code !== 'default';
}

/** The records of a list body, where {@link listArray} says they are; `undefined` when they are not an array. */
function itemsOf(body: unknown, where: string[] | undefined): unknown[] | undefined {
  if (!where) return undefined;
  const items = where.reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), body);
  return Array.isArray(items) ? items : undefined;
}

/** JSON pointers where two values differ (at most a few), `[]` when they are equal. */
function differencesBetween(expected: unknown, actual: unknown, pointer = ''): string[] {
  if (isDeepStrictEqual(expected, actual)) return [];
  if (!isObject(expected) || !isObject(actual)) return [pointer || '/'];
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
  const found = keys.flatMap((key) =>
    differencesBetween(expected[key], actual[key], `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  );
  return found.slice(0, MAX_DIFFERENCES);
}
