// What an orchestrator scrapes (GET /__mock/metrics): the calls counted by API, operation and status, their
// latency, the proxy's outcomes, and the journal, state and store as they are at the scrape. One registry per
// mock, never prom-client's global one, so that mocks in one process keep their own counts.
import { createRequire } from 'node:module';
import type * as Prom from 'prom-client';
import { responseHeader, type CallRecord } from '../journal/call-record.js';
import { PROBLEMS } from '../http/problems.js';
import { latencyMetric, LatencySeries } from './latency-histogram.js';
import type { MockContext } from '../instance/mock-context.js';

// prom-client's index also loads its default metrics, cluster aggregation and push gateway (50 ms of every
// start, measured here); the three classes the mock uses are loaded alone (latency-histogram.ts is its own).
const load = createRequire(import.meta.url);
const Registry = load('prom-client/lib/registry') as typeof Prom.Registry;
const Counter = load('prom-client/lib/counter') as typeof Prom.Counter;
const Gauge = load('prom-client/lib/gauge') as typeof Prom.Gauge;

/** What every metric's name starts with. */
const PREFIX = 'membership_mock_';

/** Latency buckets in seconds: a mock answers in a millisecond or so, a delay or an upstream takes seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** What became of a request the proxy took: see {@link proxyOutcome}. */
export type ProxyOutcome = 'forwarded' | 'fallback' | 'upstream_error';

/** The mock's own problems for an upstream that failed: no answer (502, 504), or one breaking the contract. */
const UPSTREAM_FAILURES: ReadonlySet<string> = new Set([
  PROBLEMS.upstreamUnreachable.type,
  PROBLEMS.upstreamTimeout.type,
  PROBLEMS.invalidUpstreamAnswer.type,
]);

/** The metrics of one mock, in Prometheus's text format. */
export interface MockMetrics {
  /** The media type of {@link MockMetrics.text}: Prometheus's text format 0.0.4. */
  readonly contentType: string;
  /** Every metric as it is now; the gauges are read at this moment. */
  text(): Promise<string>;
}

/**
 * Counts the calls every session's journal records (as coverage hears them, not on the request's way) and reads
 * the journal, state and store when scraped.
 * @example const metrics = createMetrics(context); await metrics.text() // '# HELP membership_mock_requests_total…'
 */
export function createMetrics(context: MockContext): MockMetrics {
  const registry = new Registry();
  const registers = [registry];
  const series = new CallSeries();
  new Counter({
    name: `${PREFIX}requests_total`,
    help: 'Calls to the contract answered, by API (several served), operationId (none: no operation matched) and status (0: dropped on purpose).',
    labelNames: ['api', 'operation', 'status'],
    registers,
    collect() {
      this.reset();
      for (const { labels, statuses } of series.all())
        for (const [status, count] of statuses) this.inc({ ...labels, status }, count);
    },
  });
  registry.registerMetric(
    latencyMetric({
      name: `${PREFIX}request_duration_seconds`,
      help: "Seconds from a call's arrival to its answer being decided (its delay included), by API and operationId.",
      bounds: BUCKETS,
      all: () => [...series.all()].map((one) => one.latency),
    }),
  );
  const proxied = new Counter({
    name: `${PREFIX}proxy_requests_total`,
    help: 'Calls the proxy took, by API and outcome: forwarded (the upstream answered), fallback (the mock answered in its place), upstream_error (no answer, or one breaking the contract under --errors).',
    labelNames: ['api', 'outcome'],
    registers,
  });
  gauges(context, registers);
  // The calls this replica served: another replica's (`adopted`) are that replica's to count.
  context.callListeners.add((call, adopted) => {
    if (adopted) return;
    const one = series.of(call.contract, call.operationId);
    one.statuses.set(call.response.status, (one.statuses.get(call.response.status) ?? 0) + 1);
    if (call.ms !== undefined) one.latency.observe(call.ms / 1000);
    if (call.answeredBy === 'mock') return;
    const outcome = proxyOutcome(call);
    if (outcome) proxied.inc(call.contract === undefined ? { outcome } : { api: call.contract, outcome });
  });
  return {
    get contentType() {
      return registry.contentType;
    },
    text: () => registry.metrics(),
  };
}

