import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, columnTexts, listRows, openRowActions, rowAction, signInAsAdmin, WIDTHS } from './support.ts';

// Locations driven by their definition (packages/shared/src/resources/locations.ts).

/** Saves a picture of the screen when SHOTS_DIR is set (looked at by hand, not compared). */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  // Once the side panel's slide-in (and any other transition) has ended.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

test.describe('Locations on the resource kit', () => {
  test('the Clients filter finds clients on the server as the user types; the line above the table names them', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await signInAsAdmin(page, '/admin/location');
    const table = page.getByRole('table', { name: 'Locations' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Clients' })).toHaveAttribute('placeholder', 'Current client');

    const searched = page.waitForResponse((r) => r.url().includes('/api/endpoints/client-options?') && r.url().includes('q=Bays'));
    await page.getByRole('combobox', { name: 'Clients' }).click();
    await page.getByRole('combobox', { name: 'Clients' }).pressSequentially('Bays');
    expect((await searched).status()).toBe(200);
    const listed = page.waitForResponse((r) => /\/api\/endpoints\?.*client=\d+/.test(r.url()));
    await page.getByRole('option', { name: 'Bayside Inn & Suites' }).click();
    await page.keyboard.press('Escape');
    expect((await listed).status()).toBe(200);
    await expect(page.getByText('Clients: Bayside Inn & Suites')).toBeVisible();
    await expect(table.getByRole('row').nth(1)).toContainText('Bayside Inn & Suites');

    // Reloaded, the chosen client keeps its name (the server answers chosen values with their labels).
    await page.reload();
    await expect(page.getByText('Clients: Bayside Inn & Suites')).toBeVisible();
    expect(errors).toEqual([]);
  });

  for (const width of WIDTHS) {
    test(`at ${width} px the form names fields by their labels and its hints read as examples; the id can be copied`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page, '/admin/location');
      const first = listRows(page, 'Locations').first();
      await expect(first).toBeVisible();
      await openRowActions(first);
      await expect(first.getByRole('button', { name: /^Copy endpoint id of / })).toBeVisible();

      await page.getByRole('button', { name: 'Create location' }).first().click();
      const drawer = page.getByRole('dialog', { name: 'Create location' });
      await drawer.getByRole('button', { name: 'Create location' }).click();
      await expect(drawer.getByText('The Location name field is required')).toBeVisible();
      await expect(drawer.getByText('The Address line 1 field is required')).toBeVisible();
      await expect(drawer.getByRole('textbox', { name: 'Country' })).toHaveValue('US');
      const placeholders = await drawer
        .locator('input[placeholder]')
        .evaluateAll((inputs) => inputs.map((i) => i.getAttribute('placeholder') ?? ''));
      expect(placeholders.filter((p) => !p.startsWith('e.g.'))).toEqual([]);
      // Closing an untouched new form asks nothing.
      await drawer.getByRole('button', { name: 'Cancel' }).click();
      await expect(drawer).toHaveCount(0);
    });
  }

  for (const width of WIDTHS) {
    test(`at ${width} px the screen and its form fit the width`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page, '/admin/location');
      const first = listRows(page, 'Locations').first();
      await expect(first).toBeVisible();
      for (const phone of await columnTexts(page, 'Locations', 'Phone')) expect(phone).toMatch(/^\+1 \(\d{3}\) \d{3}-\d{4}$/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await shot(page, `locations-${width}`);
      // The row's first button is its name, in a table's first cell as on a card.
      const name = (await first.getByRole('button').first().innerText()).trim();
      await rowAction(first, /^Edit\b/);
      const drawer = page.getByRole('dialog', { name: `Edit ${name}` });
      await expect(drawer.getByRole('textbox', { name: 'Location name', exact: true })).toHaveValue(name);
      // The phone reads grouped, as in the table.
      await expect(drawer.getByRole('textbox', { name: 'Phone' })).toHaveValue(/^\+1 \(\d{3}\) \d{3}-\d{4}$/);
      await shot(page, `locations-form-${width}`);
    });
  }
});
