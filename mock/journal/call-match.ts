// Partial matching of recorded calls, and the differences that explain a near miss.
import { editDistance } from '../lib/nearest-name.js';
import { counted } from '../lib/counted.js';
import type { CallRecord } from './journal.js';

/**
 * What a call must have. Every field set must match; `query`, `headers` and `body` match partially (the
 * call may have more), header names in any case. Values may be vitest asymmetric matchers
 * (`expect.any(String)`).
 */
export interface CallMatch {
  operationId?: string;
  /** With several APIs: the API the call went to. */
  contract?: string;
  method?: string;
  /** The exact request path, or a prefix ending in `*`. */
  path?: string;
  /** Path parameters, by name: the call's `pathParams`. */
  pathParams?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  body?: unknown;
  /** The response status the mock answered. */
  status?: number;
}

/** The fields a match may have. */
const MATCH_FIELDS = [
  'operationId',
  'contract',
  'method',
  'path',
  'pathParams',
  'query',
  'headers',
  'body',
  'status',
] as const;

/**
 * What is wrong with a match that came as JSON (the admin API's `/calls/wait`), or `undefined` when it is
 * usable: names and paths are strings, the status a number, the partial fields objects.
 */
export function checkCallMatch(match: unknown): string | undefined {
  if (typeof match !== 'object' || match === null || Array.isArray(match))
    return `match must be an object: { ${MATCH_FIELDS.join(', ')} }.`;
  const fields = match as Record<string, unknown>;
  // A field the match does not know would be ignored, and the match then accept calls it was meant to refuse.
  for (const name of Object.keys(fields)) {
    if (name === 'params') return 'match.params is not a field of a match: path parameters are pathParams.';
    if (!(MATCH_FIELDS as readonly string[]).includes(name))
      return `match.${name} is not a field of a match; it has ${MATCH_FIELDS.join(', ')}.`;
  }
  for (const name of ['operationId', 'contract', 'method', 'path'] as const) {
    if (fields[name] !== undefined && typeof fields[name] !== 'string') return `match.${name} must be a string.`;
  }
  if (fields.status !== undefined && typeof fields.status !== 'number') return 'match.status must be a number.';
  for (const name of ['pathParams', 'query', 'headers'] as const) {
    const value = fields[name];
    if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
      return `match.${name} must be an object.`;
  }
  return undefined;
}

/**
 * What is wrong with an operationId a test names (`undefined` when the contract has it): a misspelt one
 * would match nothing, and a test expecting no such call pass for the wrong reason.
 * @example unknownOperation('createPas', ['createPass', 'listPasses']) // '... did you mean createPass? ...'
 */
export function unknownOperation(operationId: string, known: readonly string[]): string | undefined {
  if (known.includes(operationId)) return undefined;
  // Several APIs share it: each one's is named `api:operationId`.
  const qualified = known.filter((id) => id.endsWith(`:${operationId}`));
  if (qualified.length > 0)
    return `${JSON.stringify(operationId)} is an operationId of several APIs: name one, ${qualified.join(' or ')}.`;
  const nearest = known
    .map((id) => ({ id, distance: editDistance(operationId.toLowerCase(), id.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance)[0];
  const guess =
    nearest && nearest.distance <= Math.max(2, Math.ceil(operationId.length / 3)) ? ` Did you mean ${nearest.id}?` : '';
  const listed = known.length > 20 ? `${known.slice(0, 20).join(', ')}, … (${known.length} in all)` : known.join(', ');
  return `${JSON.stringify(operationId)} is not an operationId of the contract.${guess} It has ${listed || 'none'}.`;
}

/** Whether a call matches. */
export function matchesCall(call: CallRecord, match: CallMatch): boolean {
  return differences(call, match).length === 0;
}

/**
 * How a call differs from a match, one line a difference: `body.kind: expected "pin", received "card"`.
 * @example differences(call, { body: { kind: 'pin' } }) // ['body.kind: expected "pin", received "card"']
 */
export function differences(call: CallRecord, match: CallMatch): string[] {
  const out: string[] = [];
  if (match.operationId !== undefined && call.operationId !== match.operationId)
    out.push(`operationId: expected ${show(match.operationId)}, received ${show(call.operationId)}`);
  if (match.contract !== undefined && call.contract !== match.contract)
    out.push(`contract: expected ${show(match.contract)}, received ${show(call.contract ?? null)}`);
  if (match.method !== undefined && call.method !== match.method.toUpperCase())
    out.push(`method: expected ${match.method.toUpperCase()}, received ${call.method}`);
  if (match.path !== undefined && !pathMatches(call.path, match.path))
    out.push(`path: expected ${show(match.path)}, received ${show(call.path)}`);
  if (match.status !== undefined && call.response.status !== match.status)
    out.push(`status: expected ${match.status}, received ${answered(call)}`);
  if (match.pathParams !== undefined) compare('pathParams', call.pathParams, match.pathParams, out);
  if (match.query !== undefined) compare('query', call.query, match.query, out);
  if (match.headers !== undefined) {
    const lower = Object.fromEntries(Object.entries(match.headers).map(([k, v]) => [k.toLowerCase(), v]));
    compare('headers', call.headers, lower, out);
  }
  if ('body' in match) compare('body', call.body, match.body, out);
  return out;
}

/** What the mock answered, as a failure message says it: a dropped connection has no status. */
export function answered(call: Pick<CallRecord, 'response' | 'fault'>): string {
  if (call.fault === 'drop') return 'no answer (dropped on purpose)';
  return call.fault === 'failure' ? `${call.response.status} (an injected failure)` : String(call.response.status);
}

function pathMatches(path: string, expected: string): boolean {
  return expected.endsWith('*') ? path.startsWith(expected.slice(0, -1)) : path === expected;
}

/** Partial deep comparison: objects may have more keys than expected; arrays match element by element. */
function compare(where: string, actual: unknown, expected: unknown, out: string[]): void {
  if (isAsymmetric(expected)) {
    if (!expected.asymmetricMatch(actual))
      out.push(`${where}: expected ${expected.toString?.() ?? 'a match'}, received ${show(actual)}`);
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return void out.push(`${where}: expected an array, received ${show(actual)}`);
    if (actual.length !== expected.length)
      out.push(`${where}: expected ${counted(expected.length, 'item')}, received ${actual.length}`);
    expected.forEach((item, i) => i < actual.length && compare(`${where}[${i}]`, actual[i], item, out));
    return;
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
      return void out.push(`${where}: expected an object, received ${show(actual)}`);
    for (const [key, value] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, key)) out.push(`${where}.${key}: expected ${show(value)}, received nothing`);
      else compare(`${where}.${key}`, (actual as Record<string, unknown>)[key], value, out);
    }
    return;
  }
  if (!Object.is(actual, expected)) out.push(`${where}: expected ${show(expected)}, received ${show(actual)}`);
}

function isAsymmetric(value: unknown): value is { asymmetricMatch(other: unknown): boolean; toString?(): string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
  );
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
