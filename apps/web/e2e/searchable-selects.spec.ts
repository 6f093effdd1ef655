import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signInAsAdmin, switchClient, WIDTHS } from './support.ts';

// Issue 19, item 13: a searchable select with a value showed the value's label in its input and
// typing went after it ("Summit Heating & AirLake"), so nothing was found. Typing searches for
// the typed text alone, whether the list was opened by a click or by the typing itself.

/** The texts of the options the open list offers. */
async function offered(page: Page): Promise<string[]> {
  const options = page.getByRole('listbox').getByRole('option');
  await expect(options.first()).toBeVisible();
  return options.allInnerTexts();
}

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
    });

    test('the client switcher finds clients by the typed text only', async ({ page }) => {
      await switchClient(page, 'Summit Heating & Air');
      const switcher = page.getByRole('combobox', { name: 'Current client' });
      await switcher.click();
      // Opened, every client is offered and the chosen one stays in view as the hint.
      await expect(switcher).toHaveValue('');
      await expect(switcher).toHaveAttribute('placeholder', 'Summit Heating & Air');
      expect((await offered(page)).length).toBeGreaterThan(3);
      await page.keyboard.type('lake');
      await expect(switcher).toHaveValue('lake');
      const found = await offered(page);
      expect(found).toContain('Lakeside Honda');
      expect(found.every((o) => /lake/i.test(o))).toBe(true);
      await page.getByRole('option', { name: 'Lakeside Honda', exact: true }).click();
      await expect(switcher).toHaveValue('Lakeside Honda');

      // Closed with Escape, its label shown: typing again searches from scratch.
      await switcher.click();
      await page.keyboard.press('Escape');
      await expect(switcher).toHaveValue('Lakeside Honda');
      await page.keyboard.type('bay');
      await expect(switcher).toHaveValue('bay');
      expect(await offered(page)).toEqual(['Bayside Inn & Suites']);
      await page.keyboard.press('Escape');
      // Nothing chosen: the input shows the current client again.
      await expect(switcher).toHaveValue('Lakeside Honda');
    });

    test('Time zone finds zones by the typed text only', async ({ page }) => {
      await page.getByRole('button', { name: 'Create client' }).first().click();
      const drawer = page.getByRole('dialog', { name: 'Create client' });
      const zone = drawer.getByRole('combobox', { name: 'Time zone' });
      await expect(zone).not.toHaveValue('');
      await zone.click();
      await page.keyboard.type('denver');
      await expect(zone).toHaveValue('denver');
      const found = await offered(page);
      expect(found).toContain('America/Denver (Mountain)');
      expect(found.every((o) => /denver/i.test(o))).toBe(true);
      await page.getByRole('option', { name: 'America/Denver (Mountain)' }).click();
      await expect(zone).toHaveValue('America/Denver (Mountain)');
    });
  });
}
