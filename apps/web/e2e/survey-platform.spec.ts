import { expect, test } from '@playwright/test';
import { collectConsoleErrors, signInAsAdmin } from './support.ts';

test('Survey Platform: a feed is created, a CSV with one bad row is validated (the row’s error shown, nothing imported), then run: the rest is imported and the run’s counts shown', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  // Names and contacts of their own per attempt, so a retry counts only its own rows.
  const tag = `${Date.now().toString(36)}${test.info().retry}`;
  const name = `Invoices ${tag}`;
  await signInAsAdmin(page);
  await page.goto('/admin/survey-platform');
  const table = page.getByRole('table', { name: 'Feeds' });

  await page.getByRole('button', { name: 'Create feed' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create feed' });
  await drawer.getByRole('textbox', { name: 'Feed name' }).fill(name);
  await expect(drawer.getByRole('combobox', { name: 'Source system' })).toHaveValue('CSV upload');
  // A required field left out is refused on its field, as the form labels it.
  await drawer.getByRole('button', { name: 'Create feed' }).click();
  await expect(drawer.getByText('The Fixed location field is required when the location is One location')).toBeVisible();
  await drawer.getByRole('combobox', { name: 'Survey' }).click();
  await page.getByRole('option').first().click();
  await drawer.getByRole('combobox', { name: 'Fixed location' }).click();
  await page.getByRole('option').first().click();
  // A new feed's mapping reads the sample template's headers.
  await expect(drawer.getByRole('combobox', { name: 'First name column' })).toHaveValue('first_name');
  await drawer.getByRole('button', { name: 'Create feed' }).click();
  await expect(drawer).toHaveCount(0);

  const row = table.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('CSV upload');
  await row.getByRole('button', { name: `Upload CSV to ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Upload CSV to ${name}` });
  const csv = [
    'first_name,last_name,email,phone,transaction_id,transaction_date',
    `Alex,Rivera,alex.${tag}@example.com,,A-${tag},2026-11-20`,
    `Sam,Lee,,555-12,B-${tag},2026-11-20`,
    `Kim,Park,kim.${tag}@example.com,,C-${tag},2026-11-21`,
  ].join('\r\n');
  await dialog.locator('input[type="file"]').setInputFiles({ name: `invoices-${tag}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });

  await dialog.getByRole('button', { name: 'Validate file' }).click();
  const result = dialog.getByRole('status');
  await expect(result).toContainText('3 rows read: 2 valid, 1 with errors. Nothing was imported.');
  const rowErrors = dialog.getByRole('table', { name: 'Row errors' });
  await expect(rowErrors.getByRole('row', { name: '2 phone The Phone field must be a valid phone number' })).toBeVisible();

  await dialog.getByRole('button', { name: 'Run import' }).click();
  await expect(result).toContainText('Run Partial');
  // The two good rows became survey requests (scheduled, or skipped by a rule with its reason); the bad one is refused.
  await expect(result).toContainText(/Read 3 · Accepted \d · Skipped \d · Invalid 1 · Scheduled \d/);
  const counts = (await result.textContent()) ?? '';
  const [, accepted, skipped] = /Accepted (\d) · Skipped (\d)/.exec(counts) ?? [];
  expect(Number(accepted) + Number(skipped)).toBe(2);
  await expect(rowErrors.getByRole('row', { name: '2 phone The Phone field must be a valid phone number' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();

  await expect(row).toContainText(`invoices-${tag}.csv`);
  await expect(row).toContainText(new RegExp(`${accepted}/${skipped}/1`));
  expect(errors).toEqual([]);
});
