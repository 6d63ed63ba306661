// The browser entry's contract by URL (mock/browser/fetch-contract.ts): JSON or YAML, refused clearly when it
// cannot be fetched, is too large, or is neither. The answers come from MSW here, as a page's fetch would get them.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { fetchContract } from '../../mock/browser/fetch-contract.js';
import { createHandlers } from '../../mock/msw-browser.js';

const SITE = 'https://app.test';
const server = setupServer(
  http.get(`${SITE}/openapi.json`, () => HttpResponse.json({ openapi: '3.0.3', info: { title: 'j' } })),
  http.get(`${SITE}/openapi.yaml`, () => HttpResponse.text('openapi: 3.1.0\ninfo:\n  title: y\n')),
  http.get(`${SITE}/not-openapi.json`, () => HttpResponse.json({ hello: 'world' })),
  http.get(`${SITE}/broken.yaml`, () => HttpResponse.text('openapi: [3.1.0\n')),
  http.get(`${SITE}/missing.yaml`, () => new HttpResponse(null, { status: 404, statusText: 'Not Found' })),
  // A dev server's answer to a file it does not have: the app's page, 200.
  http.get(`${SITE}/fallback.yaml`, () => HttpResponse.html('<!doctype html><div id="root"></div>')),
  // A body of 64 KiB in four chunks, its length not said.
  http.get(`${SITE}/streamed.yaml`, () => new HttpResponse(stream(4, 16 * 1024))),
  // A body four times longer than its Content-Length says.
  http.get(`${SITE}/lying.yaml`, () => new HttpResponse(stream(4, 16), { headers: { 'Content-Length': '16' } })),
);

/** A YAML document (`a: 1`, then comments) in `chunks` chunks of `size` bytes each. */
function stream(chunks: number, size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent === chunks) return controller.close();
      const line = sent++ === 0 ? `a: 1\n#${'x'.repeat(size - 7)}\n` : `#${'x'.repeat(size - 2)}\n`;
      controller.enqueue(new TextEncoder().encode(line));
    },
  });
}
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

test('a contract past the limit is refused as it streams in, whatever length it says or does not say', async () => {
  await expect(fetchContract(`${SITE}/streamed.yaml`, 40_000)).rejects.toThrow(
    `Cannot read the contract ${SITE}/streamed.yaml: it is larger than 40000 bytes`,
  );
  await expect(fetchContract(`${SITE}/lying.yaml`, 40)).rejects.toThrow(
    `Cannot read the contract ${SITE}/lying.yaml: it is larger than 40 bytes`,
  );
  // Within the limit, the same stream is read whole.
  expect(await fetchContract(`${SITE}/streamed.yaml`, 70_000)).toEqual({ a: 1 });
});

test("a dev server's page in the contract's place is refused as an HTML page, not parsed", async () => {
  await expect(fetchContract(`${SITE}/fallback.yaml`)).rejects.toThrow(
    `Cannot read the contract ${SITE}/fallback.yaml: the server answered an HTML page: is the file in the folder it serves (public/)?`,
  );
});

test('a contract that is neither JSON nor YAML is refused as such', async () => {
  await expect(fetchContract(`${SITE}/broken.yaml`)).rejects.toMatchObject({
    name: 'ContractError',
    message: expect.stringMatching(/is not valid YAML or JSON/),
  });
});

test('createHandlers names the URL of a contract that is not an OpenAPI document', async () => {
  await expect(createHandlers({ contract: `${SITE}/not-openapi.json` })).rejects.toThrow(
    `The contract ${SITE}/not-openapi.json`,
  );
});