/** The calls of one API and operation: their labels (made once), how many answered each status, their latency. */
interface Series {
  labels: { api?: string; operation?: string };
  statuses: Map<number, number>;
  latency: LatencySeries;
}

/**
 * The calls counted as they are heard, by API and operation, handed to prom-client at the scrape: a count in a
 * map, and a latency in an array, cost a call less than prom-client's own (it makes a key of the labels on
 * every count and observation).
 */
class CallSeries {
  readonly #byApi = new Map<string | undefined, Map<string | null, Series>>();

  of(api: string | undefined, operation: string | null): Series {
    let byOperation = this.#byApi.get(api);
    if (!byOperation) this.#byApi.set(api, (byOperation = new Map()));
    let found = byOperation.get(operation);
    if (!found) {
      const labels = { ...(api === undefined ? {} : { api }), ...(operation === null ? {} : { operation }) };
      byOperation.set(
        operation,
        (found = { labels, statuses: new Map(), latency: new LatencySeries(labels, BUCKETS) }),
      );
    }
    return found;
  }

  *all(): Generator<Series> {
    for (const byOperation of this.#byApi.values()) yield* byOperation.values();
  }
}

/** The metrics read at the scrape: the journal, the state, the sessions, the store's failed writes. */
function gauges(context: MockContext, registers: Prom.Registry[]): void {
  const defaultStore = () => context.sessions.get('')!.store;
  new Gauge({
    name: `${PREFIX}journal_bytes`,
    help: 'Bytes the journals of every session hold.',
    registers,
    collect() {
      this.set(context.journalBudget.used);
    },
  });
  new Gauge({
    name: `${PREFIX}journal_limit_bytes`,
    help: 'Bytes the journals may hold together (--journal-bytes): past them the oldest calls go.',
    registers,
    collect() {
      this.set(context.journalBudget.bytes);
    },
  });
  new Gauge({
    name: `${PREFIX}state_records`,
    help: "Records clients wrote, in every session's store (placeholders made from the seed are not counted).",
    registers,
    collect() {
      let records = 0;
      for (const session of context.sessions.values()) records += session.store.usage().records;
      this.set(records);
    },
  });
  new Gauge({
    name: `${PREFIX}sessions`,
    help: 'Sessions the mock keeps, the default one included.',
    registers,
    collect() {
      this.set(context.sessions.size);
    },
  });
  new Counter({
    name: `${PREFIX}store_errors_total`,
    help: "Changes the default session's store failed to write or refused (a state file full, deleted or replaced).",
    registers,
    collect() {
      this.reset();
      this.inc(defaultStore().info().errors ?? 0);
    },
  });
}

/**
 * What became of a call the proxy took, `undefined` for one it did not take (or refused before forwarding):
 * `forwarded` (the upstream's answer passed on), `fallback`, or `upstream_error` (the mock's own 502, 504, or
 * 500 for an answer breaking the contract under `errors`).
 * @example proxyOutcome({ answeredBy: 'fallback', … }) // 'fallback'
 */
export function proxyOutcome(call: CallRecord): ProxyOutcome | undefined {
  if (call.answeredBy === 'fallback') return 'fallback';
  if (call.answeredBy !== 'proxy') return undefined;
  const { status } = call.response;
  // Only the mock's own problems, read only for the statuses they have: an upstream's answer is not parsed.
  if (status === 500 || status === 501 || status === 502 || status === 504) {
    const problem = responseHeader(call, 'content-type')?.startsWith('application/problem+json');
    const type = problem ? problemType(call.response.body) : undefined;
    if (type !== undefined && UPSTREAM_FAILURES.has(type)) return 'upstream_error';
    if (type === PROBLEMS.bodyNotForwarded.type) return undefined;
  }
  return 'forwarded';
}

function problemType(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null && 'type' in body ? String(body.type) : undefined;
}
