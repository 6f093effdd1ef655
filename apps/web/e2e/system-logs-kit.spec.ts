import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, signInAsAdmin, WIDTHS } from './support.ts';

// System Logs drawn from its definition as a read-only resource: no Create, Edit or status
// actions; a row opens its details; the Users filter finds people on the server as you type.

test.describe('System Logs on the resource kit', () => {
  test('read-only: no Create button or Actions column; a row opens its details', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await signInAsAdmin(page, '/admin/system/logs?level=selected%20all');
    const table = page.getByRole('table', { name: 'System logs' });
    await expect(table.getByRole('row')).toHaveCount(51);
    await expect(page.getByRole('button', { name: /^Create/ })).toHaveCount(0);
    await expect(table.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
    await expect(table.getByRole('button', { name: /^Edit / })).toHaveCount(0);

    const open = table.getByRole('button', { name: /^Details of entry \d+$/ }).first();
    const id = /(\d+)$/.exec((await open.getAttribute('aria-label')) ?? '')?.[1];
    await open.click();
    const panel = page.getByRole('dialog', { name: `Entry ${id}` });
    await expect(panel.getByText('Service', { exact: true })).toBeVisible();
    await expect(panel.getByLabel('Loading entry')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('the Users filter asks the server for what was typed, and a reload names the chosen user', async ({ page }) => {
    await signInAsAdmin(page, '/admin/system/logs?level=selected%20all');
    const table = page.getByRole('table', { name: 'System logs' });
    await expect(table.getByRole('row').nth(1)).toBeVisible();

    const answered = page.waitForResponse((r) => r.url().includes('/api/system-logs/options/actor') && r.url().includes('q=ada'));
    await page.getByRole('combobox', { name: 'Users' }).click();
    await page.keyboard.type('ada');
    await answered;
    const filtered = page.waitForResponse((r) => r.url().includes('/api/system-logs?') && /actor=\d+/.test(r.url()));
    await page.getByRole('option', { name: 'Ada Admin' }).click();
    await page.keyboard.press('Escape');
    await filtered;
    await expect(page).toHaveURL(/actor=\d+/);
    const index = (await table.getByRole('columnheader').allInnerTexts()).map((t) => t.replace(/[▲▼↕]/g, '').trim()).indexOf('Actor');
    const actors = () => table.locator(`tbody tr td:nth-child(${index + 1})`).allInnerTexts();
    await expect.poll(async () => [...new Set(await actors())]).toEqual(['Ada Admin']);

    // The chosen id comes back with its name, whatever the first page of options holds.
    const named = page.waitForResponse((r) => r.url().includes('/api/system-logs/options/actor') && r.url().includes('value='));
    await page.reload();
    await named;
    await expect(page.locator('.multi-filter-pill', { hasText: 'Ada Admin' })).toBeVisible();
  });

  for (const width of WIDTHS) {
    test(`at ${width} px a large unfiltered list says "1–50 of about N" with N the size of the table, not a cap`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page, '/admin/system/logs?level=selected%20all');
      const summary = page.getByText(/^Showing 1–50 of about [\d,]+$/);
      await expect(summary).toBeVisible();
      const total = Number(/about ([\d,]+)/.exec(await summary.innerText())?.[1]?.replace(/,/g, ''));
      // The demo data holds 20,000 generated entries; counting stops at 10,001 rows.
      expect(total).toBeGreaterThan(20_000 / 1.5);
      expect(total).toBeLessThan(20_000 * 1.5);
      expect(total).not.toBe(10_001);
    });
  }
});
