// Coverage of the contract by a test suite, counted as calls are recorded: which operations were called, which
// documented statuses were seen and which never were, which request fields and query parameters were ever
// sent, and the calls that broke the contract. GET /__mock/coverage, mock.coverage(), coverage-report.ts.
import { copyOfCall, type CallRecord } from '../journal/journal.js';
import { leftOutOfPact, shapeNames } from './pact.js';
import { mediaTypeOf } from '../http/body-kind.js';
import type { OperationPlan } from '../plan/operation-plan.js';
import { mergedSchema } from '../prism/schema-check.js';
import { BoundedTrieMemo } from '../lib/bounded-memo.js';
import { queryParameterOf } from './query-parameters.js';

/** What a suite did with one operation. */
export interface OperationCoverage {
  operationId: string;
  /** Upper-case. */
  method: string;
  path: string;
  /** How many calls reached it. */
  calls: number;
  /**
   * Who answered them, with how many times: `mock`, `proxy` (the real backend behind `--proxy`), `fallback`,
   * `prefer`, `override`. With a proxy, what the backend answered is what a provider really does.
   */
  answeredBy: Record<string, number>;
  /** The response codes the contract documents, as written (`200`, `4XX`, `default`), and which were answered. */
  statuses: {
    documented: string[];
    /** Each status answered, with how many times (`"0"`: dropped on purpose, no answer). */
    seen: Record<string, number>;
    /** Documented codes no answer fell under (`4XX` is seen by a 404 when no `404` is documented). */
    unseen: string[];
  };
  /** The query parameters the operation declares: those some call sent, and those none did. */
  query: { sent: string[]; never: string[] };
  /** The top-level fields of a JSON object body the operation declares: sent by some call, and never. */
  body: { sent: string[]; never: string[] };
  /** Calls of the operation whose request broke the contract: the first 20, each with its first messages. */
  violations: { callId: string; messages: string[] }[];
  /** How many calls broke the contract (there may be more than are listed). */
  violationCount: number;
}

/** The coverage of a contract by the calls of a test run. */
export interface Coverage {
  contract: { title: string; version: string };
  summary: {
    operations: number;
    /** Operations called at least once. */
    called: number;
    /** Documented response codes, over all operations. */
    statuses: number;
    /** Documented response codes some answer fell under. */
    statusesSeen: number;
    /** Calls counted, routed or not, of every session. */
    calls: number;
    /** Calls whose request broke the contract. */
    callsWithViolations: number;
    /** Calls no operation of the contract matched. */
    unrouted: number;
  };
  operations: OperationCoverage[];
}

const LISTED_VIOLATIONS = 20;
const MESSAGES_PER_CALL = 3;

/** The title and version of one API of a combined contract. */
function apiContract(
  contract: ServedContract['contract'],
  name: string,
): { title: string; version: string } | undefined {
  const api = (contract as { apis?: { name: string; contract: { title: string; version: string } }[] }).apis?.find(
    (a) => a.name === name,
  );
  return api && { title: api.contract.title, version: api.contract.version };
}

/** What the record needs of what a mock serves. */
export interface ServedContract {
  plans: readonly OperationPlan[];
  contract: { title: string; version: string };
}

/**
 * Counts calls against a contract's operations: what coverage reports. Fed a call at a time; `coverage()`
 * reads the counts so far.
 * @example const count = new CoverageCount(served); journal.find((call) => (count.add(call), false));
 */
export class CoverageCount {
  readonly #served: ServedContract;
  readonly #tallies: Map<string, Tally>;
  #calls = 0;
  #unrouted = 0;
  #withViolations = 0;
  /** With several APIs: the same counts for each (by the call's `contract`). */
  readonly #byApi = new Map<string, { calls: number; unrouted: number; withViolations: number }>();

  constructor(served: ServedContract) {
    this.#served = served;
    this.#tallies = new Map(served.plans.map((plan) => [plan.operation.id, newTally(plan)]));
  }

  /** Counts a call (read now, not kept). */
  add(call: CallRecord): void {
    this.#calls++;
    if (call.violations.length > 0) this.#withViolations++;
    const tally = call.operationId === null ? undefined : this.#tallies.get(call.operationId);
    if (tally) count(tally, call);
    else this.#unrouted++;
    if (call.contract === undefined) return;
    let api = this.#byApi.get(call.contract);
    if (!api) this.#byApi.set(call.contract, (api = { calls: 0, unrouted: 0, withViolations: 0 }));
    api.calls++;
    if (call.violations.length > 0) api.withViolations++;
    if (!tally) api.unrouted++;
  }

