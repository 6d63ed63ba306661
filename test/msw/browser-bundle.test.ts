// The browser bundle `npm run build` writes (dist/browser/msw.js, `membership-mock/msw/browser`), loaded as it is
// shipped: it carries its own copy of the engine and of Prism's modules, installed by static imports. Here it runs
// under msw/node (the browser test, test/examples/vite-app/e2e/msw-worker.test.ts, runs it in chromium): Prism's
// ajv instances inside it match patterns in linear time, a Postman collection is refused clearly.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setupServer } from 'msw/node';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type * as BrowserEntry from '../../mock/msw-browser.js';
import { BUNDLE, builtBundle } from '../support/browser-bundle.js';

const MEMBERSHIP = fileURLToPath(new URL('../../contracts/membership.openapi.yaml', import.meta.url));
const API = 'https://bundle.test';
const AUTH = { Authorization: 'Bearer t' };
/** 2^5000 steps for a backtracking engine: a test that finishes ran on another. */
const HOSTILE = `${'a'.repeat(5000)}!`;
const PATTERN = String.raw`^(\w+\s?)*$`;

let bundle: typeof BrowserEntry;
const server = setupServer();

beforeAll(async () => {
  bundle = (await import(builtBundle())) as typeof BrowserEntry;
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => server.resetHandlers());
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

const OK = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };

/**
 * Runs `action` with Node's global `Buffer` missing for the bundle's own code, as in a browser: a property of it
 * read by a function of dist/browser/msw.js throws (Node's fetch and msw, which use it themselves, still have it).
 */
async function withoutBuffer<T>(action: () => Promise<T>): Promise<T> {
  const real = globalThis.Buffer;
  globalThis.Buffer = new Proxy(real, {
    get(target, key, receiver) {
      const caller = new Error().stack!.split('\n')[2] ?? '';
      if (caller.includes(BUNDLE))
        throw new ReferenceError(`Buffer is not defined (the bundle read Buffer.${String(key)})`);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  try {
    return await action();
  } finally {
    globalThis.Buffer = real;
  }
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
    const warnings = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const mock = await bundle.createHandlers({ contract, baseUrl: API });
    // The warning says what this guard does (Node's says a time limit).
    expect(warnings.mock.calls.flat().join('\n')).toMatch(/tries it only on values of at most 16 characters/);
    warnings.mockRestore();
    server.use(...mock.handlers);
    const send = (name: string) =>
      fetch(`${API}/things`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name }),
      });
    expect((await send('aaaa')).status).toBe(201);
    expect((await send('a'.repeat(20))).status).toBe(422);
  });

  test("needs no Buffer of Node's: Prism's Basic-auth check and its multipart reader get the bundle's own", async () => {
    const contract = {
      openapi: '3.0.3',
      info: { title: 'no Buffer', version: '1' },
      components: { securitySchemes: { basic: { type: 'http', scheme: 'basic' } } },
      paths: {
        '/secure': { get: { operationId: 'secure', security: [{ basic: [] }], responses: OK } },
        '/upload': {
          post: {
            operationId: 'upload',
            requestBody: {
              required: true,
              content: {
                'multipart/form-data': { schema: { type: 'object', properties: { name: { type: 'string' } } } },
              },
            },
            responses: OK,
          },
        },
      },
    };
    const mock = await bundle.createHandlers({ contract, baseUrl: API });
    server.use(...mock.handlers);
    const form = new FormData();
    form.set('name', 'gold');
    const statuses = await withoutBuffer(async () => [
      (await fetch(`${API}/secure`, { headers: { Authorization: `Basic ${btoa('user:secret')}` } })).status,
      (await fetch(`${API}/upload`, { method: 'POST', body: form })).status,
    ]);
    expect(statuses).toEqual([200, 200]);
    expect(mock.calls().map((call) => call.response?.status)).toEqual([200, 200]);
  });

  test('refuses a Postman collection with a clear error', async () => {
    const collection = {
      info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/' },
      item: [],
    };
    await expect(bundle.createHandlers({ contract: collection })).rejects.toThrow(/Postman collection cannot be read/);
  });
});
