// e2e/built-app.test.ts: the built app in Debian's chromium, against the mock's command line, through the proxy
// of `vite preview`. Each browser context stands for a parallel worker: it joins a session of its own with the
// mock-session cookie, so what one does never shows in another's journal. The dev server's proxy is checked too.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build, createServer, preview, type PreviewServer } from 'vite';
import { launchChromium } from '../../../support/chromium.js';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connectMock } from 'membership-mock';
import type { operations } from 'membership-mock/contracts/membership';

const APP = fileURLToPath(new URL('..', import.meta.url));
const CLI = fileURLToPath(new URL('../../../../dist/mock/cli.js', import.meta.url));
/** Where the screenshot goes (reports/ is not committed; the README's copy is quick-start.png beside the app). */
const SHOT = fileURLToPath(new URL('../../../../reports/quick-start/quick-start.png', import.meta.url));

let cli: ChildProcess;
let mockUrl: string;
let out: string;
let server: PreviewServer;
let appUrl: string;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm run build first.`);
  [mockUrl] = await Promise.all([startCli(), buildApp()]);
  process.env.MOCK_URL = mockUrl; // the proxy's target in vite.config.ts
  server = await preview({
    root: APP,
    logLevel: 'warn',
    build: { outDir: out },
    preview: { host: '127.0.0.1', port: 0 },
  });
  appUrl = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  cli?.kill();
  if (out) await rm(out, { recursive: true, force: true });
});

/** The mock's command line on a free port; resolves with its URL once its banner says where it listens. */
function startCli(): Promise<string> {
  cli = spawn(process.execPath, [CLI, '--port', '0', '--seed', '1'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let text = '';
    cli.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const url = / at (http:\/\/\S+) /.exec(text)?.[1];
      if (url) resolve(url);
    });
    cli.once('exit', (code) => reject(new Error(`the mock exited with ${code}: ${text}`)));
  });
}

/** `vite build` of the app into a folder of its own. */
async function buildApp(): Promise<void> {
  out = await mkdtemp(join(tmpdir(), 'vite-app-'));
  await build({ root: APP, logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });
}

/** A browser context in its own session: the cookie set by the test, or joined through the join endpoint. */
async function openAs(session: string, how: 'cookie' | 'join'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 560, height: 300 } });
  if (how === 'cookie') await context.addCookies([{ name: 'mock-session', value: session, url: appUrl }]);
  const page = await context.newPage();
  await page.goto(how === 'cookie' ? `${appUrl}/` : `${appUrl}/__mock/sessions/${session}/join?to=/`);
  expect(page.url()).toBe(`${appUrl}/`);
  return { context, page };
}

/** What a worker's test does in the app: adds a pass named after its session, then deletes another. */
async function addAndDelete(page: Page, name: string): Promise<void> {
  const list = page.getByRole('list', { name: 'passes' });
  await expect.poll(() => list.getByRole('listitem').count()).toBeGreaterThan(0);
  const before = await list.getByRole('listitem').count();
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Add pass' }).click();
  await page.getByRole('button', { name: `Delete ${name}` }).waitFor();
  await list.getByRole('listitem').last().getByRole('button').click();
  await expect.poll(() => list.getByRole('listitem').count()).toBe(before);
}

test('two workers, each in its own session, list, add and delete passes in the built app', async () => {
  const [one, two] = await Promise.all([openAs('worker-0', 'cookie'), openAs('worker-1', 'join')]);
  await Promise.all([addAndDelete(one.page, 'Pass of worker-0'), addAndDelete(two.page, 'Pass of worker-1')]);
  await one.page.screenshot({ path: SHOT });

  for (const session of ['worker-0', 'worker-1']) {
    const mock = connectMock<operations>(mockUrl, { session });
    const created = await mock.calls({ operationId: 'createPass' });
    expect(created.map((call) => call.body)).toEqual([{ name: `Pass of ${session}` }]);
    expect(await mock.count({ operationId: 'deletePass' })).toBe(1);
  }
  // Nothing reached the default session: every call named its session with the cookie.
  expect(await connectMock(mockUrl).count()).toBe(0);
  // The join endpoint's cookie is the one a page's script cannot read.
  const [cookie] = await two.context.cookies();
  expect(cookie).toMatchObject({ name: 'mock-session', value: 'worker-1', httpOnly: true, sameSite: 'Lax' });
  await Promise.all([one.context.close(), two.context.close()]);
});

test('the dev server proxies the same paths: the API and the join link, the cookie with them', async () => {
  const dev = await createServer({
    root: APP,
    logLevel: 'warn',
    server: { host: '127.0.0.1', port: 0, hmr: false },
    optimizeDeps: { noDiscovery: true },
  });
  await dev.listen();
  try {
    const devUrl = `http://127.0.0.1:${(dev.httpServer!.address() as AddressInfo).port}`;
    const join = await fetch(`${devUrl}/__mock/sessions/dev-server/join?to=/`, { redirect: 'manual' });
    expect(join.status).toBe(303);
    const [cookie] = join.headers.getSetCookie()[0]!.split(';');
    const res = await fetch(`${devUrl}/members/mbr_1/passes`, {
      headers: { Authorization: 'Bearer dev', Cookie: cookie! },
    });
    expect(res.status).toBe(200);
    expect(await connectMock<operations>(mockUrl, { session: 'dev-server' }).count({ operationId: 'listPasses' })).toBe(
      1,
    );
  } finally {
    await dev.close();
  }
});
