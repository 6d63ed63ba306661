// The browser entry's contract by URL (mock/browser/fetch-contract.ts): JSON or YAML, refused clearly when it
// cannot be fetched, is too large, or is neither. The answers come from MSW here, as a page's fetch would get them.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { fetchContract } from '../../mock/browser/fetch-contract.js';

const SITE = 'https://app.test';
const server = setupServer(
  http.get(`${SITE}/openapi.json`, () => HttpResponse.json({ openapi: '3.0.3', info: { title: 'j' } })),
  http.get(`${SITE}/openapi.yaml`, () => HttpResponse.text('openapi: 3.1.0\ninfo:\n  title: y\n')),
  http.get(`${SITE}/broken.yaml`, () => HttpResponse.text('openapi: [3.1.0\n')),
  http.get(`${SITE}/missing.yaml`, () => new HttpResponse(null, { status: 404, statusText: 'Not Found' })),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

test('reads a JSON contract and a YAML one', async () => {
  expect(await fetchContract(`${SITE}/openapi.json`)).toEqual({ openapi: '3.0.3', info: { title: 'j' } });
  expect(await fetchContract(new URL('/openapi.yaml', SITE))).toEqual({ openapi: '3.1.0', info: { title: 'y' } });
});

test('a contract that is not there is refused, naming its status', async () => {
  await expect(fetchContract(`${SITE}/missing.yaml`)).rejects.toThrow(
    `Cannot read the contract ${SITE}/missing.yaml: HTTP 404 Not Found`,
  );
});

test('a contract past the limit is refused before it is parsed', async () => {
  await expect(fetchContract(`${SITE}/openapi.yaml`, 10)).rejects.toThrow(
    `Cannot read the contract ${SITE}/openapi.yaml: it is larger than 10 bytes`,
  );
});

test('a contract that is neither JSON nor YAML is refused as such', async () => {
  await expect(fetchContract(`${SITE}/broken.yaml`)).rejects.toMatchObject({
    name: 'ContractError',
    message: expect.stringMatching(/is not valid YAML or JSON/),
  });
});
