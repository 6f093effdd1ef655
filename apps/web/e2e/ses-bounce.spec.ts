import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, listRows, openRowActions, rowAction, showFilters, signInAsAdmin, WIDTHS } from './support.ts';

// SES Bounce: an address suppressed by hand through its dialog is listed (a card on a phone);
// the list's search and filters find it; releasing it asks the exact question and needs a reason;
// View events lands on SES Logs filtered to the address. Each run uses addresses of its own, so
// the demo's rows (and a retry's) never decide what is asserted.

const LIST = 'Addresses';

async function addManualSuppression(page: Page, email: string, reason: string) {
  await page.getByRole('button', { name: 'Add manual suppression' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add manual suppression' });
  await dialog.getByRole('button', { name: 'Suppress' }).click();
  await expect(dialog.getByText('The Email field is required')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Email' }).fill('not-an-address');
  await dialog.getByRole('button', { name: 'Suppress' }).click();
  await expect(dialog.getByText('The Email field must be a valid email')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Email' }).fill(email.toUpperCase());
  await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
  await dialog.getByRole('button', { name: 'Suppress' }).click();
  await expect(dialog).toHaveCount(0);
}

for (const width of WIDTHS) {
  test.describe(`SES Bounce at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
    });

    test('a manual suppression is listed; search and filters find it; release asks the question and needs a reason', async ({ page }) => {
      const errors = collectConsoleErrors(page);
      const email = `hand.${width}.${Date.now().toString(36)}@example.com`;
      await signInAsAdmin(page, '/admin/ses/bounce');
      await expect(page.getByRole('heading', { level: 1, name: 'SES Bounce' })).toBeVisible();
      await addManualSuppression(page, email, 'Asked by phone');

      // The address is found by the search box, lower-cased, suppressed by hand.
      await page.getByRole('searchbox', { name: 'Search' }).fill(email);
      await expect(page).toHaveURL(/[?&]q=/);
      const rows = listRows(page, LIST);
      await expect(rows).toHaveCount(1);
      const row = rows.filter({ hasText: email });
      await expect(row.getByText('Manual', { exact: true })).toBeVisible();
      await expect(row.getByText('Yes', { exact: true })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

      // Filters: Not suppressed leaves it out; the domain and the reason keep it.
      await showFilters(page);
      await page.getByRole('textbox', { name: 'Domain' }).fill('@example.com');
      await expect(page).toHaveURL(/domain=%40example\.com|domain=@example\.com/);
      await expect(rows).toHaveCount(1);
      await page.getByRole('textbox', { name: 'Domain' }).fill('@gmail.com');
      await expect(page.getByText('No address matches these filters.')).toBeVisible();
      await page.getByRole('textbox', { name: 'Domain' }).fill('');
      await expect(rows).toHaveCount(1);

      // Release: the question word for word; no reason, no release.
      await rowAction(row, `Release ${email}`);
      const dialog = page.getByRole('dialog', { name: `Release ${email} from suppression` });
      await expect(dialog.getByText('Are you sure? This cannot be undone.', { exact: true })).toBeVisible();
      await dialog.getByRole('button', { name: 'Release' }).click();
      await expect(dialog.getByText('The Reason field is required')).toBeVisible();
      await dialog.getByRole('textbox', { name: 'Reason' }).fill('The customer asked to hear from us again');
      await dialog.getByRole('button', { name: 'Release' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(row.getByText('No', { exact: true })).toBeVisible();
      await openRowActions(row);
      await expect(row.getByRole('button', { name: `Release ${email}` })).toHaveCount(0);

      // Its details say who released it and why.
      await row.getByRole('button', { name: `Details of address ${email}` }).click();
      const panel = page.getByRole('dialog', { name: `Address ${email}` });
      await expect(panel.getByText(/The customer asked to hear from us again/)).toBeVisible();
      await expect(panel.getByText('Suppressed by hand in SES Bounce.')).toBeVisible();
      expect(errors).toEqual([]);
    });

    test('View events lands on SES Logs filtered to the address', async ({ page }) => {
      const email = `events.${width}.${Date.now().toString(36)}@example.com`;
      await signInAsAdmin(page, '/admin/ses/bounce');
      await addManualSuppression(page, email, '');
      await page.getByRole('searchbox', { name: 'Search' }).fill(email);
      // The search is written to the address after a pause; leaving before would carry it along.
      await expect(page).toHaveURL(/[?&]q=/);
      const row = listRows(page, LIST).filter({ hasText: email });
      await expect(row).toHaveCount(1);
      await openRowActions(row);
      await row.getByRole('link', { name: `View events of ${email}` }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'SES Logs' })).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`/admin/ses/logs\\?recipient=${encodeURIComponent(email).replace(/\./g, '\\.')}`));
      await showFilters(page);
      await expect(page.getByRole('textbox', { name: 'Recipient' })).toHaveValue(email);
      await expect(page.getByText('No SES events match these filters.')).toBeVisible();
    });
  });
}
