import { defineConfig } from 'vitest/config';

// The package as a team installs it (test/package): packed, installed into an empty project, the README's
// recipes compiled and run there. `npm test` runs it after the rest; `npm run test:package` alone.
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    testTimeout: 5 * 60_000,
    hookTimeout: 10 * 60_000,
  },
});
