import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The example app (test/examples/vite-app) imports the package by its name, as an app that installed it does:
  // here that name is the source itself, so its tests need no build and no install.
  resolve: {
    alias: [
      { find: /^membership-mock$/, replacement: fileURLToPath(new URL('../mock/index.ts', import.meta.url)) },
      { find: /^membership-mock\/msw$/, replacement: fileURLToPath(new URL('../mock/msw.ts', import.meta.url)) },
    ],
  },
  test: {
    // The example app's component tests are .tsx (each picks the jsdom environment with a comment).
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // The installed-package test runs on its own after these (vitest.package.config.ts): its npm install
    // would take the CPU the process tests time themselves against.
    exclude: ['test/package/**', '**/node_modules/**'],
    // One temporary folder for the run, removed at its end (see own-tmpdir.ts).
    globalSetup: ['test/support/own-tmpdir.ts'],
    setupFiles: ['test/support/prism-setup.ts', 'test/support/conformance-setup.ts', 'test/support/keep-sqlite.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
