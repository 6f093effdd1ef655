import { readFileSync } from 'node:fs';
import { parseCsv } from '@admin/shared';
import { expect, test } from './fixtures.ts';
import { columnTexts, listRows, openRowActions, PHONE, rowAction, showFilters, signIn, signInAsAdmin, WIDTHS } from './support.ts';
import { expectNoSidewaysScroll } from './user-reports-support.ts';

// Lists are cards below 640 px (docs/decisions/040): rows are found with listRows, their actions
// with rowAction, and what only a table has (headers, the Actions column) is checked from 640 px up.

// What a new user tripped over at 390, 1024 and 1440 px, each replayed as they would (continued from
// user-reports-forms.spec.ts): panels, filters, phones and dates.

test.describe('8. Panels, deep links, 404 and the footer', () => {
  for (const width of WIDTHS) {
    test(`at ${width} px the panel close button has a name; an edited form asks before it is thrown away`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      const pioneer = listRows(page, 'Clients').filter({ hasText: 'Pioneer Plumbing Co.' });
      await rowAction(pioneer, 'Edit Pioneer Plumbing Co.');
      const drawer = page.getByRole('dialog', { name: 'Edit Pioneer Plumbing Co.' });
      await expect(drawer.getByRole('button', { name: 'Close panel' })).toBeVisible();

      // Untouched: Escape closes at once.
      await page.keyboard.press('Escape');
      await expect(drawer).toHaveCount(0);

      await rowAction(pioneer, 'Edit Pioneer Plumbing Co.');
      const city = drawer.getByRole('textbox', { name: 'City' });
      const before = await city.inputValue();
      await city.fill('Somewhere Else');
      const ask = page.getByRole('dialog', { name: 'Discard changes?' });
      await page.keyboard.press('Escape');
      await expect(ask).toBeVisible();
      await ask.getByRole('button', { name: 'Keep editing' }).click();
      await expect(ask).toHaveCount(0);
      await expect(city).toHaveValue('Somewhere Else');

      await drawer.getByRole('button', { name: 'Cancel' }).click();
      await expect(ask).toBeVisible();
      await ask.getByRole('button', { name: 'Discard changes' }).click();
      await expect(drawer).toHaveCount(0);

      await rowAction(pioneer, 'Edit Pioneer Plumbing Co.');
      await expect(drawer.getByRole('textbox', { name: 'City' })).toHaveValue(before);
      await drawer.getByRole('button', { name: 'Close panel' }).click();
      await expect(drawer).toHaveCount(0);
    });
  }

  for (const width of WIDTHS) {
    test(`at ${width} px a dialog's close button has a name too`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page, '/admin/location');
      await page.getByRole('button', { name: 'Import CSV' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import locations' });
      await dialog.getByRole('button', { name: 'Close dialog' }).click();
      await expect(dialog).toHaveCount(0);
    });
  }

  for (const width of WIDTHS) {
    test(`at ${width} px a deep link opened signed out lands on that link after sign-in`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/admin/personnel?q=ethan');
      await expect(page).toHaveURL(/\/login$/);
      await signIn(page);
      await expect(page.getByRole('heading', { level: 1, name: 'Personnel' })).toBeVisible();
      await expect(page).toHaveURL(/\/admin\/personnel\?q=ethan$/);
      await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('ethan');
    });
  }

  for (const width of WIDTHS) {
    test(`at ${width} px the 404 page has a main region, a footer and a way home, but no navigation bar`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await signInAsAdmin(page, '/no/such/page');
      await expect(page).toHaveURL(/\/404$/);
      await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
      await expect(page.getByRole('contentinfo')).toContainText(`© ${new Date().getFullYear()} Admin Panel`);
      await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
      await expectNoSidewaysScroll(page);
      await page.getByRole('main').getByRole('link', { name: 'Go to Client Manager' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Client Manager' })).toBeVisible();
    });
  }

  for (const width of WIDTHS) {
    test(`at ${width} px the footer is the contentinfo landmark, outside main`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      const footer = page.getByRole('contentinfo');
      await expect(footer).toHaveText(`© ${new Date().getFullYear()} Admin Panel`);
      await expect(page.getByRole('main').getByRole('contentinfo')).toHaveCount(0);
      expect(await footer.evaluate((f) => f.closest('main') === null)).toBe(true);
    });
  }

  for (const width of WIDTHS) {
    test(`at ${width} px a dialog asks before an edited form is thrown away; a token shown once closes only with Done`, async ({
      page,
    }) => {
      const user = 'Ada Admin';
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page, '/admin/api-token-generation');
      await page.getByRole('searchbox', { name: 'Search' }).fill('admin@example.com');
      // On a phone the row's buttons are behind its card's Actions button.
      const row = listRows(page, 'API tokens').filter({ hasText: 'admin@example.com' }).first();
      await openRowActions(row);
      const generate = page.getByRole('button', { name: `Generate token for ${user}` });
      const revoke = page.getByRole('button', { name: `Revoke token of ${user}` });
      await expect(generate.or(revoke)).toBeVisible();
      // The other width's run left a token: revoked, so Generate is offered again.
      if (await revoke.isVisible()) {
        await revoke.click();
        await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
        await expect(generate).toBeVisible();
      }

      // Untouched: Escape closes at once.
      await generate.click();
      const form = page.getByRole('dialog', { name: `Generate a token for ${user}` });
      await expect(form.getByRole('textbox', { name: 'Token name' })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(form).toHaveCount(0);

      // Edited: Escape, then Cancel, ask first.
      await generate.click();
      const name = form.getByRole('textbox', { name: 'Token name' });
      await name.fill('Dialog guard');
      const ask = page.getByRole('dialog', { name: 'Discard changes?' });
      await page.keyboard.press('Escape');
      await expect(ask).toBeVisible();
      await ask.getByRole('button', { name: 'Keep editing' }).click();
      await expect(ask).toHaveCount(0);
      await expect(name).toHaveValue('Dialog guard');
      await form.getByRole('button', { name: 'Cancel' }).click();
      await expect(ask).toBeVisible();
      await ask.getByRole('button', { name: 'Discard changes' }).click();
      await expect(form).toHaveCount(0);

      // The new token: neither Escape nor a click outside closes it, only Done.
      await generate.click();
      await name.fill('Dialog guard');
      await form.getByRole('button', { name: 'Generate token' }).click();
      const shown = page.getByRole('dialog', { name: 'Copy your new token' });
      await expect(shown.getByRole('textbox', { name: 'Token' })).toHaveValue(/^rp_/);
      await expect(shown).toContainText('closes only with Done');
      await expect(shown.getByRole('button', { name: 'Close dialog' })).toHaveCount(0);
      await page.keyboard.press('Escape');
      await page.mouse.click(5, 5);
      await expect(shown).toBeVisible();
      await expect(ask).toHaveCount(0);
      await shown.getByRole('button', { name: 'Done' }).click();
      await expect(shown).toHaveCount(0);
      await expect(revoke).toBeVisible();
    });
  }
});

