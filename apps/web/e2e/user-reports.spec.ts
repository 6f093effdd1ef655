import { expect, test } from './fixtures.ts';
import {
  columnTexts,
  DESKTOP,
  listRows,
  PHONE,
  rowAction,
  showFilters,
  signInAsAdmin,
  switchClient,
  uniqueSuffix,
  WIDTHS,
} from './support.ts';
import { box, expectNoSidewaysScroll, LAPTOP, overlaps } from './user-reports-support.ts';

// Lists are cards below 640 px (docs/decisions/040): rows are found with listRows, their actions
// with rowAction, and what only a table has (headers, the Actions column) is checked from 640 px up.

// What a new user tripped over at 390, 1024 and 1440 px, each replayed as they would.

test.describe('1. Locations: Selected All in the Clients filter', () => {
  for (const width of WIDTHS) {
    test(`at ${width} px shows every client, not only the current one`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      const current = await page.getByRole('combobox', { name: 'Current client' }).inputValue();
      await page.goto('/admin/location');
      await expect(listRows(page, 'Locations').first()).toContainText(current);
      const summary = page.getByText(/^Showing [\d,]+–[\d,]+ of [\d,]+/);
      const ownCount = Number(/of ([\d,]+)/.exec(await summary.innerText())?.[1]?.replace(/,/g, ''));
      await showFilters(page);

      const answer = page.waitForResponse((r) => r.url().includes('/api/endpoints?') && r.url().includes('client=all'));
      await page.getByRole('combobox', { name: 'Clients' }).click();
      await page.getByRole('option', { name: 'Selected All' }).click();
      await page.keyboard.press('Escape');
      expect((await answer).status()).toBe(200);

      await expect(page.getByText('Clients: all clients')).toBeVisible();
      await expect.poll(async () => new Set(await columnTexts(page, 'Locations', 'Client')).size).toBeGreaterThan(2);
      const allCount = Number(/of ([\d,]+)/.exec(await summary.innerText())?.[1]?.replace(/,/g, ''));
      expect(allCount).toBeGreaterThan(ownCount);

      // Emptying the filter goes back to the current client.
      await page.getByRole('combobox', { name: 'Clients' }).click();
      await page.getByRole('option', { name: 'Selected All' }).click();
      await page.keyboard.press('Escape');
      await expect(page.getByText(`Client: ${current}`)).toBeVisible();
      await expect.poll(async () => new Set(await columnTexts(page, 'Locations', 'Client'))).toEqual(new Set([current]));
    });
  }
});

test.describe('2. The shell on a phone, a laptop and a desktop', () => {
  test(`at ${PHONE} px Sign out is in the sidebar and the page does not scroll sideways`, async ({ page }) => {
    await page.setViewportSize({ width: PHONE, height: 800 });
    await signInAsAdmin(page);
    await expectNoSidewaysScroll(page);
    const header = page.getByRole('banner');
    const headerBox = await box(header);
    for (const control of [
      page.getByRole('button', { name: 'Toggle navigation' }),
      page.getByRole('combobox', { name: 'Current client' }),
    ]) {
      const b = await box(control);
      expect(b.x + b.width).toBeLessThanOrEqual(PHONE);
      expect(b.y + b.height).toBeLessThanOrEqual(headerBox.y + headerBox.height);
    }
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    const sidebar = page.getByRole('navigation', { name: 'Sidebar' });
    await expect(sidebar.getByText('Signed in as Ada Admin')).toBeVisible();
    const signOut = sidebar.getByRole('button', { name: 'Sign out' });
    await expect(signOut).toBeInViewport();
    await signOut.click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  for (const width of [LAPTOP, DESKTOP]) {
    test(`at ${width} px the header is one line, Sign out and the Actions column are in view, badges whole`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      await expectNoSidewaysScroll(page);
      const header = await box(page.getByRole('banner'));
      expect(header.height).toBeLessThanOrEqual(61);
      const signOut = page.getByRole('button', { name: 'Sign out' });
      await expect(signOut).toBeVisible();
      const s = await box(signOut);
      expect(s.x + s.width).toBeLessThanOrEqual(width);
      expect(s.y + s.height).toBeLessThanOrEqual(header.y + header.height);
      if (width >= 1200) {
        const menus = await box(page.getByRole('navigation', { name: 'Main' }));
        expect(menus.height).toBeLessThan(45);
      } else {
        await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
        await expect(page.getByRole('button', { name: 'Toggle navigation' })).toBeVisible();
      }

      const table = page.getByRole('table', { name: 'Clients' });
      await expect(table.getByRole('row').nth(1)).toBeVisible();
      const actions = await box(table.getByRole('columnheader', { name: 'Actions' }));
      expect(actions.x + actions.width).toBeLessThanOrEqual(width);
      const firstRow = table.getByRole('row').nth(1);
      for (const button of await firstRow.getByRole('button', { name: /^(Edit|Archive) / }).all()) {
        const b = await box(button);
        expect(b.x + b.width, await button.innerText()).toBeLessThanOrEqual(width);
      }
      // Module badges show their whole text.
      const cut = await table
        .locator('.mantine-Badge-label')
        .evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth + 1).map((l) => l.textContent));
      expect(cut).toEqual([]);
    });
  }
});

