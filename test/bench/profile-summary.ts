// Summarises a V8 .cpuprofile (node --cpu-prof): self time by category and by function, inclusive time of our
// functions and of libraries, and the heavy call tree, over a time window, optionally per request.
// Run: npx tsx test/bench/profile-summary.ts FILE.cpuprofile [--from S] [--to S] [--requests N] [--top N]
//      [--tree PCT] [--keep-writev]
// profile-route.ts calls it with the window and request count of its load.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SummaryOptions {
  /** Seconds since the profile started (the process start, roughly). */
  from?: number;
  to?: number;
  /** Requests served in the window: adds µs per request to every figure. */
  requests?: number;
  top?: number;
  /** Smallest share of busy time (%) a call-tree node needs to be shown. */
  tree?: number;
  /**
   * Count samples in the writev syscall as busy. By default they count as idle: on a machine where the load
   * generator shares the cores, a process that wakes it by writing to a loopback socket is often preempted
   * inside writev, so those samples are mostly time off the CPU (compare the sys time in /proc).
   */
  keepWritev?: boolean;
}

const ROOT_URL = new URL('../..', import.meta.url).href;

export function summariseProfile(file: string, options: SummaryOptions = {}): string {
  const { from = 0, to = Infinity, requests, top = 15, tree = 2, keepWritev = false } = options;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);

  const self = new Map<string, number>();
  const byCategory = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const nodeTime = new Map<number, number>();
  const ancestors = new Map<number, string[]>();
  const keysAbove = (id: number) => {
    let keys = ancestors.get(id);
    if (!keys) {
      const seen = new Set<string>();
      for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) seen.add(nameOf(nodes.get(x)!));
      ancestors.set(id, (keys = [...seen]));
    }
    return keys;
  };
  const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value);

  let t = 0;
  let sampled = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    if (t < from * 1e6 || t > to * 1e6) continue;
    // A sample lasts until the next one.
    const dt = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i]!;
    const id = profile.samples[i]!;
    const node = nodes.get(id)!;
    sampled += dt;
    const category = categoryOf(node);
    if (category === '(idle)' || (!keepWritev && category === 'native writev')) {
      idle += dt;
      continue;
    }
    add(self, nameOf(node), dt);
    add(byCategory, category, dt);
    for (const key of keysAbove(id)) add(inclusive, key, dt);
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x))
      nodeTime.set(x, (nodeTime.get(x) ?? 0) + dt);
  }
  const busy = sampled - idle;
  const figure = (us: number) =>
    `${((100 * us) / busy).toFixed(1).padStart(5)}% ${(us / 1000).toFixed(0).padStart(6)} ms` +
    (requests ? ` ${(us / requests).toFixed(2).padStart(7)} µs/req` : '');
  const table = (title: string, entries: [string, number][]) => [
    `\n${title}:`,
    ...entries
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => `  ${figure(us)}  ${name}`),
  ];
  const ours = (name: string) => name.includes(' mock/');
  const lines = [
    `${file}`,
    `window ${from}–${to === Infinity ? 'end' : to} s: ` +
      `${(sampled / 1e6).toFixed(1)} s sampled, busy ${(busy / 1e6).toFixed(1)} s ` +
      `(${keepWritev ? 'writev counted as busy' : 'writev samples counted as idle'})` +
      (requests ? `, ${requests} requests, ${(busy / requests).toFixed(1)} µs busy per request` : '') +
      '; percentages are of busy time',
    ...table('self time by category', [...byCategory]),
    ...table('self time, all functions', [...self]),
    ...table(
      'self time, our code',
      [...self].filter(([name]) => ours(name)),
    ),
    ...table(
      'inclusive time, our code',
      [...inclusive].filter(([name]) => ours(name)),
    ),
    ...table(
      'inclusive time, libraries',
      [...inclusive].filter(([name]) => name.includes(' nm:')),
    ),
    `\nheavy call tree (nodes with at least ${tree}% of busy time):`,
  ];
  const walk = (id: number, depth: number) => {
    const children = (nodes.get(id)!.children ?? [])
      .map((child) => [child, nodeTime.get(child) ?? 0] as const)
      .filter(([, us]) => (100 * us) / busy >= tree)
      .sort((a, b) => b[1] - a[1]);
    for (const [child, us] of children) {
      lines.push(`  ${figure(us)}  ${'  '.repeat(depth)}${nameOf(nodes.get(child)!)}`);
      walk(child, depth + 1);
    }
  };
  walk(profile.nodes[0]!.id, 0);
  return lines.join('\n');
}

/** `function file:line`, with the repository root and node_modules folders shortened. */
function nameOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url
    .replace(ROOT_URL, '')
    .replace(/^.*node_modules\//, 'nm:')
    .replace(/^dist\//, '');
  return `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
}

function categoryOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : `native ${functionName}`;
  if (url.includes('/dist/mock/')) return 'ours (dist/mock)';
  if (url.startsWith('node:')) return 'node internals (node:*)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  return pkg ? `nm ${pkg[1]}` : 'other';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [--from S] [--to S] [--requests N] ...');
  const number = (name: string) => {
    const i = rest.indexOf(name);
    return i < 0 ? undefined : Number(rest[i + 1]);
  };
  console.log(
    summariseProfile(file, {
      from: number('--from'),
      to: number('--to'),
      requests: number('--requests'),
      top: number('--top'),
      tree: number('--tree'),
      keepWritev: rest.includes('--keep-writev'),
    }),
  );
}
