// vite.config.ts: the API's paths go to the mock, in dev (`vite`) and for the built app (`vite preview`).
// msw.html answers them in the page instead, with the contract's MSW handlers (src/main.msw.tsx).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const mock = process.env.MOCK_URL ?? 'http://127.0.0.1:4010';

export default defineConfig({
  // `/__mock` too, so a page joins its session through the app's own origin (/__mock/sessions/NAME/join).
  server: { proxy: { '/members': mock, '/__mock': mock } },
  // An installed package resolves this itself; here it is the repository's build (npm run build).
  resolve: {
    alias: {
      'membership-mock/msw/browser': fileURLToPath(new URL('../../../dist/browser/msw.js', import.meta.url)),
    },
  },
});
