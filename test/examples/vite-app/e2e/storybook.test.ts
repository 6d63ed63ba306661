// e2e/storybook.test.ts: the Storybook recipe of mock/docs/msw.md, run: `storybook dev` on the quick start's app
// (.storybook/, src/Passes.stories.tsx) with msw-storybook-addon and the contract's handlers, in Debian's chromium.
// The public folder (MSW's worker script, the contract) is the test's own, as in msw-worker.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BUNDLE, builtBundle, mswPublicFolder } from '../../../support/browser-bundle.js';
import { launchChromium } from '../../../support/chromium.js';
import { freePort } from '../../../support/free-port.js';

const APP = fileURLToPath(new URL('..', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

let publicDir: string;
let storybook: ChildProcess;
let output = '';
let url: string;
let browser: Browser;

beforeAll(async () => {
  builtBundle();
  publicDir = await mswPublicFolder('storybook-public-');
  const port = await freePort();
  const bin = join(ROOT, 'node_modules/storybook/dist/bin/dispatcher.js');
  const args = ['dev', '-p', String(port), '--host', '127.0.0.1', '--ci', '--no-open'];
  storybook = spawn(process.execPath, [bin, ...args, '--config-dir', join(APP, '.storybook')], {
    cwd: APP,
    env: { ...process.env, STORYBOOK_PUBLIC_DIR: publicDir, STORYBOOK_MSW_BUNDLE: BUNDLE, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    const hear = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Storybook ready')) resolve();
    };
    storybook.stdout!.on('data', hear);
    storybook.stderr!.on('data', hear);
    storybook.once('exit', (code) => reject(new Error(`storybook dev exited (${code}):\n${output}`)));
  });
  await ready;
  url = `http://127.0.0.1:${port}`;
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  if (storybook && storybook.exitCode === null) {
    const exited = new Promise((resolve) => storybook.once('exit', resolve));
    storybook.kill();
    await exited;
  }
  if (publicDir) await rm(publicDir, { recursive: true, force: true });
});

/** The names the story lists now (none while it loads: undefined). */
async function listed(frame: FrameLocator): Promise<string[] | undefined> {
  const list = frame.getByRole('list', { name: 'passes' });
  if ((await list.count()) === 0) return undefined;
  return (await list.getByRole('listitem').allTextContents()).map((text) =>
    text.replace(/\s*(?:active|suspended|revoked|expired)?\s*Delete$/, ''),
  );
}

const SLOW = { timeout: 60_000 };

/** Opens Storybook (its manager) on a story; the story renders in the preview's iframe. */
async function open(story: string): Promise<{ page: Page; frame: FrameLocator }> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error(`page: ${error.message}`));
  await page.goto(`${url}/?path=/story/${story}`);
  return { page, frame: page.frameLocator('#storybook-preview-iframe') };
}

/** Picks a story in the sidebar: the preview stays the same page, so only the stories' hooks set its state. */
async function pick(page: Page, story: string): Promise<void> {
  await page.locator(`#${story}`).click();
}

test('each story sets its own state through the mock, and the next story starts from the seed again', async () => {
  const { page, frame } = await open('passes--empty');
  await expect.poll(() => listed(frame), SLOW).toEqual([]);

  // The preview's beforeEach reset the mock: the state the Empty story set is gone.
  await pick(page, 'passes--default');
  await expect.poll(async () => (await listed(frame))?.length ?? 0, SLOW).toBeGreaterThan(0);
  const seeded = (await listed(frame))!;

  // An override used once: the list fails with the contract's 500.
  await pick(page, 'passes--server-error');
  await expect.poll(() => frame.getByRole('alert').textContent(), SLOW).toBe('Could not load the passes (500).');

  // Back to the default: the seed's passes, no override left.
  await pick(page, 'passes--default');
  await expect.poll(() => listed(frame), SLOW).toEqual(seeded);
  await page.close();
}, 120_000);

test("a story's hand-written handler answers before the contract's: the list never answers", async () => {
  const { page, frame } = await open('passes--loading');
  await frame.getByText('Loading…').waitFor({ timeout: 60_000 });
  // The contract's handlers saw no list: the story's handler took it.
  const preview = page.frame({ name: 'storybook-preview-iframe' })!;
  await expect
    .poll(() => preview.evaluate(() => (window as unknown as { mock?: object }).mock !== undefined))
    .toBe(true);
  const calls = await preview.evaluate(() =>
    (window as unknown as { mock: { calls(): { operationId?: string }[] } }).mock.calls().map((c) => c.operationId),
  );
  expect(calls).toEqual([]);
  await page.close();
}, 120_000);
