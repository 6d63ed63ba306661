// e2e/msw-worker.test.ts: the app with no server, in Debian's chromium: msw.html starts MSW's service worker with
// the contract's handlers (membership-mock/msw/browser, the bundle `npm run build` writes), and the page's own
// engine answers it. The worker script is generated here by `msw init` into a public folder of the test's own
// (with the contract beside it), so it always matches the installed msw; the docs say the same for an app.
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BUNDLE, builtBundle, mswPublicFolder } from '../../../support/browser-bundle.js';
import { launchChromium } from '../../../support/chromium.js';

const APP = fileURLToPath(new URL('..', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
/** Where the screenshot goes (reports/ is not committed; the docs' copy is msw-worker.png beside the app). */
const SHOT = join(ROOT, 'reports/msw-worker/msw-worker.png');
const AUTH = { Authorization: 'Bearer dev' };

let publicDir: string;
let server: ViteDevServer;
let appUrl: string;
let browser: Browser;

beforeAll(async () => {
  builtBundle();
  publicDir = await mswPublicFolder('msw-public-');
  server = await createServer({
    root: APP,
    publicDir,
    // An installed package resolves this itself; here it is the repository's build (npm run build).
    resolve: { alias: { 'membership-mock/msw/browser': BUNDLE } },
    logLevel: 'warn',
    server: { host: '127.0.0.1', port: 0, hmr: false },
    // Every dependency optimised before the page asks: a discovery would reload the page mid-test.
    optimizeDeps: {
      noDiscovery: true,
      include: ['msw', 'msw/browser', 'react', 'react/jsx-dev-runtime', 'react-dom/client', 'openapi-fetch'],
    },
  });
  await server.listen();
  appUrl = `http://127.0.0.1:${(server.httpServer!.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (publicDir) await rm(publicDir, { recursive: true, force: true });
});

/** The names the page lists, once it lists some. */
async function listed(page: Page): Promise<string[]> {
  const items = page.getByRole('list', { name: 'passes' }).getByRole('listitem');
  await expect.poll(() => items.count(), { timeout: 15_000 }).toBeGreaterThan(0);
  return (await items.allTextContents()).map((text) =>
    text.replace(/\s*(?:active|suspended|revoked|expired)?\s*Delete$/, ''),
  );
}

/** A fetch from the page (so through its worker), its status and JSON body. */
function fetchInPage(page: Page, path: string): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ([url, headers]) => {
      const res = await fetch(url, { headers });
      return { status: res.status, body: await res.json().catch(() => undefined) };
    },
    [path, AUTH] as const,
  );
}

/** The operations the page's handlers answered, from its journal. */
function answered(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (window as unknown as { mock: { calls(): { operationId?: string }[] } }).mock.calls().map((c) => c.operationId!),
  );
}

test('the worker answers the app from the contract: list, create, read back, delete, 422; a reload starts from the seed', async () => {
  const context = await browser.newContext({ viewport: { width: 560, height: 360 } });
  const page = await context.newPage();
  // What goes wrong in the page shows in the test's output.
  page.on('pageerror', (error) => console.error(`page: ${error.message}`));
  await page.goto(`${appUrl}/msw.html`);
  const seeded = await listed(page);

  // Create, and read it back through the worker.
  await page.getByLabel('Name').fill('Gold membership');
  await page.getByRole('button', { name: 'Add pass' }).click();
  await page.getByRole('button', { name: 'Delete Gold membership' }).waitFor();
  const list = (await fetchInPage(page, '/members/mbr_1/passes')).body as { data: { id: string; name: string }[] };
  const gold = list.data.find((pass) => pass.name === 'Gold membership')!;
  expect(await fetchInPage(page, `/members/mbr_1/passes/${gold.id}`)).toMatchObject({
    status: 200,
    body: { id: gold.id, name: 'Gold membership', member_id: 'mbr_1' },
  });
  await mkdirAndShoot(page);

  // Delete it: gone from the list and from the API.
  await page.getByRole('button', { name: 'Delete Gold membership' }).click();
  await expect.poll(() => page.getByRole('button', { name: 'Delete Gold membership' }).count()).toBe(0);
  expect((await fetchInPage(page, `/members/mbr_1/passes/${gold.id}`)).status).toBe(404);

  // A bad body (an empty name: the contract's minLength is 1) is refused with the contract's 422.
  await page.getByRole('button', { name: 'Add pass' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toBe('Could not add the pass (422).');
  expect(await answered(page)).toEqual([
    'listPasses',
    'createPass',
    'listPasses',
    'getPass',
    'deletePass',
    'getPass',
    'createPass',
  ]);

  // State is the page's memory: after a deletion and a reload, the seed's passes again, the journal new.
  await page
    .getByRole('button', { name: `Delete ${seeded[0]}` })
    .first()
    .click();
  await expect.poll(async () => (await listed(page)).length).toBe(seeded.length - 1);
  await page.reload();
  expect(await listed(page)).toEqual(seeded);
  expect(await answered(page)).toEqual(['listPasses']);
  await context.close();
}, 60_000);

async function mkdirAndShoot(page: Page): Promise<void> {
  mkdirSync(dirname(SHOT), { recursive: true });
  await page.screenshot({ path: SHOT });
}
