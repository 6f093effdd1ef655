import { type BrowserContext, type BrowserContextOptions, test as base, type Page } from '@playwright/test';

export { expect } from '@playwright/test';

/**
 * One browser tab per worker, reused by its tests (docs/decisions/084-one-tab-per-worker.md). A
 * fresh context and tab cost each test about half a second, and the console's first load in a
 * fresh tab (its scripts compiled with a cold cache) about a second more than in a tab that has
 * loaded it before: most of a short test. Each test still starts as a new visitor: no cookies, no
 * storage, no routes or listeners left by the test before, the viewport and media it asks for, and
 * a blank page, so its own `page.goto` (or `signInAsAdmin`) loads the console afresh.
 *
 * A test whose options change what a context is made with (its `baseURL`, time zone or locale)
 * gets a context and tab of its own, as Playwright's own fixtures would give it.
 */

type Tab = { context: BrowserContext; page: Page };

/** The user events a test may listen to on its page; Playwright's own wiring does not use them. */
const PAGE_EVENTS = [
  'console',
  'pageerror',
  'request',
  'requestfinished',
  'requestfailed',
  'response',
  'dialog',
  'download',
  'popup',
  'framenavigated',
  'load',
] as const;

/** The options of the project's `use` that a context is made with and a tab cannot change later. */
function contextOptionsOf(use: BrowserContextOptions & { baseURL?: string }): BrowserContextOptions {
  return {
    baseURL: use.baseURL,
    viewport: use.viewport,
    userAgent: use.userAgent,
    deviceScaleFactor: use.deviceScaleFactor,
    isMobile: use.isMobile,
    hasTouch: use.hasTouch,
    reducedMotion: use.reducedMotion,
    timezoneId: use.timezoneId,
    locale: use.locale,
  };
}

/** Leaves the worker's tab as a new one: the test before may have left anything in it. */
async function reset({ context, page }: Tab, viewport: BrowserContextOptions['viewport']): Promise<void> {
  for (const other of context.pages()) if (other !== page) await other.close();
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  for (const event of PAGE_EVENTS) page.removeAllListeners(event);
  // Storage is emptied from a document of the console's origin that runs none of its scripts (its
  // icon), so nothing of the last test's page can write to it after it was emptied.
  const origin = new URL(page.url()).origin;
  if (origin !== 'null') {
    await page.goto(`${origin}/favicon.svg`);
    await page.evaluate(() => {
      window.sessionStorage.clear();
      window.localStorage.clear();
    });
  }
  await page.goto('about:blank');
  await context.clearCookies();
  await context.clearPermissions();
  await page.emulateMedia({ media: null });
  if (viewport) await page.setViewportSize(viewport);
}

export const test = base.extend<{ tab: Tab }, { workerTab: Tab }>({
  workerTab: [
    async ({ browser }, use, workerInfo) => {
      const context = await browser.newContext(contextOptionsOf(workerInfo.project.use));
      const page = await context.newPage();
      await use({ context, page });
      await context.close();
    },
    { scope: 'worker' },
  ],
  tab: async ({ workerTab, browser, baseURL, timezoneId, locale, viewport }, use, testInfo) => {
    const shared = contextOptionsOf(testInfo.project.use);
    const own = baseURL !== shared.baseURL || timezoneId !== shared.timezoneId || locale !== shared.locale;
    if (!own) {
      // A test that closed its page leaves the next one a new tab in the same context.
      if (workerTab.page.isClosed()) workerTab.page = await workerTab.context.newPage();
      await reset(workerTab, viewport);
      await use(workerTab);
      return;
    }
    const context = await browser.newContext({ ...shared, baseURL, timezoneId, locale, viewport });
    const page = await context.newPage();
    await use({ context, page });
    await context.close();
  },
  context: async ({ tab }, use) => {
    await use(tab.context);
  },
  page: async ({ tab }, use) => {
    await use(tab.page);
  },
});
