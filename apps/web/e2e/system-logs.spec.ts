import { readFileSync } from 'node:fs';
import { parseCsv } from '@admin/shared';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, signInAsAdmin } from './support.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const dayName = (d: Date) => `${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()}`;

async function headers(page: Page): Promise<string[]> {
  return (await page.getByRole('table', { name: 'System logs' }).getByRole('columnheader').allInnerTexts()).map((t) =>
    t.replace(/[▲▼↕]/g, '').trim(),
  );
}

/** The texts of one column, found by its header (the column order is the user's choice). */
async function columnTexts(page: Page, header: string): Promise<string[]> {
  const index = (await headers(page)).indexOf(header);
  expect(index).toBeGreaterThanOrEqual(0);
  return page
    .getByRole('table', { name: 'System logs' })
    .getByRole('row')
    .locator(`td:nth-child(${index + 1})`)
    .allInnerTexts();
}

test.describe('System Logs', () => {
  test('shows warnings and errors by default, with the four states handled', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await signInAsAdmin(page, '/admin/system/logs');
    await expect(page.getByRole('heading', { level: 1, name: 'System Logs' })).toBeVisible();
    const table = page.getByRole('table', { name: 'System logs' });
    await expect(table.getByRole('row')).toHaveCount(51); // header + 50
    const levels = await columnTexts(page, 'Level');
    expect(levels.every((l) => /warn|error/i.test(l))).toBe(true);
    await page.getByRole('searchbox', { name: 'Search' }).fill('no such message anywhere');
    await expect(page.getByText('No log entries match these filters.')).toBeVisible();
    await page.getByRole('button', { name: 'Clear all filters' }).click();
    await expect(table.getByRole('row')).toHaveCount(51);
    expect(errors).toEqual([]);
  });

  test('column choice survives a reload', async ({ page }) => {
    await signInAsAdmin(page, '/admin/system/logs');
    await expect(page.getByRole('table', { name: 'System logs' }).getByRole('row')).not.toHaveCount(0);
    await page.getByRole('button', { name: 'Columns' }).click();
    const chooser = page.getByRole('group', { name: 'Choose columns' });
    await chooser.getByRole('checkbox', { name: 'Service' }).uncheck();
    await chooser.getByRole('checkbox', { name: 'Request id' }).check();
    await chooser.getByRole('button', { name: 'Move Level left' }).click();
    await expect.poll(() => headers(page)).toEqual(['Level', 'Time', 'Event', 'Message', 'Actor', 'Client', 'Request id']);
    await expect(chooser.getByRole('checkbox', { name: 'Request id' })).toBeChecked();
    await page.waitForLoadState('networkidle');
    await page.reload();
    await expect.poll(() => headers(page)).toEqual(['Level', 'Time', 'Event', 'Message', 'Actor', 'Client', 'Request id']);
  });

  test('filter by level and date range, page, open a row, and export exactly what the screen shows', async ({ page }) => {
    await signInAsAdmin(page, '/admin/system/logs');
    const table = page.getByRole('table', { name: 'System logs' });
    await expect(table.getByRole('row')).toHaveCount(51);

    // Level: only errors (deselect "warn").
    await page.getByRole('combobox', { name: 'Level' }).click();
    await page.getByRole('option', { name: 'warn', exact: true }).click();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/level=error/);
    await expect(page).not.toHaveURL(/level=warn/);

    // Date range: the first of this month to today.
    const today = new Date();
    const first = new Date(today.getFullYear(), today.getMonth(), 1);
    await page.getByRole('button', { name: 'Date range' }).click();
    await page.getByRole('button', { name: dayName(first), exact: true }).click();
    const filtered = page.waitForResponse((r) => r.url().includes('/api/system-logs?') && r.url().includes('startDate='));
    await page.getByRole('button', { name: dayName(today), exact: true }).click();
    await filtered;
    await expect(page).toHaveURL(/startDate=\d{4}-\d{2}-01/);

    const summary = page.getByText(/^Showing [\d,]+–[\d,]+ of [\d,]+/);
    await expect(page.getByLabel('Refreshing')).toHaveCount(0);
    await expect(summary).toBeVisible();
    const total = Number(/of ([\d,]+)/.exec((await summary.innerText()) ?? '')?.[1]?.replace(/,/g, ''));
    expect(total).toBeGreaterThan(0);
    const levels = await columnTexts(page, 'Level');
    expect(levels.every((l) => /error/i.test(l))).toBe(true);

    // The filters are in the URL: a reload shows the same list.
    await page.reload();
    await expect(page.getByText(/^Showing [\d,]+–[\d,]+ of [\d,]+/)).toHaveText(await summary.innerText());

    // The first row's Details button names its entry: which page is on screen.
    const firstDetails = table.getByRole('button', { name: /^Details of entry/ }).first();
    if (total > 50) {
      const pageOne = (await firstDetails.getAttribute('aria-label')) ?? '';
      await page.getByRole('button', { name: 'Next page' }).click();
      await expect(page).toHaveURL(/cursor=/);
      await expect(firstDetails).not.toHaveAttribute('aria-label', pageOne);
      const pageTwo = (await firstDetails.getAttribute('aria-label')) ?? '';
      await page.getByRole('button', { name: 'Previous page' }).click();
      await expect(page).not.toHaveURL(/cursor=/);
      // The previous page's rows stay on screen until the first page arrives: a click on a row
      // before then lands on the row the first page then puts in its place.
      await expect(firstDetails).not.toHaveAttribute('aria-label', pageTwo);
      await expect(page.getByLabel('Refreshing')).toHaveCount(0);
    }

    // The first entry by its id (its Details button names it): a new error logged meanwhile would
    // put another row first between reading the message and clicking the row.
    const firstName = (await firstDetails.getAttribute('aria-label')) ?? '';
    const firstRow = table.getByRole('row').filter({ has: page.getByRole('button', { name: firstName, exact: true }) });
    const messageColumn = (await headers(page)).indexOf('Message');
    const firstMessage = await firstRow.locator(`td:nth-child(${messageColumn + 1})`).innerText();
    expect(firstMessage).not.toBe('');
    await firstRow.getByRole('button', { name: firstName, exact: true }).click();
    await expect(page.getByRole('dialog').getByText(firstMessage)).toBeVisible();
    await page.keyboard.press('Escape');

    const screenHeaders = await headers(page);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^system-logs-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await file.path()) ?? '', 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const records = parseCsv(text);
    expect(records[0]).toEqual(screenHeaders);
    expect(records.length - 1).toBe(total);
    expect(records[1]?.[screenHeaders.indexOf('Message')]).toBe(firstMessage);
    expect(records.slice(1).every((r) => r[screenHeaders.indexOf('Level')] === 'error')).toBe(true);
  });
});
