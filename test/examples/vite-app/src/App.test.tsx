// @vitest-environment jsdom
// src/App.test.tsx: the component against a mock of its own, in a session of its own.
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { startMock, type RunningMock } from 'membership-mock';
import type { operations } from 'membership-mock/contracts/membership';
import { createApi } from './api';
import { App } from './App';

const session = 'passes-component';
let mock: RunningMock<operations>;
beforeAll(async () => {
  mock = await startMock<operations>({ seed: 7 });
});
afterEach(() => {
  cleanup();
  mock.reset();
});
afterAll(() => mock.close());

/** The app, calling the mock in this test's session (the header a test's own client can send). */
const renderApp = () =>
  render(<App api={createApi({ baseUrl: mock.url, headers: { 'X-Mock-Session': session } })} memberId="mbr_1" />);

test('lists the passes, adds one and deletes it', async () => {
  renderApp();
  const list = await screen.findByRole('list', { name: 'passes' });
  const before = within(list).getAllByRole('listitem').length;

  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Gold membership' } });
  fireEvent.click(screen.getByRole('button', { name: 'Add pass' }));
  await screen.findByRole('button', { name: 'Delete Gold membership' });
  expect(within(list).getAllByRole('listitem')).toHaveLength(before + 1);
  const [created] = mock.calls({ operationId: 'createPass' }, session);
  expect(created?.body).toEqual({ name: 'Gold membership' });

  fireEvent.click(screen.getByRole('button', { name: 'Delete Gold membership' }));
  await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(before));
  const [deleted] = mock.calls({ operationId: 'deletePass' }, session);
  expect(deleted?.response.status).toBe(204);
  expect(deleted?.pathParams.pass_id).toBe((created?.response.body as { id: string }).id);
});

test('says so when the list answers 500', async () => {
  mock.override({ operationId: 'listPasses', status: 500, times: 1 }, session);
  renderApp();
  expect((await screen.findByRole('alert')).textContent).toBe('Could not load the passes (500).');
  expect(mock.calls({ operationId: 'listPasses' }, session)[0]?.response.status).toBe(500);
});
