// Coverage of the contract by a test suite, from the journal: which operations were called, which documented
// statuses were seen and which never were, which request fields and query parameters were ever sent, and the
// calls that broke the contract. GET /__mock/coverage, mock.coverage(), and the reports of coverage-report.ts.
import type { Journal, CallRecord } from '../journal/journal.js';
import type { OperationPlan } from '../plan/operation-plan.js';
import { mergedSchema } from '../prism/schema-check.js';

/** What a suite did with one operation. */
export interface OperationCoverage {
  operationId: string;
  /** Upper-case. */
  method: string;
  path: string;
  /** How many of the calls kept reached it. */
  calls: number;
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

/** The coverage of a contract by the calls a journal keeps. */
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
    /** Calls kept by the journal, routed or not (the journal is bounded: see `journalLimit`). */
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

/**
 * The coverage of every operation, in contract order, by the calls a session's journal keeps.
 * @example coverageOf(context.served, session.journal).summary // { operations: 7, called: 5, ... }
 */
export function coverageOf(
  served: { plans: readonly OperationPlan[]; contract: { title: string; version: string } },
  journal: Journal,
): Coverage {
  const tallies = new Map<string, Tally>();
  for (const plan of served.plans) tallies.set(plan.operation.id, newTally(plan));
  let calls = 0;
  let unrouted = 0;
  let callsWithViolations = 0;
  // One walk over the journal, reading each call in place.
  journal.find((call) => {
    calls++;
    if (call.violations.length > 0) callsWithViolations++;
    const tally = call.operationId === null ? undefined : tallies.get(call.operationId);
    if (tally) count(tally, call);
    else unrouted++;
    return false;
  });
  const operations = [...tallies.values()].map(finish);
  return {
    contract: { title: served.contract.title, version: served.contract.version },
    summary: {
      operations: operations.length,
      called: operations.filter((o) => o.calls > 0).length,
      statuses: operations.reduce((sum, o) => sum + o.statuses.documented.length, 0),
      statusesSeen: operations.reduce((sum, o) => sum + o.statuses.documented.length - o.statuses.unseen.length, 0),
      calls,
      callsWithViolations,
      unrouted,
    },
    operations,
  };
}

interface Tally {
  plan: OperationPlan;
  calls: number;
  seen: Record<string, number>;
  covered: Set<string>;
  queryNames: string[];
  querySent: Set<string>;
  fields: string[];
  fieldsSent: Set<string>;
  violations: { callId: string; messages: string[] }[];
  violationCount: number;
}

function newTally(plan: OperationPlan): Tally {
  const { spec } = plan.operation;
  return {
    plan,
    calls: 0,
    seen: {},
    covered: new Set(),
    queryNames: (spec.request?.query ?? []).map((q) => q.name),
    querySent: new Set(),
    fields: bodyFields(plan),
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
  const status = call.fault === 'drop' ? 0 : call.response.status;
  tally.seen[String(status)] = (tally.seen[String(status)] ?? 0) + 1;
  if (status !== 0) {
    const code = tally.plan.responses.lookup(status)?.code;
    if (code !== undefined) tally.covered.add(code);
  }
  for (const name of Object.keys(call.query)) tally.querySent.add(name);
  if (typeof call.body === 'object' && call.body !== null && !Array.isArray(call.body))
    for (const name of Object.keys(call.body)) tally.fieldsSent.add(name);
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
