import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { DESKTOP, PHONE, signInAsAdmin } from './support.ts';

// Issue 19, item 18 (and the pager of item 16). On a phone every list is cards: the page never
// scrolls sideways and a card's actions open from its Actions button, by keyboard too. At 1440 px
// the default columns fit (Status and Updated are not under the sticky Actions column) and
// Survey Processing's rows are one line high. The pager names the rows a page shows.

/** Lists as a new user opens them on a phone, each with its table's name. */
const LISTS = [
  { path: '/', name: 'Clients' },
  { path: '/admin/surveys', name: 'Surveys' },
  { path: '/admin/survey-platform', name: 'Feeds' },
  { path: '/admin/survey-processing', name: 'Invitations' },
  { path: '/admin/surveys-admin', name: 'Survey settings' },
  { path: '/admin/location', name: 'Locations' },
  { path: '/admin/sms-text', name: 'SMS templates' },
  { path: '/admin/system/logs', name: 'System logs' },
] as const;

async function pageWidth(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

test.describe(`at ${PHONE} px`, () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: PHONE, height: 844 });
    await signInAsAdmin(page);
  });

  test('every list is cards and the page does not scroll sideways', async ({ page }) => {
    for (const list of LISTS) {
      await page.goto(list.path);
      const cards = page.getByRole('list', { name: list.name, exact: false });
      await expect(cards.getByRole('listitem').first(), list.path).toBeVisible();
      await expect(page.getByRole('table')).toHaveCount(0);
      expect(await pageWidth(page), list.path).toBeLessThanOrEqual(PHONE);
    }
  });

  test("a card's actions open and act by keyboard", async ({ page }) => {
    await page.goto('/admin/surveys');
    const card = page.getByRole('list', { name: 'Surveys' }).getByRole('listitem').filter({ hasText: 'Customer experience NPS' });
    await expect(card.getByText('Active', { exact: true })).toBeVisible();
    const actions = card.getByRole('button', { name: 'Actions for Customer experience NPS' });
    await expect(actions).toHaveAttribute('aria-expanded', 'false');
    await actions.focus();
    await page.keyboard.press('Enter');
    await expect(actions).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    const edit = card.getByRole('button', { name: /^Edit\b/ });
    await expect(edit).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: /^Edit Customer experience NPS/ })).toBeVisible();
  });
});

test.describe(`at ${DESKTOP} px`, () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: DESKTOP, height: 900 });
    await signInAsAdmin(page);
  });

  for (const path of ['/admin/surveys', '/admin/survey-platform', '/admin/surveys-admin', '/admin/sms-text']) {
    test(`${path}: the default columns fit beside Actions, Status in view`, async ({ page }) => {
      await page.goto(path);
      const table = page.getByRole('table');
      await expect(table.getByRole('row').nth(1)).toBeVisible();
      const status = await table.getByRole('columnheader', { name: /^Status/ }).boundingBox();
      const actions = await table.getByRole('columnheader', { name: 'Actions' }).boundingBox();
      if (!status || !actions) throw new Error('headers not laid out');
      expect(status.x + status.width).toBeLessThanOrEqual(actions.x + 1);
      if (path !== '/admin/survey-platform' && path !== '/admin/surveys-admin') {
        const updated = await table.getByRole('columnheader', { name: /^Updated/ }).boundingBox();
        if (!updated) throw new Error('Updated not laid out');
        expect(updated.x + updated.width).toBeLessThanOrEqual(actions.x + 1);
      }
      const sideways = await table.evaluate((t) => {
        const scroller = t.closest('.data-table-frame')?.firstElementChild;
        return scroller ? scroller.scrollWidth - scroller.clientWidth : 0;
      });
      expect(sideways).toBeLessThanOrEqual(1);
    });
  }

  test('Survey Processing: rows one line high, no sideways scrolling, pager names its rows', async ({ page }) => {
    await page.goto('/admin/survey-processing');
    const table = page.getByRole('table', { name: 'Invitations' });
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(50);
    const heights = await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
    expect(Math.max(...heights)).toBeLessThan(52);
    expect(await pageWidth(page)).toBeLessThanOrEqual(DESKTOP);
    const sideways = await table.evaluate((t) => {
      const scroller = t.closest('.data-table-frame')?.firstElementChild;
      return scroller ? scroller.scrollWidth - scroller.clientWidth : 0;
    });
    expect(sideways).toBeLessThanOrEqual(1);

    const summary = page.getByText(/^Showing \d/);
    await expect(summary).toHaveText(/^Showing 1–50 of (about )?[\d,]+$/);
    const total = (await summary.innerText()).replace(/^Showing 1–50 of /, '');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(summary).toHaveText(`Showing 51–100 of ${total}`);
    // The page's number lives in the URL with its cursor: a reload says the same.
    await page.reload();
    await expect(page.getByText(/^Showing \d/)).toHaveText(`Showing 51–100 of ${total}`);
    await page.getByRole('button', { name: 'First page' }).click();
    await expect(page.getByText(/^Showing \d/)).toHaveText(`Showing 1–50 of ${total}`);
  });
});
