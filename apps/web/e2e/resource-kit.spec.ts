import { readFileSync } from 'node:fs';
import { parseCsv } from '@admin/shared';
import { expect, test } from './fixtures.ts';
import { signInAsAdmin, uniqueSuffix } from './support.ts';

// Screens drawn from a resource definition (Products is one): the filters the definition names,
// options found on the server as the user types, and one text per cell on screen and in the CSV.

test('Products: the Category filter finds a category by typing, and the CSV says what the table says', async ({ page }) => {
  // This attempt's own product, code (unique per client) and category: a retry on the same server
  // still has the first attempt's product, and the category filter then finds this one alone.
  const suffix = uniqueSuffix();
  const name = `Wheel alignment ${suffix}`;
  const code = `ALIGN-E2E-${suffix}`;
  const category = `Wheel work ${suffix}`;
  await signInAsAdmin(page, '/admin/product');
  const table = page.getByRole('table', { name: 'Products' });
  await page.getByRole('button', { name: 'Create product' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create product' });
  await drawer.getByRole('textbox', { name: 'Name' }).fill(name);
  await drawer.getByRole('textbox', { name: 'Code' }).fill(code);
  await drawer.getByRole('textbox', { name: 'Category' }).fill(category);
  await drawer.getByRole('button', { name: 'Create product' }).click();
  await expect(table.getByRole('row', { name })).toBeVisible();

  const answered = page.waitForResponse((r) => r.url().includes('/api/product/options/category') && r.url().includes('q=whe'));
  await page.getByRole('combobox', { name: 'Category' }).click();
  await page.keyboard.type('whe');
  await answered;
  await page.getByRole('option', { name: category, exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`category=Wheel(\\+|%20)work(\\+|%20)${suffix}`));
  // The header and this attempt's product: the category is its own.
  await expect(table.getByRole('row')).toHaveCount(2);

  const row = table.getByRole('row', { name });
  await row.getByRole('button', { name: `Pause ${name}` }).click();
  await page
    .getByRole('dialog', { name: `Pause ${name}` })
    .getByRole('button', { name: 'Pause' })
    .click();
  await expect(row).toContainText('Paused');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const records = parseCsv(readFileSync((await (await download).path()) ?? '', 'utf8'));
  const header = records[0] ?? [];
  const line = records.find((r) => r.includes(code)) ?? [];
  expect(records).toHaveLength(2);
  expect(line[header.indexOf('Status')]).toBe('Paused');
  expect(line[header.indexOf('Category')]).toBe(category);
});

test('On a phone, an empty list says so where it can be seen: the message and its button in view, not centred across the wide table', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsAdmin(page, '/admin/survey-platform');
  await page.getByRole('searchbox', { name: 'Search' }).fill('zzz-no-such-feed');
  // On a phone the list is cards (docs/decisions/040): the message stands in for them.
  await expect(page.getByRole('table')).toHaveCount(0);
  const message = page.getByText(/No feeds .* match these filters/);
  await expect(message).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('button', { name: 'Create feed' }).last()).toBeInViewport({ ratio: 1 });
});
