// Mutation testing: `npm run mutation` mutates the core's modules (see mock/docs/architecture.md) and runs the
// in-process tests against each mutant.
//
// Mutate a subset from the command line (the flag replaces `mutate` below; several files or globs with commas):
//   npm run mutation -- --mutate mock/respond/faults.ts
//   npm run mutation -- --mutate "mock/state/store.ts,mock/journal/**/*.ts"
// A line range of one file: --mutate "mock/respond/faults.ts:40-47".
// Quicker and less complete: --ignoreStatic skips mutants in code that runs outside a test (module constants,
// apps the HTTP tests build in beforeAll), which Stryker must run against every test.
// Reports: the score per file on the console, reports/mutation/mutation.html to browse the mutants, and
// reports/mutation/mutation.json for tools (both git-ignored).

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'mock/lib/**/*.ts',
    'mock/http/**/*.ts',
    'mock/schema/**/*.ts',
    'mock/plan/**/*.ts',
    'mock/journal/**/*.ts',
    'mock/state/**/*.ts',
    'mock/respond/**/*.ts',
  ],
  testRunner: 'vitest',
  vitest: { configFile: 'test/vitest.mutation.config.ts' },
  // Run only the tests that cover each mutant (the vitest runner records coverage per test).
  coverageAnalysis: 'perTest',
  // One test runner: the machine has 2 cores shared with other work (builds, other test runs), and one vitest
  // worker already keeps a core busy; a second would take the other core from them for little gain.
  concurrency: 1,
  reporters: ['clear-text', 'html', 'json', 'progress'],
  clearTextReporter: { reportScoreTable: true, skipFull: false, logTests: false },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  thresholds: { high: 80, low: 60, break: null },
  // Not copied into the sandbox: build output, reports, and tests the mutation config does not run.
  ignorePatterns: ['dist', 'reports', '/coverage', 'test/server', 'test/bench', 'test/scripts'],
  tempDirName: '.stryker-tmp',
};
