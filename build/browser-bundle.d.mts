// Types of browser-bundle.mjs, for the bench that builds with its configuration (test/bench/msw-bundle.ts).
import type { InlineConfig } from 'vite';

export function browserBundleConfig(options?: { write?: boolean }): InlineConfig;