test.describe('3. Placeholders read as hints', () => {
  for (const width of WIDTHS) {
    test(`at ${width} px every placeholder in the location and client forms starts with "e.g." and stays grey beside an error`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page, '/admin/location');
      await page.getByRole('button', { name: 'Create location' }).first().click();
      const drawer = page.getByRole('dialog', { name: 'Create location' });
      await drawer.getByRole('button', { name: 'Create location' }).click();
      await expect(drawer.getByText('The State field is required')).toBeVisible();
      const state = drawer.getByRole('textbox', { name: 'State' });
      await expect(state).toHaveAttribute('placeholder', 'e.g. CO');
      await expect(drawer.getByRole('textbox', { name: 'Phone' })).toHaveAttribute('placeholder', 'e.g. +1 555 123 4567');
      const errorColour = await drawer.getByText('The State field is required').evaluate((m) => getComputedStyle(m).color);
      const placeholderColour = await state.evaluate((input) => getComputedStyle(input, '::placeholder').color);
      expect(placeholderColour).not.toBe(errorColour);
      const placeholders = await drawer
        .locator('input[type=text][placeholder], input:not([type])[placeholder]')
        .evaluateAll((inputs) => inputs.map((i) => i.getAttribute('placeholder') ?? ''));
      expect(placeholders.length).toBeGreaterThan(2);
      expect(placeholders.filter((p) => !p.startsWith('e.g.'))).toEqual([]);

      // A number typed the way the hint shows it is accepted, and stored as E.164.
      // Named per width and attempt: the runs, and a retry of one, share one database.
      const depot = `Hint Test Depot ${width} ${uniqueSuffix()}`;
      await drawer.getByRole('textbox', { name: 'Location name', exact: true }).fill(depot);
      await drawer.getByRole('textbox', { name: 'Address line 1', exact: true }).fill('7 Hint St');
      await drawer.getByRole('textbox', { name: 'City' }).fill('Golden');
      await state.fill('CO');
      await drawer.getByRole('textbox', { name: 'Postal code' }).fill('80401');
      await drawer.getByRole('textbox', { name: 'Phone' }).fill('+1 303 555 0142');
      await drawer.getByRole('textbox', { name: 'City' }).focus();
      await expect(drawer.getByText('The Phone field format is invalid')).toHaveCount(0);
      const saved = page.waitForResponse((r) => r.url().endsWith('/api/endpoints') && r.request().method() === 'POST');
      await drawer.getByRole('button', { name: 'Create location' }).click();
      expect((await (await saved).json()).data.phone).toBe('+13035550142');
      await expect(listRows(page, 'Locations').filter({ hasText: depot })).toContainText('+1 (303) 555-0142');

      await page.goto('/');
      await page.getByRole('button', { name: 'Create client' }).first().click();
      const client = page.getByRole('dialog', { name: 'Create client' });
      await expect(client.getByRole('textbox', { name: 'Phone' })).toHaveAttribute('placeholder', 'e.g. +1 555 123 4567');
      await expect(client.getByRole('textbox', { name: 'State' })).toHaveAttribute('placeholder', 'e.g. CO');
    });
  }
});

test.describe('4. The created banner and the toasts', () => {
  for (const width of WIDTHS) {
    test(`at ${width} px the created message goes away at the next edit`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      await page.getByRole('button', { name: 'Create client' }).first().click();
      const drawer = page.getByRole('dialog', { name: 'Create client' });
      // Named per width and attempt (a client's name is unique): the runs, and a retry of one, share one database.
      const bakery = `Banner Test Bakery ${width} ${uniqueSuffix()}`;
      await drawer.getByRole('textbox', { name: 'Name', exact: true }).fill(bakery);
      await drawer.getByRole('combobox', { name: 'Industry' }).click();
      await page.getByRole('option', { name: 'Retail' }).click();
      await drawer.getByRole('button', { name: 'Create client' }).click();
      const banner = page.getByRole('status').filter({ hasText: `Client "${bakery}" was created` });
      await expect(banner).toBeVisible();

      await rowAction(listRows(page, 'Clients').filter({ hasText: 'Crescent City Law' }), 'Edit Crescent City Law');
      const edit = page.getByRole('dialog', { name: 'Edit Crescent City Law' });
      await edit.getByRole('textbox', { name: 'City' }).fill('New Orleans');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText('Saved Crescent City Law')).toBeVisible();
      await expect(banner).toHaveCount(0);
    });
  }

  for (const width of WIDTHS) {
    test(`at ${width} px several toasts never cover the header and stack to three at most`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await signInAsAdmin(page);
      const original = await page.getByRole('combobox', { name: 'Current client' }).inputValue();
      for (const name of ['Lakeside Honda', 'Northstar Toyota', 'Bayside Inn & Suites', 'Crescent City Law'])
        await switchClient(page, name);
      const toasts = page.getByRole('alert').filter({ hasText: /^Switched to / });
      await expect(toasts.first()).toBeVisible();
      // The stack settles at three: a fourth may be in the page for the moment the oldest leaves.
      await expect.poll(() => toasts.count()).toBeLessThanOrEqual(3);
      const header = await box(page.getByRole('banner'));
      // Measured in one step: a toast may close on its own between two separate looks.
      const boxes = await toasts.evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        }),
      );
      for (const toast of boxes) expect(overlaps(toast, header)).toBe(false);
      await switchClient(page, original);
    });
  }
});
