// Overrides: "for the next N calls of this operation (that match), answer this instead", checked against
// the contract when they are set, so a test can never make the mock break it.
import type { Operation } from '../contract/load-contract.js';
import type { OperationPlan } from '../plan/operation-plan.js';
import type { CallRecord } from '../journal/journal.js';
import { matchesCall, type CallMatch } from '../journal/call-match.js';

/** What an override does. At least one of `status`, `body`, `headers`, `delay` or `fault` is set. */
export interface OverrideSpec {
  operationId: string;
  /** Only calls that match are overridden (params, query, headers, body: partial). */
  match?: Omit<CallMatch, 'operationId' | 'status'>;
  /** A documented status code of the operation. */
  status?: number;
  /** A body for that status; it must fit the contract. Without it, the status's example or a generated body. */
  body?: unknown;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering (0-60000). */
  delay?: number;
  /** `drop`: close the connection without an answer. */
  fault?: 'drop';
  /** How many calls it applies to; then it is gone. Omitted: until reset. */
  times?: number;
}

/** An override in force. */
export interface Override extends OverrideSpec {
  id: string;
  /** Calls it still applies to (`null`: until reset). */
  remaining: number | null;
}

const RESERVED_HEADERS = new Set([
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'x-request-id',
  'content-encoding',
]);

/** Checks a status and body against the operation's responses: messages, empty when they fit. */
export type CheckResponse = (operation: Operation, status: number, body: unknown) => string[];

/**
 * Validates an override against the contract and returns it ready to apply, or the reasons it is refused.
 * @example readOverride({ operationId: 'getPass', status: 500, times: 1 }, 'override-1', served.plans, check)
 */
export function readOverride(
  value: unknown,
  id: string,
  plans: readonly OperationPlan[],
  check: CheckResponse,
): { ok: true; override: Override } | { ok: false; errors: string[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, errors: ['an override is a JSON object with at least "operationId"'] };
  }
  const spec = value as Record<string, unknown>;
  const errors: string[] = [];
  for (const key of Object.keys(spec)) {
    if (!FIELDS.includes(key)) errors.push(`unknown field "${key}"; an override has ${FIELDS.join(', ')}`);
  }
  const plan = plans.find((p) => p.operation.id === spec.operationId);
  if (!plan) {
    const ids = plans.map((p) => p.operation.id).join(', ');
    errors.push(`operationId ${JSON.stringify(spec.operationId)} is not an operation of the contract; it has ${ids}`);
  }
  const { status, delay, times, headers } = spec;
  if (status !== undefined) {
    if (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 599) {
      errors.push('status must be a final HTTP status code (200-599)');
    } else if (plan && !plan.responses.lookup(status as number)) {
      const codes = plan.responses.codes.join(', ');
      errors.push(`status ${status} is not documented for ${plan.operation.id}; documented: ${codes}`);
    }
  }
  if (delay !== undefined && !(Number.isInteger(delay) && (delay as number) >= 0 && (delay as number) <= 60_000)) {
    errors.push('delay must be whole milliseconds from 0 to 60000');
  }
  if (times !== undefined && !(Number.isInteger(times) && (times as number) >= 1)) {
    errors.push('times must be a positive whole number');
  }
  if (spec.fault !== undefined && spec.fault !== 'drop') errors.push('fault must be "drop"');
  if (headers !== undefined) errors.push(...headerErrors(headers));
  if (spec.match !== undefined && (typeof spec.match !== 'object' || spec.match === null)) {
    errors.push('match must be an object');
  }
  if (ACTIONS.every((key) => spec[key] === undefined))
    errors.push('say what to do: status, body, headers, delay or fault');
  if (errors.length === 0 && plan && spec.body !== undefined) {
    // Without a status, the body is sent with the operation's success response.
    const sentWith = (status as number | undefined) ?? plan.responses.successStatus;
    errors.push(...check(plan.operation, sentWith, spec.body).map((e) => `body: ${e}`));
  }
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    override: { ...(spec as unknown as OverrideSpec), id, remaining: (times as number | undefined) ?? null },
  };
}

const FIELDS = ['operationId', 'match', 'status', 'body', 'headers', 'delay', 'fault', 'times'];
const ACTIONS = ['status', 'body', 'headers', 'delay', 'fault'];

function headerErrors(headers: unknown): string[] {
  if (typeof headers !== 'object' || headers === null || Object.values(headers).some((v) => typeof v !== 'string')) {
    return ['headers must be an object of strings'];
  }
  const reserved = Object.keys(headers).filter((name) => RESERVED_HEADERS.has(name.toLowerCase()));
  return reserved.length
    ? [`headers may not set ${reserved.join(', ')}: the mock writes them from the answer itself`]
    : [];
}

/** The first override that applies to a call (by operation and match), without using it up. */
export function findOverride(
  overrides: Override[],
  call: Pick<CallRecord, 'operationId' | 'method' | 'path' | 'pathParams' | 'query' | 'headers' | 'body' | 'response'>,
): Override | undefined {
  return overrides.find(
    (o) => o.operationId === call.operationId && (!o.match || matchesCall(call as CallRecord, o.match)),
  );
}

/** Counts one use of an override that was applied; one whose `times` are used up is removed. */
export function useOverride(overrides: Override[], override: Override): void {
  if (override.remaining !== null && --override.remaining === 0) overrides.splice(overrides.indexOf(override), 1);
}
