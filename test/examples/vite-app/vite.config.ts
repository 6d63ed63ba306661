// vite.config.ts: the API's paths go to the mock, in dev (`vite`) and for the built app (`vite preview`).
import { defineConfig } from 'vite';

const mock = process.env.MOCK_URL ?? 'http://127.0.0.1:4010';

export default defineConfig({
  // `/__mock` too, so a page joins its session through the app's own origin (/__mock/sessions/NAME/join).
  server: { proxy: { '/members': mock, '/__mock': mock } },
});