  /**
   * The coverage counted, every operation in contract order; with `api` (several APIs), that API's alone, as
   * if it were served by itself.
   */
  coverage(api?: string): Coverage {
    const tallies = [...this.#tallies.values()].filter((t) => api === undefined || t.plan.operation.api === api);
    const operations = tallies.map(finish);
    const own = api === undefined ? undefined : (this.#byApi.get(api) ?? { calls: 0, unrouted: 0, withViolations: 0 });
    const named = api === undefined ? undefined : apiContract(this.#served.contract, api);
    return {
      contract: named ?? { title: this.#served.contract.title, version: this.#served.contract.version },
      summary: {
        operations: operations.length,
        called: operations.filter((o) => o.calls > 0).length,
        statuses: operations.reduce((sum, o) => sum + o.statuses.documented.length, 0),
        statusesSeen: operations.reduce((sum, o) => sum + o.statuses.documented.length - o.statuses.unseen.length, 0),
        calls: own?.calls ?? this.#calls,
        callsWithViolations: own?.withViolations ?? this.#withViolations,
        unrouted: own?.unrouted ?? this.#unrouted,
      },
      operations,
    };
  }
}

/**
 * The contract as a test run used it: every call of every session is counted as it is recorded, so a
 * session's reset (between tests) or the journal's bound loses nothing. Cleared by `clear()`
 * (`DELETE /__mock/coverage`), and made anew when the contract is reloaded. It also keeps the first call of
 * each request shape and media type answered, for the Pact export (at most 1000 shapes, 8 MiB of bodies).
 * @example const tally = new CallTally(served); // each session's journal: { observe: (call) => tally.add(call) }
 */
export class CallTally {
  readonly #served: ServedContract;
  #count: CoverageCount;
  /** The first call of each shape, oldest first. */
  #shapes: CallRecord[] = [];
  /**
   * The shapes seen, by operation, method, status, Content-Type and names (pact.ts's shapeNames): the first four
   * are strings and a number V8 has hashed before (a reply's Content-Type is its plan's media type, one string),
   * so a shape seen before costs no key made. The Content-Type is as recorded, parameters and all, not cut per
   * call: toPact joins the shapes that differ in a `charset` alone. SHAPES bounds it already.
   */
  #seen = new BoundedTrieMemo<true>(SHAPES + 1, Infinity);
  #shapeBytes = 0;
  #leftOut: string[] = [];

  constructor(served: ServedContract) {
    this.#served = served;
    this.#count = new CoverageCount(served);
  }

  /** Counts a call as the journal records it (`call` a view to read now, copied to be kept: copyOfCall). */
  add(call: CallRecord): void {
    this.#count.add(call);
    const why = leftOutOfPact(call);
    if (why) {
      if (this.#leftOut.length < LISTED_LEFT_OUT) this.#leftOut.push(`${call.id} ${call.method} ${call.path}: ${why}`);
      return;
    }
    if (this.#shapes.length >= SHAPES || this.#shapeBytes >= SHAPE_BYTES) return;
    // The journal keeps header names lower case, the mock's and an upstream's alike. The mock's own Content-Type
    // is its plan's one string; a backend's may differ in its parameters each time: its media type alone.
    const sent = call.response.headers['content-type'];
    const type = call.answeredBy === 'proxy' ? mediaTypeOf(sent) : sent;
    const shape = [call.operationId!, call.method, call.response.status, type, shapeNames(call)];
    if (this.#seen.get(shape)) return;
    this.#seen.set(shape, true);
    const kept = copyOfCall(call);
    // Its bodies are at most the journal's body limit each; their text is most of what a copy weighs (a form's
    // twice: its fields, and its text as sent).
    this.#shapeBytes += (JSON.stringify([kept.body, kept.response.body])?.length ?? 0) + (kept.bodyText?.length ?? 0);
    this.#shapes.push(kept);
  }

  /** The coverage so far; with `api`, that API's alone. */
  coverage(api?: string): Coverage {
    return this.#count.coverage(api);
  }

  /** The first call of each request shape, oldest first, and why the others were left out of a pact. */
  shapes(): { calls: CallRecord[]; leftOut: string[] } {
    return { calls: [...this.#shapes], leftOut: [...this.#leftOut] };
  }

  /** Starts counting again. */
  clear(): void {
    this.#count = new CoverageCount(this.#served);
    this.#shapes = [];
    this.#seen.clear();
    this.#shapeBytes = 0;
    this.#leftOut = [];
  }
}

/** The request shapes kept for a pact, at most: by count, and by the characters of their bodies. */
const SHAPES = 1000;
const SHAPE_BYTES = 8 * 1024 * 1024;
const LISTED_LEFT_OUT = 100;

interface Tally {
  plan: OperationPlan;
  calls: number;
  answeredBy: Record<string, number>;
  seen: Record<string, number>;
  covered: Set<string>;
  queryNames: string[];
  /** The declared parameter a key of the query string is part of (see query-parameters.ts). */
  queryParameter: (key: string) => string | undefined;
  querySent: Set<string>;
  fields: string[];
  fieldsDeclared: Set<string>;
  fieldsSent: Set<string>;
  violations: { callId: string; messages: string[] }[];
  violationCount: number;
}

function newTally(plan: OperationPlan): Tally {
  const { spec } = plan.operation;
  const query = spec.request?.query ?? [];
  const queryNames = query.map((q) => q.name);
  const fields = bodyFields(plan);
  return {
    plan,
    calls: 0,
    answeredBy: {},
    seen: {},
    covered: new Set(),
    queryNames,
    queryParameter: queryParameterOf(query),
    querySent: new Set(),
    fields,
    fieldsDeclared: new Set(fields),
    fieldsSent: new Set(),
    violations: [],
    violationCount: 0,
  };
}

/** The top-level properties of the operation's JSON object body, `allOf` merged; none for other bodies. */
function bodyFields(plan: OperationPlan): string[] {
  const contents = plan.operation.spec.request?.body?.contents ?? [];
  const json = contents.find((c) => /[/+]json\b/i.test(c.mediaType)) ?? contents[0];
  if (!json?.schema || typeof json.schema !== 'object') return [];
  const schema = mergedSchema(json.schema as object) as { properties?: Record<string, unknown> };
  return Object.keys(schema.properties ?? {});
}

function count(tally: Tally, call: CallRecord): void {
  tally.calls++;
  tally.answeredBy[call.answeredBy] = (tally.answeredBy[call.answeredBy] ?? 0) + 1;
  const status = call.fault === 'drop' ? 0 : call.response.status;
  tally.seen[String(status)] = (tally.seen[String(status)] ?? 0) + 1;
  if (status !== 0) {
    const code = tally.plan.responses.lookup(status)?.code;
    if (code !== undefined) tally.covered.add(code);
  }
  // Only declared parameters: an undeclared key is a violation (listed there), and would grow the set without end.
  for (const key of Object.keys(call.query)) {
    const name = tally.queryParameter(key);
    if (name !== undefined) tally.querySent.add(name);
  }
  // The body is read (parsed from the journal's text) only while a declared field was never sent.
  if (tally.fieldsSent.size < tally.fields.length) {
    const { body } = call;
    if (typeof body === 'object' && body !== null && !Array.isArray(body))
      for (const name of Object.keys(body)) if (tally.fieldsDeclared.has(name)) tally.fieldsSent.add(name);
  }
  if (call.violations.length > 0) {
    tally.violationCount++;
    if (tally.violations.length < LISTED_VIOLATIONS)
      tally.violations.push({
        callId: call.id,
        messages: call.violations.slice(0, MESSAGES_PER_CALL).map((v) => `${v.location} ${v.pointer}: ${v.message}`),
      });
  }
}

function finish(tally: Tally): OperationCoverage {
  const { operation, responses } = tally.plan;
  // The table's codes are as written; lookup() gives the code an answer fell under, in the same spelling
  // except `default`, which the table keys in upper case.
  const covered = new Set([...tally.covered].map((code) => code.toLowerCase()));
  return {
    operationId: operation.id,
    method: operation.method.toUpperCase(),
    path: operation.path,
    calls: tally.calls,
    answeredBy: tally.answeredBy,
    statuses: {
      documented: [...responses.codes],
      seen: tally.seen,
      unseen: responses.codes.filter((code) => !covered.has(code.toLowerCase())),
    },
    query: split(tally.queryNames, tally.querySent),
    body: split(tally.fields, tally.fieldsSent),
    violations: tally.violations,
    violationCount: tally.violationCount,
  };
}

/** The names declared, as sent and never sent (names sent but not declared are violations, listed there). */
function split(declared: string[], sent: Set<string>): { sent: string[]; never: string[] } {
  return { sent: declared.filter((n) => sent.has(n)), never: declared.filter((n) => !sent.has(n)) };
}
