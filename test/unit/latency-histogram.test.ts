// The mock's own latency histogram prints what prom-client's Histogram prints for the same observations.
import { describe, expect, test } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { latencyMetric, LatencySeries } from '../../mock/reports/latency-histogram.js';

const BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const NAME = 'h_seconds';
const HELP = 'Latency.';

/** The text and JSON of the same observations in prom-client's Histogram and in ours. */
async function both(observations: [Record<string, string>, number][]) {
  const theirs = new Registry();
  const histogram = new Histogram({
    name: NAME,
    help: HELP,
    labelNames: ['api', 'operation'],
    buckets: BOUNDS,
    registers: [theirs],
  });
  const ours = new Registry();
  const series = new Map<string, LatencySeries>();
  ours.registerMetric(latencyMetric({ name: NAME, help: HELP, bounds: BOUNDS, all: () => series.values() }));
  for (const [labels, value] of observations) {
    histogram.observe(labels, value);
    const key = JSON.stringify(labels);
    if (!series.has(key)) series.set(key, new LatencySeries(labels, BOUNDS));
    series.get(key)!.observe(value);
  }
  return {
    theirs: await theirs.metrics(),
    ours: await ours.metrics(),
    theirsJson: await theirs.getMetricsAsJSON(),
    oursJson: await ours.getMetricsAsJSON(),
  };
}

describe('latencyMetric', () => {
  test('a bound is in its own bucket, a value past the last only in +Inf, as prom-client counts them', async () => {
    const labels = { operation: 'listPasses' };
    const { theirs, ours } = await both([
      [labels, 0],
      [labels, 0.001],
      [labels, 0.0010001],
      [labels, 0.3],
      [labels, 30],
      [labels, 31],
    ]);
    expect(ours).toBe(theirs);
    expect(ours).toContain('h_seconds_bucket{le="0.001",operation="listPasses"} 2\n');
    expect(ours).toContain('h_seconds_bucket{le="0.0025",operation="listPasses"} 3\n');
    expect(ours).toContain('h_seconds_bucket{le="30",operation="listPasses"} 5\n');
    expect(ours).toContain('h_seconds_bucket{le="+Inf",operation="listPasses"} 6\n');
    expect(ours).toContain('h_seconds_count{operation="listPasses"} 6\n');
  });

  test('each label set apart, the sum in seconds, and JSON as prom-client gives it', async () => {
    const { theirs, ours, theirsJson, oursJson } = await both([
      [{ api: 'a', operation: 'one' }, 0.004],
      [{ operation: 'two' }, 0.02],
      [{ api: 'a', operation: 'one' }, 0.2],
      [{}, 0.7],
    ]);
    expect(ours).toBe(theirs);
    expect(ours).toContain('h_seconds_sum{api="a",operation="one"} 0.20400000000000001\n');
    expect(ours).toContain('h_seconds_count 1\n');
    // prom-client's samples also carry an `exemplar` (null: none kept); the rest is the same.
    const withoutExemplars = (json: typeof theirsJson) =>
      json.map((metric) => ({
        ...metric,
        values: metric.values.map(({ exemplar: _, ...value }: object & { exemplar?: unknown }) => value),
      }));
    expect(oursJson).toEqual(withoutExemplars(theirsJson));
  });

  test('a series that observed nothing prints nothing, as a label set never observed in prom-client', async () => {
    const theirs = new Registry();
    new Histogram({ name: NAME, help: HELP, labelNames: ['operation'], buckets: BOUNDS, registers: [theirs] });
    const ours = new Registry();
    const idle = new LatencySeries({ operation: 'idle' }, BOUNDS);
    ours.registerMetric(latencyMetric({ name: NAME, help: HELP, bounds: BOUNDS, all: () => [idle] }));
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).not.toContain('h_seconds_bucket');
  });

  test('a value that is not a finite number is not counted (prom-client throws)', () => {
    const series = new LatencySeries({}, BOUNDS);
    series.observe(Number.NaN);
    series.observe(Number.POSITIVE_INFINITY);
    expect(series.count).toBe(0);
    expect(series.sum).toBe(0);
  });

  test('a registry reset forgets the observations, as it does for prom-client', async () => {
    const theirs = new Registry();
    const histogram = new Histogram({
      name: NAME,
      help: HELP,
      labelNames: ['operation'],
      buckets: BOUNDS,
      registers: [theirs],
    });
    const series = new LatencySeries({ operation: 'one' }, BOUNDS);
    const ours = new Registry();
    ours.registerMetric(latencyMetric({ name: NAME, help: HELP, bounds: BOUNDS, all: () => [series] }));
    for (const value of [0.02, 0.2]) {
      series.observe(value);
      histogram.observe({ operation: 'one' }, value);
    }
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).not.toContain('h_seconds_count');
    series.observe(0.003);
    histogram.observe({ operation: 'one' }, 0.003);
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('h_seconds_bucket{le="0.025",operation="one"} 1\n');
    expect(text).toContain('h_seconds_bucket{le="0.25",operation="one"} 1\n');
    expect(text).toContain('h_seconds_count{operation="one"} 1\n');
    expect(text).toContain('h_seconds_sum{operation="one"} 0.003\n');
  });
});
