// The contract's MSW handlers answer what the server answers where a request is odd (a malformed path, a base
// URL with a path, a raw body), and leave to the next handler what is not the contract's. Each test sets up
// handlers of its own, in an MSW server of its own (one at a time patches fetch).
import { http, HttpResponse, type HttpHandler } from 'msw';
import { setupServer } from 'msw/node';
import request from 'supertest';
import { expect, test } from 'vitest';
import { createApp, DEFAULT_CONTRACT, loadContract } from '../../mock/index.js';
import { createHandlers } from '../../mock/msw.js';

const API = 'https://membership.test';
const AUTH = { Authorization: 'Bearer t' };

/** Runs `check` with `handlers` answering fetch, and anything they leave unanswered an error. */
async function withHandlers(handlers: HttpHandler[], check: () => Promise<void>): Promise<void> {
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    await check();
  } finally {
    server.close();
  }
}

test('a path with a malformed percent-encoding is refused 400, as the server refuses it', async () => {
  const app = createApp(await loadContract(DEFAULT_CONTRACT), { seed: 7 });
  const served = await request(app.app).get('/members/m%E0/passes').set(AUTH);
  const mock = await createHandlers({ seed: 7, baseUrl: API });
  await withHandlers(mock.handlers, async () => {
    const res = await fetch(`${API}/members/m%E0/passes`, { headers: AUTH });
    expect([res.status, await res.json()]).toEqual([served.status, served.body]);
  });
});

test('a malformed percent-encoding on another origin goes on to the next handler', async () => {
  const mock = await createHandlers({ seed: 7, baseUrl: API });
  const next = http.get(/^https:\/\/other\.test\//, () => HttpResponse.text('next'));
  await withHandlers([...mock.handlers, next], async () => {
    const res = await fetch('https://other.test/files/a%E0');
    expect([res.status, await res.text()]).toEqual([200, 'next']);
  });
});
