import { expect, test } from './fixtures.ts';
import { DESKTOP, listRows, openRowActions, PHONE, showFilters, signInAsAdmin, WIDTHS } from './support.ts';
import { box } from './user-reports-support.ts';

// Lists are cards below 640 px (docs/decisions/040): rows are found with listRows, their actions
// with rowAction, and what only a table has (headers, the Actions column) is checked from 640 px up.

// What a new user tripped over at 390, 1024 and 1440 px, each replayed as they would (continued from
// user-reports.spec.ts): forms and lists.

test.describe('5. Creating a client: time zone and modules', () => {
  test.describe('in a browser set to Chicago', () => {
    test.use({ timezoneId: 'America/Chicago' });
    for (const width of WIDTHS) {
      test(`at ${width} px starts at the browser's zone, lists US zones first, finds a zone by city; no module ticked`, async ({
        page,
      }) => {
        await page.setViewportSize({ width, height: 900 });
        await signInAsAdmin(page);
        await page.getByRole('button', { name: 'Create client' }).first().click();
        const drawer = page.getByRole('dialog', { name: 'Create client' });
        const zone = drawer.getByRole('combobox', { name: 'Time zone' });
        await expect(zone).toHaveValue(/^America\/Chicago/);
        await zone.click();
        const options = page.getByRole('listbox').getByRole('option');
        await expect(options.first()).toHaveText(/^America\/New_York/);
        const firstSeven = (await options.allInnerTexts()).slice(0, 7);
        expect(firstSeven.every((o) => /^(America|Pacific)\//.test(o))).toBe(true);
        await zone.fill('los angeles');
        await page.getByRole('option', { name: /America\/Los_Angeles/ }).click();
        await expect(zone).toHaveValue(/^America\/Los_Angeles/);
        for (const module of ['Surveys', 'Reputation', 'Listings', 'SMS']) {
          await expect(drawer.getByRole('checkbox', { name: module })).not.toBeChecked();
        }
      });
    }
  });

  test.describe('in a browser set to UTC', () => {
    test.use({ timezoneId: 'UTC' });
    for (const width of WIDTHS) {
      test(`at ${width} px starts at US Eastern, since UTC says nothing about where a business is`, async ({ page }) => {
        await page.setViewportSize({ width, height: 900 });
        await signInAsAdmin(page);
        await page.getByRole('button', { name: 'Create client' }).first().click();
        await expect(page.getByRole('dialog', { name: 'Create client' }).getByRole('combobox', { name: 'Time zone' })).toHaveValue(
          /^America\/New_York/,
        );
      });
    }
  });
});

test.describe('6. Filter rows, table headers and dates line up', () => {
  for (const width of WIDTHS) {
    test(`at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      await expect(listRows(page, 'Clients').first()).toBeVisible();
      await showFilters(page);
      // Status starts with two chips; a third sums them up as one chip and "+2 more", still one line.
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Archived' }).click();
      await page.keyboard.press('Escape');
      await expect(page.getByText('+2 more')).toBeVisible();
      for (const [path, name] of [
        ['/', 'Clients'],
        ['/admin/system/logs', 'System logs'],
        ['/admin/location', 'Locations'],
      ] as const) {
        if (path !== '/') await page.goto(path);
        const filters = page.getByRole('group', { name: 'Filters' });
        await expect(filters).toBeVisible();
        await expect(listRows(page, name).first()).toBeVisible();
        await showFilters(page);
        const inputs = filters.locator('.mantine-Input-wrapper');
        const boxes = await Promise.all((await inputs.all()).map(box));
        expect(boxes.length).toBeGreaterThan(2);
        const heights = new Set(boxes.map((b) => Math.round(b.height)));
        expect([...heights], `input heights on ${path}`).toHaveLength(1);
        if (width === DESKTOP) {
          // Inputs sharing a line share their bottom edge.
          const first = boxes[0];
          const sameLine = boxes.filter((b) => first && Math.abs(b.y - first.y) < first.height);
          expect(sameLine.length).toBeGreaterThan(2);
          expect(new Set(sameLine.map((b) => Math.round(b.y + b.height))).size).toBe(1);
        }
        if (width === PHONE) continue;
        const table = page.getByRole('table').first();
        await expect(table.getByRole('row').nth(1)).toBeVisible();
        // Sort buttons keep their arrow on the label's line.
        for (const sort of await table.getByRole('columnheader').getByRole('button').all()) {
          expect((await box(sort)).height, await sort.innerText()).toBeLessThan(26);
        }
      }
      if (width === PHONE) return;
      await page.goto('/?status=selected%20all');
      const dates = page.getByRole('table', { name: 'Clients' }).locator('tbody time');
      await expect(dates.first()).toBeVisible();
      for (const date of (await dates.all()).slice(0, 5)) expect((await box(date)).height).toBeLessThan(26);
    });
  }
});

test.describe('7. Client Manager row actions', () => {
  for (const width of WIDTHS) {
    test(`at ${width} px the current client's buttons sit where every other row's do`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      const current = await page.getByRole('combobox', { name: 'Current client' }).inputValue();
      const other = current === 'Lakeside Honda' ? 'Northstar Toyota' : 'Lakeside Honda';
      const table = page.getByRole('table', { name: 'Clients' });
      // The Actions cell: the row's last; on a phone, the card with its actions open.
      const cardOf = async (name: string) => {
        const card = listRows(page, 'Clients').filter({ hasText: name });
        await openRowActions(card);
        return card;
      };
      const mine =
        width === PHONE
          ? await cardOf(current)
          : table
              .getByRole('row', { name: new RegExp(current) })
              .getByRole('cell')
              .last();
      const theirs =
        width === PHONE
          ? await cardOf(other)
          : table
              .getByRole('row', { name: new RegExp(other) })
              .getByRole('cell')
              .last();
      await expect(mine.getByText('Current', { exact: true })).toBeVisible();
      await expect(mine.getByRole('button', { name: `Switch to ${current}` })).toHaveCount(0);
      for (const [a, b] of [
        [`Edit ${current}`, `Edit ${other}`],
        [`Open ${current}'s screens`, `Open ${other}'s screens`],
        [`Pause ${current}`, `Pause ${other}`],
        [`Archive ${current}`, `Archive ${other}`],
      ] as const) {
        const x1 = (await box(mine.getByRole('button', { name: a, exact: true }))).x;
        const x2 = (await box(theirs.getByRole('button', { name: b, exact: true }))).x;
        expect(Math.abs(x1 - x2), a).toBeLessThanOrEqual(1);
      }
    });
  }
});