test.describe('9. System Logs filters, global referral sources', () => {
  for (const width of WIDTHS) {
    test(`at ${width} px Entity type filters as you type, like Search`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page, '/admin/system/logs?level=selected%20all');
      await expect(listRows(page, 'System logs').first()).toBeVisible();
      await showFilters(page);
      const filtered = page.waitForResponse((r) => r.url().includes('/api/system-logs?') && r.url().includes('entityType=location'));
      await page.getByRole('textbox', { name: 'Entity type' }).pressSequentially('location');
      await filtered;
      await expect(page).toHaveURL(/entityType=location/);

      const searched = page.waitForResponse((r) => r.url().includes('/api/system-logs?') && r.url().includes('q=Created'));
      await page.getByRole('searchbox', { name: 'Search' }).pressSequentially('Created');
      await searched;
      await expect(page).toHaveURL(/q=Created/);
    });
  }

  for (const width of WIDTHS) {
    test(`at ${width} px editing a global referral source warns that every client changes`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page, '/admin/referral-source');
      const rows = listRows(page, 'Referral sources');
      await rowAction(rows.filter({ hasText: 'Google search' }).first(), 'Edit Google search');
      const drawer = page.getByRole('dialog', { name: 'Edit Google search' });
      await expect(drawer.getByRole('note')).toContainText('shared by every client');
      await expect(drawer.getByRole('note')).toContainText('apply to all clients');
      await drawer.getByRole('button', { name: 'Close panel' }).click();

      await rowAction(rows.filter({ hasText: 'Yard sign' }).first(), 'Edit Yard sign');
      await expect(page.getByRole('dialog', { name: 'Edit Yard sign' }).getByRole('note')).toHaveCount(0);
    });
  }
});

test.describe('10. Phones and dates', () => {
  for (const width of WIDTHS) {
    test(`at ${width} px phones are grouped on screen and stay E.164 in the CSV; one date format across tables`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page, '/admin/location');
      await expect(listRows(page, 'Locations').first()).toBeVisible();
      const phones = await columnTexts(page, 'Locations', 'Phone');
      expect(phones.length).toBeGreaterThan(0);
      for (const phone of phones) expect(phone).toMatch(/^\+1 \(\d{3}\) \d{3}-\d{4}$/);

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const records = parseCsv(readFileSync((await (await download).path()) ?? '', 'utf8'));
      const phoneColumn = records[0]?.indexOf('Phone') ?? -1;
      expect(phoneColumn).toBeGreaterThanOrEqual(0);
      // As stored; the server's leading apostrophe keeps spreadsheets from reading "+1…" as a formula.
      for (const record of records.slice(1)) expect(record[phoneColumn]).toMatch(/^'?\+1\d{10}$/);

      const DATE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/;
      // One moment format, its zone named (issue 19, item 10; docs/decisions/041-line-numbers-and-zoned-times.md).
      const DATE_TIME = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M [A-Z][A-Za-z0-9+:-]*$/;
      await page.goto('/admin/system/logs');
      await expect(listRows(page, 'System logs').first()).toBeVisible();
      const times = await columnTexts(page, 'System logs', 'Time');
      expect(times.length).toBeGreaterThan(0);
      for (const t of times) expect(t).toMatch(DATE_TIME);
      // A client's Created date and the merge history are table columns; cards show other facts.
      if (width === PHONE) return;
      await page.goto('/');
      await expect(listRows(page, 'Clients').first()).toBeVisible();
      const created = await columnTexts(page, 'Clients', 'Created');
      expect(created.length).toBeGreaterThan(0);
      for (const d of created) expect(d).toMatch(DATE);
      await page.goto('/admin/merge-personnel?tab=history');
      const history = page.getByRole('table', { name: 'Merge history' });
      await expect(history).toBeVisible();
      for (const d of await history.locator('tbody time').allInnerTexts()) expect(d).toMatch(DATE_TIME);
    });
  }
});
