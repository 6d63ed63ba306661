// The MSW handlers run the same engine as the server: a PATCH through them changes the record a later read
// shows, with the content type the app's fetch sent (a merge patch's null removes a field).
import { fileURLToPath } from 'node:url';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createHandlers, type ContractHandlers } from '../../mock/msw.js';

const API = 'https://notes.test';
const NOTES = fileURLToPath(new URL('../fixtures/notes.openapi.yaml', import.meta.url));

let mock: ContractHandlers;
const server = setupServer();

beforeAll(async () => {
  mock = await createHandlers({ contract: NOTES, seed: 3, baseUrl: API });
  server.use(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => server.close());

test('a PATCH changes the stored note: the read after shows it', async () => {
  const made = await fetch(`${API}/boards/b1/notes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Groceries', text: 'milk' }),
  });
  expect(made.status).toBe(201);
  const note = (await made.json()) as { id: string };
  const patched = await fetch(`${API}/boards/b1/notes/${note.id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({ title: 'Chores', text: null }),
  });
  expect(patched.status).toBe(200);
  const read = (await (await fetch(`${API}/boards/b1/notes/${note.id}`)).json()) as Record<string, unknown>;
  expect(read).toMatchObject({ id: note.id, title: 'Chores' });
  expect(read).not.toHaveProperty('text');
});

test('a lower-case patch is no PATCH (methods are case-sensitive): 405, with Allow naming PATCH', async () => {
  const res = await fetch(`${API}/boards/b1/notes/n1`, {
    method: 'patch',
    headers: { 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({ title: 'Chores' }),
  });
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toContain('PATCH');
});
