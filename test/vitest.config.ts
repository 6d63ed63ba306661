import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The installed-package test runs on its own after these (vitest.package.config.ts): its npm install
    // would take the CPU the process tests time themselves against.
    exclude: ['test/package/**', '**/node_modules/**'],
    setupFiles: ['test/support/prism-setup.ts', 'test/support/conformance-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
