// src/Passes.stories.tsx: the app's states, each set through the mock's test API in the story's beforeEach (it runs
// after the preview's, which resets the mock; loaders run before both, so what they set would be reset).
import type { Meta, StoryObj } from '@storybook/react-vite';
import { http } from 'msw';
import { mock } from '../.storybook/preview';
import { createApi } from './api';
import { App } from './App';

const meta = {
  title: 'Passes',
  component: App,
  args: { api: createApi(), memberId: 'mbr_1' },
} satisfies Meta<typeof App>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The seed's passes. */
export const Default: Story = {};

/** A member with no passes yet. */
export const Empty: Story = {
  beforeEach() {
    mock.setState({ '/members/mbr_1/passes': [] });
  },
};

/** The list fails once with the contract's 500. */
export const ServerError: Story = {
  beforeEach() {
    mock.override({ operationId: 'listPasses', status: 500, times: 1 });
  },
};

/** A hand-written handler before the contract's: the list never answers. */
export const Loading: Story = {
  beforeEach({ msw }) {
    msw.use(http.get('*/members/:member_id/passes', () => new Promise<never>(() => {})));
  },
};
