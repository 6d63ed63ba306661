import { defineConfig } from 'vitest/config';
export default defineConfig({
  test: {
    include: [
      'test/http/coverage.test.ts',
      'test/http/har-import.test.ts',
      'test/unit/report-formats.test.ts',
      'test/server/pact.test.ts',
      'test/server/front-end-client.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
