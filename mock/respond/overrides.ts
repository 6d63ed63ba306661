// Overrides: "for the next N calls of this operation (that match), answer this instead", checked against
// the contract when they are set, so a test can never make the mock break it.
import type { Operation } from '../contract/contract.js';
import type { OperationPlan } from '../plan/operation-plan.js';
import type { CallRecord } from '../journal/journal.js';
import { checkCallMatch, matchesCall, type CallMatch } from '../journal/call-match.js';
import { MAX_DEPTH, nestsTooDeep } from '../http/body-depth.js';
import { HEADER_NAME } from '../http/reply.js';
import { utf8Length } from '../lib/bytes.js';

/** What an override does. At least one of `status`, `body`, `headers`, `delay` or `fault` is set. */
export interface OverrideSpec {
  operationId: string;
  /** Only calls that match are overridden (pathParams, query, headers, body: partial). */
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

/** How many overrides one session may hold at once. */
export const MAX_OVERRIDES = 100;
/** The largest `match` or `body` an override may have, in bytes of JSON. */
export const MAX_OVERRIDE_JSON = 65_536;
/**
 * The most values (objects, arrays, strings, numbers...) a `match` or `body` may have: `[{},{},…]` is small as text
 * only.
 */
export const MAX_OVERRIDE_VALUES = 4096;
/** What the overrides of all sessions of a mock may weigh together (see {@link overrideWeight}). */
export const OVERRIDE_BUDGET = 16 * 1024 * 1024;
/** What one value of an override costs in memory, beyond its text, as {@link overrideWeight} counts it. */
const VALUE_COST = 64;

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
  const wrongMatch = spec.match === undefined ? undefined : checkCallMatch(spec.match);
  if (wrongMatch) errors.push(wrongMatch.replace(/\.$/, ''));
  errors.push(...sizeErrors('match', spec.match), ...sizeErrors('body', spec.body));
  if (headers !== undefined) errors.push(...sizeErrors('headers', headers));
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

/** A header value holds no control character (a CR or LF would split the answer), nor what Latin-1 lacks. */
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
const BEYOND_LATIN1 = /[^\x00-\xff]/;

function headerErrors(headers: unknown): string[] {
  if (typeof headers !== 'object' || headers === null || Object.values(headers).some((v) => typeof v !== 'string')) {
    return ['headers must be an object of strings'];
  }
  const errors: string[] = [];
  for (const [name, value] of Object.entries(headers as Record<string, string>)) {
    const shown = JSON.stringify(name.length > 60 ? `${name.slice(0, 59)}…` : name);
    if (!HEADER_NAME.test(name))
      errors.push(`header name ${shown} is not an HTTP token (letters, digits, !#$%&'*+-.^_\`|~)`);
    else if (CONTROL.test(value)) errors.push(`header ${shown} has a control character (CR, LF...) in its value`);
    else if (BEYOND_LATIN1.test(value)) errors.push(`header ${shown} has a character beyond Latin-1 in its value`);
  }
  const reserved = Object.keys(headers).filter((name) => RESERVED_HEADERS.has(name.toLowerCase()));
  if (reserved.length)
    errors.push(`headers may not set ${reserved.join(', ')}: the mock writes them from the answer itself`);
  return errors;
}

/**
 * Keeps `match`, `body` and `headers` small enough to hold many of: at most {@link MAX_DEPTH} levels deep (found
 * without
 * recursion, before anything serialises them) and {@link MAX_OVERRIDE_JSON} bytes of JSON.
 */
export function sizeErrors(field: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (nestsTooDeep(value)) return [`${field} nests deeper than ${MAX_DEPTH} levels`];
  const values = countValues(value, MAX_OVERRIDE_VALUES + 1);
  if (values > MAX_OVERRIDE_VALUES)
    return [`${field} has more than ${MAX_OVERRIDE_VALUES} values; at most that are kept`];
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return [`${field} must be JSON`];
  }
  const size = text === undefined ? 0 : utf8Length(text);
  return size > MAX_OVERRIDE_JSON ? [`${field} is ${size} bytes of JSON; at most ${MAX_OVERRIDE_JSON} are kept`] : [];
}

/**
 * About what an override costs in memory: the JSON text of its `match`, `body` and `headers`, plus {@link VALUE_COST}
 * per
 * value in them. The mock bounds the total across all its sessions with it.
 */
export function overrideWeight({ match, body, headers }: Pick<OverrideSpec, 'match' | 'body' | 'headers'>): number {
  return valueWeight(match) + valueWeight(body) + valueWeight(headers);
}

/** What a JSON value kept costs in memory, as {@link overrideWeight} counts it (0 for none). */
export function valueWeight(value: unknown): number {
  if (value === undefined) return 0;
  return utf8Length(JSON.stringify(value) ?? '') + VALUE_COST * countValues(value, Infinity);
}

/** The values in a JSON value (itself included), counted without recursion, up to `stopAt`. */
function countValues(value: unknown, stopAt: number): number {
  const stack: unknown[] = [value];
  let count = 0;
  while (stack.length && count < stopAt) {
    const node = stack.pop();
    count++;
    if (typeof node === 'object' && node !== null) for (const child of Object.values(node)) stack.push(child);
  }
  return count;
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
