// Reads a scrape of GET /__mock/metrics as Prometheus reads the text format 0.0.4, strictly: every line a HELP,
// a TYPE, a sample of a family declared before it, or empty; label values unescaped; numbers as Prometheus
// writes them. (parse-prometheus-text-format, tried first, takes a stray word for a value and merges the
// histograms of different labels when `le` comes first, as prom-client writes it.)

/** One family: its type, and its samples (a histogram's `_bucket`, `_sum`, `_count` among them). */
export interface Family {
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help?: string;
  samples: Sample[];
}

export interface Sample {
  /** The series' own name: `x_bucket`, `x_sum`, `x_count` for a histogram `x`. */
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const HELP = new RegExp(`^# HELP (${NAME})(?: (.*))?$`);
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/;
const NUMBER = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]Inf|NaN)$/;
/** The series a family of each type may write. */
const SUFFIXES: Record<string, string[]> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

/** The families of a scrape, by name; throws naming the first line that breaks the format. */
export function readScrape(text: string): Map<string, Family> {
  if (!text.endsWith('\n')) throw new Error('the scrape does not end with a line feed');
  const families = new Map<string, Family>();
  const helps = new Map<string, string>();
  text
    .slice(0, -1)
    .split('\n')
    .forEach((line, i) => {
      const at = `line ${i + 1} ${JSON.stringify(line)}`;
      const help = HELP.exec(line);
      if (line === '') return;
      if (help) return void helps.set(help[1]!, help[2] ?? '');
      const typed = TYPE.exec(line);
      if (typed) {
        if (families.has(typed[1]!)) throw new Error(`${at}: a second TYPE for ${typed[1]}`);
        const type = typed[2] as Family['type'];
        return void families.set(typed[1]!, { type, help: helps.get(typed[1]!), samples: [] });
      }
      const sample = SAMPLE.exec(line);
      if (!sample || !NUMBER.test(sample[3]!)) throw new Error(`${at}: not a sample of the text format`);
      const family = [...families].find(([name, { type }]) =>
        (SUFFIXES[type] ?? ['']).some((suffix) => sample[1] === `${name}${suffix}`),
      );
      if (!family) throw new Error(`${at}: a sample of no family declared before it`);
      family[1].samples.push({ name: sample[1]!, labels: labelsOf(sample[2] ?? '', at), value: Number(sample[3]) });
    });
  return families;
}

function labelsOf(text: string, at: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest !== '') {
    const label = LABEL.exec(rest);
    if (!label) throw new Error(`${at}: labels that break the format at ${JSON.stringify(rest)}`);
    if (label[1]! in labels) throw new Error(`${at}: the label ${label[1]} twice`);
    labels[label[1]!] = label[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(label[0].length);
  }
  return labels;
}

/** The value of the family's sample with exactly these labels (0 when it has none: a counter not yet moved). */
export function valueOf(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  return seriesOf(families, name, name).find((s) => same(s.labels, labels))?.value ?? 0;
}

/** The histogram's series with exactly these labels (besides `le`): its count, sum and buckets by `le`. */
export function histogramOf(families: Map<string, Family>, name: string, labels: Record<string, string> = {}) {
  const count = seriesOf(families, name, `${name}_count`).find((s) => same(s.labels, labels));
  const sum = seriesOf(families, name, `${name}_sum`).find((s) => same(s.labels, labels));
  if (!count || !sum) throw new Error(`no histogram ${name} ${JSON.stringify(labels)}`);
  const buckets: Record<string, number> = {};
  for (const s of seriesOf(families, name, `${name}_bucket`)) {
    const { le, ...own } = s.labels;
    if (le !== undefined && same(own, labels)) buckets[le] = s.value;
  }
  return { count: count.value, sum: sum.value, buckets };
}

/** The series of a family under one name; throws when the scrape has no such family. */
export function seriesOf(families: Map<string, Family>, family: string, name = family): Sample[] {
  const found = families.get(family);
  if (!found) throw new Error(`no metric ${family} in the scrape`);
  return found.samples.filter((s) => s.name === name);
}

function same(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
