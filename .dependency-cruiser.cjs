// The layer order of mock/, checked by `npm run lint:layers` (part of `npm test`); mock/docs/architecture.md
// says what each layer is for. A folder imports only from its own layer and the layers below it.

/** Bottom first. A layer is a folder of mock/; `entry` is the top-level files and the folders that start things. */
const LAYERS = [
  ['lib', 'mock/lib/'],
  ['http', 'mock/http/'],
  ['schema', 'mock/schema/'],
  ['prism', 'mock/prism/'],
  ['contract', 'mock/contract/'],
  ['generate', 'mock/generate/'],
  ['plan', 'mock/plan/'],
  ['journal', 'mock/journal/'],
  ['state', 'mock/state/'],
  ['respond', 'mock/respond/'],
  ['instance', 'mock/instance/'],
  ['engine', 'mock/engine/'],
  ['handler', 'mock/handler/'],
  ['reports', 'mock/reports/'],
  ['control', 'mock/control/'],
  ['msw', 'mock/msw/'],
  ['browser', 'mock/browser/'],
  ['admin', 'mock/admin/'],
  ['node', 'mock/node/'],
  ['entry', 'mock/(?:cli|testing|verify)/|mock/[^/]+\\.ts$'],
];

/** The Node.js built-in modules, by either name (`fs`, `node:fs`). */
const BUILTINS = `^(?:node:)?(?:${require('node:module')
  .builtinModules.filter((name) => !name.startsWith('_'))
  .map((name) => name.replace(/[/]/g, '\\/'))
  .join('|')})$`;

/** The core decides an answer: it must run where there is no Node.js (a browser, a service worker). */
const CORE = [
  'lib',
  'http',
  'schema',
  'prism',
  'contract',
  'generate',
  'plan',
  'journal',
  'state',
  'respond',
  'instance',
  'engine',
];

const pathOf = (name) => LAYERS.find(([layer]) => layer === name)[1];
const anyOf = (names) => `^(?:${names.map(pathOf).join('|')})`;

/** One rule per layer: nothing above it. */
const upward = LAYERS.slice(0, -1).map(([name], index) => ({
  name: `layer-order`,
  comment: `${name} imports only its own layer and those below it (${LAYERS.slice(0, index + 1)
    .map(([layer]) => layer)
    .join(', ')})`,
  severity: 'error',
  from: { path: `^(?:${pathOf(name)})` },
  to: { path: anyOf(LAYERS.slice(index + 1).map(([layer]) => layer)) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-circular',
      comment: 'no circle of files: a file that needs another that needs it back is one concern in two places',
      severity: 'error',
      from: { path: '^mock/' },
      to: { circular: true },
    },
    {
      name: 'core-is-portable',
      comment: 'the core imports no Node.js built-in, no express and no better-sqlite3 (see mock/docs/architecture.md)',
      severity: 'error',
      from: { path: anyOf(CORE) },
      to: { path: '^(?:node_modules/(?:express|better-sqlite3|ioredis|@types/express|@types/better-sqlite3)/)' },
    },
    {
      name: 'core-is-portable',
      comment: 'the core imports no Node.js built-in, no express and no better-sqlite3 (see mock/docs/architecture.md)',
      severity: 'error',
      from: { path: anyOf(CORE) },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'msw-is-portable',
      comment:
        'the MSW handlers (mock/msw/), their browser platform (mock/browser/) and browser entry (mock/msw-browser.ts) ' +
        'reach no Node.js built-in, express or better-sqlite3, through any import: they run in a browser or a ' +
        'service worker (mock/msw.ts is their Node entry)',
      severity: 'error',
      from: { path: '^mock/(?:msw/|browser/|msw-browser\\.ts$)' },
      to: { path: `${BUILTINS}|^node_modules/(?:express|better-sqlite3|parseurl)/`, reachable: true },
    },
    {
      name: 'outside-every-layer',
      comment: 'every file of mock/ belongs to a layer: a new folder is placed in LAYERS first',
      severity: 'error',
      from: { path: '^mock/.+\\.(?:ts|mts)$', pathNot: `${anyOf(LAYERS.map(([layer]) => layer))}|^mock/inspector/` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(?:dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
