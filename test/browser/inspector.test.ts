// The call inspector in a real browser: Debian's chromium driven by playwright-core, which never downloads one.
// Each test opens the page on a session of its own, so what one sends never shows in another.
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { RunningMock } from '../../mock/index.js';
import { AUTH, newServer } from '../support/harness.js';
import { DEFAULT_CONTRACT, startMock } from '../../mock/index.js';

// The page's globals, for the functions that run in it (the project compiles without the DOM library).
declare const document: {
  querySelectorAll(selectors: string): { length: number };
  activeElement: unknown;
  documentElement: { scrollWidth: number };
  createRange(): { selectNodeContents(node: unknown): void; getClientRects(): ArrayLike<{ top: number }> };
};
/** What the layout checks read of an element. */
interface Box {
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  className: string;
  parentElement: Box | null;
}
declare const window: { innerWidth: number };
declare const sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const TOKEN = 'inspector-admin-token';
/** Where the screenshots go: test artifacts (reports/ is not committed). */
const SHOTS = 'reports/inspector';

let browser: Browser;
let mock: RunningMock;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser test drives ${CHROMIUM}, which is not installed: apt-get install -y chromium.`);
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  mock = await newServer({ admin: { token: TOKEN } });
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await mock?.close();
});

interface Open {
  session: string;
  width?: number;
  colorScheme?: 'light' | 'dark';
  /** The token the tab already holds; `null`: none, the page asks for it. */
  token?: string | null;
  path?: string;
}

/** A fresh tab on the inspector, looking at `session`; resolves once the page follows the calls live. */
async function openInspector({
  session,
  width = 1280,
  colorScheme = 'light',
  token = TOKEN,
  path = '/__mock/',
}: Open): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 720 }, colorScheme });
  contexts.push(context);
  // Under the test's own timeout, so a step that waits in vain is named in the failure.
  context.setDefaultTimeout(10_000);
  // What the login field and the session picker would have stored in this tab.
  await context.addInitScript(
    ([token, session]) => {
      if (token) sessionStorage.setItem('membership-mock.admin-token', token);
      sessionStorage.setItem('membership-mock.session', session!);
    },
    [token, session],
  );
  const page = await context.newPage();
  await page.goto(mock.url + path);
  if (token !== null) await page.locator('#live[data-state="live"]').waitFor();
  return page;
}

/** A request of the app under test, in `session`. */
function send(session: string, method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { ...AUTH, 'X-Mock-Session': session };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return fetch(mock.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** HAR 1.2 as the har-schema package writes it (JSON Schema draft-06). */
function harValidator() {
  const require = createRequire(import.meta.url);
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  for (const schema of Object.values(require('har-schema') as Record<string, object>)) ajv.addSchema(schema);
  return ajv.getSchema('har.json#')!;
}

const rows = (page: Page) => page.locator('#call-rows tr');

/** Waits until the call list shows `count` rows (as the page draws them; no sleep). */
async function rowCount(page: Page, count: number): Promise<void> {
  await page.waitForFunction((n) => document.querySelectorAll('#call-rows tr').length === n, count);
}

/** Waits until `locator` has this text (a RegExp, or exactly this string). */
async function hasText(locator: Locator, text: string | RegExp): Promise<void> {
  const wanted = typeof text === 'string' ? new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : text;
  await locator.filter({ hasText: wanted }).waitFor();
}

describe('the call inspector in chromium', () => {
  test("with several APIs, each call names its API and the text filter finds one API's calls", async () => {
    const apis = await startMock({
      contracts: [
        { name: 'membership', contract: DEFAULT_CONTRACT },
        { name: 'gadgets', contract: 'test/fixtures/gadgets.openapi.yaml', mount: '/gadgets' },
      ],
    });
    try {
      await fetch(`${apis.url}/members/m1/passes`, { headers: AUTH });
      await fetch(`${apis.url}/gadgets/gadgets`);
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      contexts.push(context);
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      await page.goto(`${apis.url}/__mock/`);
      await rowCount(page, 2);
      await expect(page.locator('#call-rows .operation').allTextContents()).resolves.toEqual([
        'gadgets · listGadgets',
        'membership · listPasses',
      ]);
      await page.locator('#filter-text').fill('gadgets');
      await rowCount(page, 1);
    } finally {
      await apis.close();
    }
  });

  test('loads under its strict Content-Security-Policy with nothing refused and no script error', async () => {
    const problems: string[] = [];
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && !/401/.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const response = await page.goto(`${mock.url}/__mock/`);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.locator('#live[data-state="unauthorized"]').waitFor();
    expect(problems).toEqual([]);
  });

  test('asks for the admin token at the banner’s URL, and follows the calls once it is given', async () => {
    const page = await openInspector({ session: 'login', token: null, path: '/__mock' });
    await page.locator('#live[data-state="unauthorized"]').waitFor();
    await hasText(page.locator('#login-message'), /needs the admin token/);
    await page.getByLabel('Admin token').fill(TOKEN);
    await page.getByLabel('Admin token').press('Enter');
    await page.locator('#live[data-state="live"]').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('membership-mock.admin-token'))).toBe(TOKEN);
    expect(await page.locator('#login-message').isHidden()).toBe(true);
  });

  test('shows the calls already made, then each new one as it arrives, without a reload', async () => {
    await send('live', 'GET', '/members/m1/passes');
    const page = await openInspector({ session: 'live' });
    await rowCount(page, 1);
    await send('live', 'GET', '/members/m2/credentials');
    await send('live', 'GET', '/members/m1/passes/pas_404');
    await rowCount(page, 3);
    const newest = rows(page).first();
    await expect(newest.locator('.path').textContent()).resolves.toBe('/members/m1/passes/pas_404');
    await expect(newest.locator('.operation').textContent()).resolves.toBe('getPass');
    await expect(newest.locator('.status').textContent()).resolves.toBe('404');
    await expect(newest.locator('.session').textContent()).resolves.toBe('live');
    // A call of another session does not show; the next one of this session does, after it.
    await send('other', 'GET', '/members/m1/passes');
    await send('live', 'GET', '/members/m3/passes');
    await rowCount(page, 4);
    await expect(page.locator('#call-rows .session').allTextContents()).resolves.toEqual([
      'live',
      'live',
      'live',
      'live',
    ]);
  });

  test('switches to a session the mock has, offered in the session field', async () => {
    await send('picked', 'GET', '/members/m1/passes');
    const page = await openInspector({ session: '' });
    await page.locator('#session-names option[value="picked"]').waitFor({ state: 'attached' });
    await page.getByLabel('Session').fill('picked');
    await page.getByRole('button', { name: 'Switch' }).click();
    await rowCount(page, 1);
    await hasText(rows(page).first().locator('.session'), 'picked');
    expect(await page.evaluate(() => sessionStorage.getItem('membership-mock.session'))).toBe('picked');
  });

  test('filters the calls by operation, status class and text', async () => {
    await send('filters', 'GET', '/members/m1/passes');
    await send('filters', 'GET', '/members/m1/passes/pas_none');
    await send('filters', 'POST', '/members/m9/credentials', { kind: 'pin', label: 'Desk' });
    const page = await openInspector({ session: 'filters' });
    await rowCount(page, 3);
    await page.locator('#filter-operation').selectOption('listPasses');
    await rowCount(page, 1);
    await page.locator('#filter-operation').selectOption('');
    await page.locator('#filter-status').selectOption('4xx');
    await rowCount(page, 1);
    await page.locator('#filter-status').selectOption('');
    await page.locator('#filter-text').fill('m9');
    await rowCount(page, 1);
    await hasText(page.locator('#calls-count'), '1 of 3');
  });

  test('opens a call with Enter: request and response side by side, the violation marked at its pointer', async () => {
    await send('violation', 'POST', '/members/m1/passes', { name: 42 });
    const page = await openInspector({ session: 'violation' });
    const open = rows(page)
      .first()
      .getByRole('button', { name: /Open POST \/members\/m1\/passes/ });
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await expect(dialog.getByRole('heading', { name: 'Request', exact: true }).isVisible()).resolves.toBe(true);
    await expect(dialog.getByRole('heading', { name: 'Response 422' }).isVisible()).resolves.toBe(true);
    const marked = dialog.locator('.side').first().locator('.violation[data-pointer="/name"]');
    await expect(marked.textContent()).resolves.toBe('42');
    await expect(marked.getAttribute('title')).resolves.toBe('must be string');
    await expect(dialog.locator('.violations').textContent()).resolves.toContain('body /name must be string');
    await expect(dialog.locator('pre.curl').textContent()).resolves.toContain(`--data-raw '{"name":42}'`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await open.evaluate((button) => button === document.activeElement)).toBe(true);
  });

  test('sets an override from the page, and the next call answers with it', async () => {
    const page = await openInspector({ session: 'override' });
    await page.locator('#override-operation').selectOption('getPass');
    await page.locator('#override-status').fill('404');
    await page.locator('#override-times').fill('1');
    await page.getByRole('button', { name: 'Set override' }).click();
    await hasText(page.locator('#override-message'), /set: getPass answers 404 for the next 1 call\./);
    await page.locator('#overrides li').waitFor();
    const overridden = await send('override', 'GET', '/members/m1/passes/pas_1');
    expect(overridden.status).toBe(404);
    await hasText(rows(page).first().locator('.status'), '404');
    // Used once, it is gone from the list.
    await page.locator('#overrides li').waitFor({ state: 'detached' });
  });

  test('shows the contract’s refusal of an override inline', async () => {
    const page = await openInspector({ session: 'refused' });
    await page.locator('#override-operation').selectOption('getPass');
    await page.locator('#override-status').fill('418');
    await page.getByRole('button', { name: 'Set override' }).click();
    const message = page.locator('#override-message .problem');
    await message.waitFor();
    await expect(message.textContent()).resolves.toMatch(/^422 .*418/);
    expect(await page.locator('#overrides li').count()).toBe(0);
  });

  test('turns faults on and off, resets the session, and shows a collection as a table', async () => {
    const page = await openInspector({ session: 'controls' });
    await page.locator('#fault-failure').fill('1');
    await page.getByRole('button', { name: 'Faults on' }).click();
    await hasText(page.locator('#faults-now'), /On: 100% failures/);
    const failed = await send('controls', 'GET', '/members/m1/passes');
    await page.getByRole('button', { name: 'Faults off' }).click();
    await hasText(page.locator('#faults-now'), /^Off/);
    expect(failed.status).toBe(500);
    await hasText(rows(page).first().locator('.status'), '500 (injected)');

    const created = await send('controls', 'POST', '/members/m1/passes', { name: 'Shown in the table' });
    expect(created.status).toBe(201);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator('#state-collection').selectOption('/members/m1/passes');
    await page.locator('#state table.records td', { hasText: 'Shown in the table' }).waitFor();

    await page.getByRole('button', { name: 'Reset this session' }).click();
    await hasText(page.locator('#reset-message'), 'The session controls was reset.');
    expect(mock.calls({}, 'controls')).toEqual([]);
    await rowCount(page, 0);
  });

  test('exports the session’s calls as HAR 1.2, fetched with the admin token', async () => {
    await send('har', 'GET', '/members/m1/passes?limit=2');
    await send('har', 'POST', '/members/m1/passes', { name: 42 });
    const page = await openInspector({ session: 'har' });
    await rowCount(page, 2);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export HAR' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('membership-mock-calls.har');
    const har = JSON.parse(await readFile((await download.path())!, 'utf8'));
    const validate = harValidator();
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    const [listed, refused] = har.log.entries;
    expect(listed.request.queryString).toEqual([{ name: 'limit', value: '2' }]);
    expect(listed._operationId).toBe('listPasses');
    expect(refused.response.status).toBe(422);
    expect(refused.request.postData.text).toBe('{"name":42}');
    expect(refused._violations[0].pointer).toBe('/name');
  });

  describe('a call with a long path and a long violation', () => {
    // A member id past its 64 characters (a path violation) and a name past its 100 (a body violation).
    const member = `mbr_${'0123456789abcdef'.repeat(5)}`;
    const name = `A pass whose name goes on ${'and on '.repeat(14)}past its limit`;
    const sendLong = (session: string) => send(session, 'POST', `/members/${member}/passes`, { name });

    test('at 390 px the Path column keeps a dozen characters a line, never one letter a line', async () => {
      await sendLong('narrow');
      await send('narrow', 'GET', '/members/m1/passes/pas_unknown');
      // The widest status there is, beside a path: a dropped connection.
      mock.override({ operationId: 'getPass', fault: 'drop', times: 1 }, 'narrow');
      await send('narrow', 'GET', '/members/m1/passes/pas_dropped').catch(() => undefined);
      const page = await openInspector({ session: 'narrow', width: 390 });
      await rowCount(page, 3);
      // The lines the browser broke each path into: a dozen characters a line needs no more than these.
      const paths = await page.locator('#call-rows td.path button').evaluateAll((buttons) =>
        buttons.map((button) => {
          const range = document.createRange();
          range.selectNodeContents(button);
          const tops = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
          return { length: (button as Box).textContent!.length, lines: tops.size };
        }),
      );
      expect(paths).toHaveLength(3);
      for (const { length, lines } of paths) expect(lines).toBeLessThanOrEqual(Math.ceil(length / 12));
    });

    test('at 1280 px the call view clips no line: the inline violation and long body lines wrap', async () => {
      await sendLong('wide');
      const page = await openInspector({ session: 'wide', width: 1280 });
      await rowCount(page, 1);
      await rows(page).first().getByRole('button').click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('.violation-note').first().waitFor();
      // Every element of the call view shows all it holds: nothing runs past its right edge, hidden or scrolled.
      const clipped = await dialog.locator('*').evaluateAll((elements) =>
        elements
          .map((element) => element as Box)
          .filter((box) => box.scrollWidth > box.clientWidth + 1)
          .map((box) => `${box.className || '?'} in ${box.parentElement?.className || '?'}: ${box.scrollWidth}px`),
      );
      expect(clipped).toEqual([]);
      await expect(dialog.locator('.violation-note').allTextContents()).resolves.toContainEqual(
        expect.stringContaining('must NOT have more than 100 characters'),
      );
    });
  });

  test.each([
    [1280, 'light'],
    [1280, 'dark'],
    [390, 'light'],
    [390, 'dark'],
  ] as const)('reads at %i px wide in %s, with no sideways scrolling', async (width, colorScheme) => {
    const session = `shots-${width}-${colorScheme}`;
    await send(session, 'GET', '/members/m1/passes');
    await send(session, 'POST', '/members/m1/passes', { name: 'Gold membership' });
    await send(session, 'POST', '/members/m1/passes', { name: 42 });
    await send(session, 'GET', '/members/m1/passes/pas_unknown');
    await send(session, 'GET', '/members/m1/credentials');
    const page = await openInspector({ session, width, colorScheme });
    await rowCount(page, 5);
    await page.locator('#contract .chip.seen').first().waitFor();
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(sideways).toBeLessThanOrEqual(0);
    await mkdir(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/inspector-${width}-${colorScheme}.png` });
    await rows(page).nth(2).getByRole('button').click();
    await page.getByRole('dialog').locator('.violation').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/inspector-${width}-${colorScheme}-call.png` });
  });
});
