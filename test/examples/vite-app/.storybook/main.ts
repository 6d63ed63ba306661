// .storybook/main.ts: Storybook for the quick start's app, its API answered by the contract's MSW handlers
// (preview.tsx). The public folder holds MSW's worker script and the contract; e2e/storybook.test.ts gives one of
// its own (STORYBOOK_PUBLIC_DIR) and the repository's build of the handlers (STORYBOOK_MSW_BUNDLE), which an app
// that installed membership-mock does not need.
import type { StorybookConfig } from '@storybook/react-vite';

const bundle = process.env.STORYBOOK_MSW_BUNDLE;

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../src/**/*.stories.tsx'],
  // Starts MSW's worker and gives every story `msw` (its beforeEach), resetting its handlers after each story.
  addons: ['msw-storybook-addon'],
  staticDirs: [process.env.STORYBOOK_PUBLIC_DIR ?? '../public'],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  viteFinal: (vite) => ({
    ...vite,
    resolve: { ...vite.resolve, alias: bundle ? { 'membership-mock/msw/browser': bundle } : {} },
  }),
};
export default config;
