// @vitest-environment jsdom
// src/App.msw.test.tsx: the same component test as App.test.tsx, with the contract's MSW handlers in place of a
// mock server: no port, no process, the app's fetch answered in-process by the same engine.
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { createHandlers, type ContractHandlers } from 'membership-mock/msw';
import type { operations } from 'membership-mock/contracts/membership';
import { createApi } from './api';
import { App } from './App';

const baseUrl = 'https://membership.test';
let mock: ContractHandlers<operations>;
const server = setupServer();
beforeAll(async () => {
  mock = await createHandlers<operations>({ seed: 7, baseUrl });
  server.use(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  cleanup();
  mock.reset();
});
afterAll(() => server.close());

const renderApp = () => render(<App api={createApi({ baseUrl })} memberId="mbr_1" />);

test('lists the passes, adds one and deletes it', async () => {
  renderApp();
  const list = await screen.findByRole('list', { name: 'passes' });
  const before = within(list).getAllByRole('listitem').length;

  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Gold membership' } });
  fireEvent.click(screen.getByRole('button', { name: 'Add pass' }));
  await screen.findByRole('button', { name: 'Delete Gold membership' });
  expect(within(list).getAllByRole('listitem')).toHaveLength(before + 1);
  const [created] = mock.calls({ operationId: 'createPass' });
  expect(created?.body).toEqual({ name: 'Gold membership' });

  fireEvent.click(screen.getByRole('button', { name: 'Delete Gold membership' }));
  await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(before));
  const [deleted] = mock.calls({ operationId: 'deletePass' });
  expect(deleted?.response.status).toBe(204);
  expect(deleted?.pathParams.pass_id).toBe((created?.response.body as { id: string }).id);
});

test('says so when the list answers 500', async () => {
  mock.override({ operationId: 'listPasses', status: 500, times: 1 });
  renderApp();
  expect((await screen.findByRole('alert')).textContent).toBe('Could not load the passes (500).');
  expect(mock.calls({ operationId: 'listPasses' })[0]?.response.status).toBe(500);
});
