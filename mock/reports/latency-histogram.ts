// The latency histogram of the metrics (GET /__mock/metrics), counted by the mock and handed to prom-client's
// registry at the scrape. prom-client's own Histogram checks and hashes the labels of every observation (about
// 4,000 instructions, 4% of a GET): here a call's series is found once (metrics.ts) and observing it adds to an
// array. The registry reads it through `get()`, as it reads its own metrics, and prints what prom-client's
// Histogram prints for the same observations (test/unit/latency-histogram.test.ts compares them).
import type * as Prom from 'prom-client';

/** The labels of one series (at most an API and an operation). */
export type SeriesLabels = Readonly<Record<string, string>>;

/** The observations of one label set: a count per bucket (not cumulative), their sum and their count. */
export class LatencySeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: SeriesLabels,
    readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  /**
   * Counts a value (seconds) in the first bucket it fits (`le`, so a bound's own value is in it), and in +Inf.
   * A value that is not a finite number is not counted (prom-client throws; a call's latency always is one).
   */
  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    this.sum += value;
    this.count++;
    const { bounds } = this;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.counts[i]!++;
        return;
      }
    }
  }

  /** Forgets what it counted. */
  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }
}

/** One sample as a metric's `get()` gives it (prom-client's public shape): `le` first, then the series' labels. */
interface Sample {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/**
 * A histogram metric for prom-client's registry, which reads what it holds through the `get()` every metric
 * has, made of the series `all()` yields at the scrape. Series that observed nothing are left out, as
 * prom-client leaves out label sets never observed.
 * @example registry.registerMetric(latencyMetric({ name, help, bounds, all: () => series }))
 */
export function latencyMetric(options: {
  name: string;
  help: string;
  bounds: readonly number[];
  all: () => Iterable<LatencySeries>;
}): Prom.Metric {
  const { name, help, bounds, all } = options;
  const samples = (): Sample[] => {
    const values: Sample[] = [];
    for (const series of all()) {
      if (series.count === 0) continue;
      const { labels } = series;
      let cumulative = 0;
      for (let i = 0; i < bounds.length; i++) {
        cumulative += series.counts[i]!;
        values.push({ metricName: `${name}_bucket`, labels: { le: bounds[i]!, ...labels }, value: cumulative });
      }
      values.push({ metricName: `${name}_bucket`, labels: { le: '+Inf', ...labels }, value: series.count });
      values.push({ metricName: `${name}_sum`, labels: { ...labels }, value: series.sum });
      values.push({ metricName: `${name}_count`, labels: { ...labels }, value: series.count });
    }
    return values;
  };
  const metric = {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get: async () => ({ name, help, type: 'histogram', aggregator: 'sum', values: samples() }),
    // `registry.resetMetrics()` resets every metric it holds.
    reset: () => {
      for (const series of all()) series.reset();
    },
  };
  // The registry reads only these members; its type names prom-client's four classes.
  return metric as unknown as Prom.Metric;
}
