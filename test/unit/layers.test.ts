// The layer order of mock/ (.dependency-cruiser.cjs, mock/docs/architecture.md) is checked by the same command
// `npm test` runs: here it is run on small trees that break each rule, and on the project's own tree.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** Runs the layer check on `dir` (the project's own config and tsconfig) and returns its violations. */
function check(dir: string): Violation[] {
  const run = spawnSync(
    process.execPath,
    [DEPCRUISE, 'mock', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'],
    { cwd: dir, encoding: 'utf8' },
  );
  if (!run.stdout) throw new Error(`depcruise printed nothing: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

/** A tree of `files` (path → source) beside the project's tsconfig. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  copyFileSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  return dir;
}

const brief = (violations: Violation[]) => violations.map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`);

test('the project’s own tree breaks no rule', () => {
  expect(brief(check(ROOT))).toEqual([]);
}, 60_000);

test('an upward import (a small library reaching the app) fails the check', () => {
  const dir = tree({
    'mock/lib/memo.ts': "import { app } from '../app.js';\nexport const memo = app;\n",
    'mock/app.ts': 'export const app = 1;\n',
  });
  expect(brief(check(dir))).toEqual(['layer-order: mock/lib/memo.ts → mock/app.ts']);
}, 60_000);

test('a layer may import its own layer and those below it', () => {
  const dir = tree({
    'mock/state/store.ts':
      "import { memo } from '../lib/memo.js';\nimport { budget } from './budget.js';\nexport const store = memo + budget;\n",
    'mock/state/budget.ts': 'export const budget = 1;\n',
    'mock/lib/memo.ts': 'export const memo = 1;\n',
  });
  expect(brief(check(dir))).toEqual([]);
}, 60_000);

test.each([
  ['a Node.js built-in', "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n", 'fs'],
  [
    'a type from a Node.js built-in',
    "import type { IncomingMessage } from 'node:http';\nexport type R = IncomingMessage;\n",
    'http',
  ],
])(
  'the core importing %s fails the check',
  (_, source, module) => {
    const dir = tree({ 'mock/journal/journal.ts': source });
    expect(brief(check(dir))).toEqual([`core-is-portable: mock/journal/journal.ts → ${module}`]);
  },
  60_000,
);

test('a circle of files fails the check', () => {
  const dir = tree({
    'mock/plan/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
    'mock/plan/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
  });
  // One violation names the circle (a → b → a).
  expect(brief(check(dir))).toEqual(['no-circular: mock/plan/a.ts → mock/plan/b.ts']);
}, 60_000);

test('a folder outside every layer fails the check until it is placed', () => {
  const dir = tree({
    'mock/misc/thing.ts': "import { memo } from '../lib/memo.js';\nexport const thing = memo;\n",
    'mock/lib/memo.ts': 'export const memo = 1;\n',
  });
  expect(brief(check(dir))).toEqual(['outside-every-layer: mock/misc/thing.ts → mock/lib/memo.ts']);
}, 60_000);

test('the MSW handlers reaching a Node.js built-in through a layer below them fail the check', () => {
  const dir = tree({
    'mock/msw/handlers.ts': "import { text } from '../reports/text.js';\nexport const handlers = text;\n",
    'mock/reports/text.ts': "import { STATUS_CODES } from 'node:http';\nexport const text = STATUS_CODES;\n",
  });
  // The report may use Node (it is no core layer); the handlers, which are to run in a service worker, may not.
  expect(brief(check(dir))).toEqual(['msw-is-portable: mock/msw/handlers.ts → http']);
}, 60_000);

test('the browser entry and its platform reaching a Node.js built-in fail the check', () => {
  const dir = tree({
    'mock/msw-browser.ts': "import { modules } from './browser/modules.js';\nexport const entry = modules;\n",
    'mock/browser/modules.ts': "import { text } from '../reports/text.js';\nexport const modules = text;\n",
    'mock/reports/text.ts': "import { STATUS_CODES } from 'node:http';\nexport const text = STATUS_CODES;\n",
  });
  expect(brief(check(dir)).sort()).toEqual([
    'msw-is-portable: mock/browser/modules.ts → http',
    'msw-is-portable: mock/msw-browser.ts → http',
  ]);
}, 60_000);
