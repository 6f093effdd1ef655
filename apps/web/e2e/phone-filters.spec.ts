import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { columnTexts, DESKTOP, listRows, PHONE, signInAsAdmin } from './support.ts';

// On a phone a list shows Search and a "Filters" button (counting the active filters) in place of
// its whole stack of filters, so its first rows are on the first screen; on a desktop every filter
// shows. On a laptop the pinned Actions column wraps its buttons rather than cover the table.

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
}

test.describe('Filters on a phone', () => {
  test(`at ${PHONE} px System Logs shows its first row on the first screen and its filters behind a counted toggle`, async ({ page }) => {
    const height = 844;
    await page.setViewportSize({ width: PHONE, height });
    await signInAsAdmin(page, '/admin/system/logs');
    // On a phone the list is cards (docs/decisions/040).
    const firstRow = listRows(page, 'System logs').first();
    await expect(firstRow).toBeVisible();
    const row = await box(firstRow);
    expect(row.y + row.height).toBeLessThanOrEqual(height);

    await expect(page.getByRole('searchbox', { name: 'Search' })).toBeVisible();
    const service = page.getByRole('combobox', { name: 'Service' });
    await expect(service).toBeHidden();
    // Level's default (warnings and errors) narrows the list, so it counts.
    const toggle = page.getByRole('button', { name: 'Filters (1)' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(service).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Level' })).toBeVisible();
    await service.click();
    await page.getByRole('option', { name: 'sender', exact: true }).click();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/service=sender/);
    await expect.poll(async () => [...new Set(await columnTexts(page, 'System logs', 'Service'))]).toEqual(['sender']);

    const counted = page.getByRole('button', { name: 'Filters (2)' });
    await counted.click();
    await expect(counted).toHaveAttribute('aria-expanded', 'false');
    await expect(service).toBeHidden();
    // Hidden, the filter still applies.
    await expect(page).toHaveURL(/service=sender/);
    await expect.poll(async () => [...new Set(await columnTexts(page, 'System logs', 'Service'))]).toEqual(['sender']);
  });

  test(`at ${DESKTOP} px every filter shows and there is no toggle`, async ({ page }) => {
    await page.setViewportSize({ width: DESKTOP, height: 900 });
    await signInAsAdmin(page, '/admin/system/logs');
    await expect(page.getByRole('table', { name: 'System logs' }).getByRole('row').nth(1)).toBeVisible();
    for (const name of ['Level', 'Service', 'Users', 'Clients']) await expect(page.getByRole('combobox', { name })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Entity type' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Filters/ })).toBeHidden();
  });
});

test('at 1024 px the Actions column of Surveys takes at most a third of the table, its buttons whole', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 900 });
  await signInAsAdmin(page, '/admin/surveys');
  const table = page.getByRole('table', { name: 'Surveys' });
  const firstRow = table.getByRole('row').nth(1);
  await expect(firstRow).toBeVisible();
  const whole = await box(table);
  const actions = await box(table.getByRole('columnheader', { name: 'Actions' }));
  expect(actions.width).toBeLessThanOrEqual(Math.min(whole.width, 1024) / 3);
  expect(actions.x + actions.width).toBeLessThanOrEqual(1024);
  const cell = await box(firstRow.getByRole('cell').last());
  const buttons = await firstRow.getByRole('cell').last().getByRole('button').all();
  expect(buttons.length).toBeGreaterThan(3);
  for (const button of buttons) {
    const b = await box(button);
    // Each button lies whole inside its cell: wrapped, never cut.
    expect(b.x).toBeGreaterThanOrEqual(cell.x);
    expect(b.x + b.width).toBeLessThanOrEqual(cell.x + cell.width);
    expect(b.y + b.height).toBeLessThanOrEqual(cell.y + cell.height);
  }
});
