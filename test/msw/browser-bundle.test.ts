// The browser bundle `npm run build` writes (dist/browser/msw.js, `membership-mock/msw/browser`), loaded as it is
// shipped: it carries its own copy of the engine and of Prism's modules, installed by static imports. Here it runs
// under msw/node (the browser test, test/examples/vite-app/e2e/msw-worker.test.ts, runs it in chromium): Prism's
// ajv instances inside it match patterns in linear time, a Postman collection is refused clearly.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setupServer } from 'msw/node';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type * as BrowserEntry from '../../mock/msw-browser.js';

const BUNDLE = fileURLToPath(new URL('../../dist/browser/msw.js', import.meta.url));
const MEMBERSHIP = fileURLToPath(new URL('../../contracts/membership.openapi.yaml', import.meta.url));
const API = 'https://bundle.test';
const AUTH = { Authorization: 'Bearer t' };
/** 2^5000 steps for a backtracking engine: a test that finishes ran on another. */
const HOSTILE = `${'a'.repeat(5000)}!`;
const PATTERN = String.raw`^(\w+\s?)*$`;

let bundle: typeof BrowserEntry;
const server = setupServer();

beforeAll(async () => {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: npm run build first.`);
  bundle = (await import(BUNDLE)) as typeof BrowserEntry;
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => server.close());

/** A contract of one operation taking `name` in its query and its JSON body, both with a hostile pattern. */
function patterned(openapi: '3.0.3' | '3.1.0'): object {
  const name = { type: 'string', pattern: PATTERN };
  return {
    openapi,
    info: { title: 'patterns', version: '1' },
    paths: {
      '/things': {
        post: {
          operationId: 'createThing',
          parameters: [{ name: 'tag', in: 'query', schema: name }],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', properties: { name } } } },
          },
          responses: {
            '201': { description: 'made', content: { 'application/json': { schema: { type: 'object' } } } },
          },
        },
      },
    },
  };
}

describe('the browser bundle', () => {
  test('answers the membership contract given as a parsed document', async () => {
    const mock = await bundle.createHandlers({
      contract: parse(readFileSync(MEMBERSHIP, 'utf8')) as object,
      seed: 7,
      baseUrl: API,
    });
    server.use(...mock.handlers);
    const res = await fetch(`${API}/members/m1/passes`, { headers: AUTH });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    expect(mock.calls({ operationId: 'listPasses' })).toHaveLength(1);
    server.resetHandlers();
  });

  test.each(['3.0.3', '3.1.0'] as const)(
    "matches patterns in linear time in Prism's own checks (OpenAPI %s): a body and a query",
    async (openapi) => {
      const mock = await bundle.createHandlers({ contract: patterned(openapi), baseUrl: API });
      server.use(...mock.handlers);
      const send = (tag: string, name: string) =>
        fetch(`${API}/things?tag=${tag}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name }),
        });
      expect((await send('fine', HOSTILE)).status).toBe(422);
      expect((await send(HOSTILE, 'fine')).status).toBe(422);
      expect((await send('fine', 'two words')).status).toBe(201);
      server.resetHandlers();
    },
  );

  test("runs every pattern through the mock's engine, even one RE2 cannot run (a back-reference)", async () => {
    // Where no time guard is installed (a browser), such a pattern is tried on values of at most 16 characters:
    // a longer one is refused even when a plain RegExp would match it. Prism's own ajv would let it through.
    const contract = patterned('3.0.3');
    const body = (contract as { paths: Record<string, { post: { requestBody: object } }> }).paths['/things']!.post;
    body.requestBody = {
      content: { 'application/json': { schema: { properties: { name: { type: 'string', pattern: '^(a+)\\1$' } } } } },
    };
    const mock = await bundle.createHandlers({ contract, baseUrl: API });
    server.use(...mock.handlers);
    const send = (name: string) =>
      fetch(`${API}/things`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name }),
      });
    expect((await send('aaaa')).status).toBe(201);
    expect((await send('a'.repeat(20))).status).toBe(422);
    server.resetHandlers();
  });

  test('refuses a Postman collection with a clear error', async () => {
    const collection = {
      info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/' },
      item: [],
    };
    await expect(bundle.createHandlers({ contract: collection })).rejects.toThrow(/Postman collection cannot be read/);
  });
});
