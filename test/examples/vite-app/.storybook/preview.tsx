// .storybook/preview.tsx: every story's API answered by the contract's handlers, in the page, through MSW's worker
// (msw-storybook-addon, registered in main.ts, starts it). Each story starts from the seed's records, with an empty
// journal and no overrides; a story's own beforeEach runs after this one, so what it sets is kept.
import type { Preview } from '@storybook/react-vite';
import type {} from 'msw-storybook-addon/types';
import { createHandlers } from 'membership-mock/msw/browser';
import type { operations } from 'membership-mock/contracts/membership';

export const mock = await createHandlers<operations>({ contract: '/openapi.yaml', seed: 1 });
// The page's journal, for a test driving the stories (e2e/storybook.test.ts): window.mock.calls(), ...
Object.assign(window, { mock });

const preview: Preview = {
  beforeEach({ msw }) {
    mock.reset();
    msw.use(...mock.handlers);
  },
};
export default preview;
