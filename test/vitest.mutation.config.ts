// The vitest config for mutation runs (stryker.config.mjs): only the fast in-process tests.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // test/server spawns processes and listens on real sockets: too slow to run once per mutant.
    include: ['test/unit/**/*.test.ts', 'test/http/**/*.test.ts'],
    // No conformance-setup.ts: Stryker only counts failed tests, never a failed afterAll, so the check cannot
    // kill a mutant; and the journal reads it makes outside any test count as static coverage, which makes
    // Stryker run every test against each journal mutant. `npm test` still runs the check.
    setupFiles: [],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
