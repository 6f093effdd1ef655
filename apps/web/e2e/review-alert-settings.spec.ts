import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, listRows, signInAsAdmin } from './support.ts';

const LIST = 'Review alert rules';

// Review Alert Settings (issue 21, item 5; domain.md §11): the form names each problem beside its
// field, then a rule is made, duplicated, paused and tested; on a phone the list is cards.

test('Review Alert Settings at 1440 px: the form names each problem beside its field, then a rule is made, duplicated, paused and tested', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsAdmin(page, '/admin/review-alert-settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Review Alert Settings' })).toBeVisible();
  await expect(listRows(page, LIST).filter({ hasText: '1–2 star reviews, instant' }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Create review alert rule' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create review alert rule' });
  // Facebook's choice shows only once Facebook is a site; the send time only for a digest.
  await expect(drawer.getByRole('checkbox', { name: 'Not recommended' })).toHaveCount(0);
  await expect(drawer.getByRole('textbox', { name: 'Send time' })).toHaveCount(0);
  await drawer.getByRole('checkbox', { name: 'Facebook' }).check();
  await expect(drawer.getByRole('checkbox', { name: 'Not recommended' })).toBeVisible();
  await drawer.getByRole('textbox', { name: 'Lowest rating' }).fill('4');
  await drawer.getByRole('textbox', { name: 'Highest rating' }).fill('2');
  await drawer.getByRole('combobox', { name: 'Frequency' }).click();
  await page.getByRole('option', { name: 'Weekly digest' }).click();
  await drawer.getByRole('button', { name: 'Create review alert rule' }).click();
  await expect(drawer.getByRole('textbox', { name: 'Rule' })).toHaveAttribute('aria-invalid', 'true');
  await expect(drawer.getByText('The Rule field is required')).toBeVisible();
  await expect(drawer.getByText('The Highest rating field must be 4 or more (the Lowest rating)')).toBeVisible();
  await expect(drawer.getByText('The Send time field is required for a digest')).toBeVisible();
  await expect(drawer.getByText('The Weekly day field is required for a weekly digest')).toBeVisible();
  await expect(drawer.getByText(/The Recipient users field needs at least one recipient/)).toBeVisible();

  const name = `Low stars ${Date.now()}`;
  await drawer.getByRole('textbox', { name: 'Rule' }).fill(name);
  await drawer.getByRole('textbox', { name: 'Lowest rating' }).fill('1');
  await drawer.getByRole('checkbox', { name: 'Not recommended' }).check();
  await drawer.getByRole('textbox', { name: 'Send time' }).fill('08:30');
  await drawer.getByRole('combobox', { name: 'Weekly day' }).click();
  await page.getByRole('option', { name: 'Monday' }).click();
  const emails = drawer.getByRole('textbox', { name: 'Extra emails' }).or(drawer.getByRole('combobox', { name: 'Extra emails' }));
  await emails.fill('owner@example.com');
  await emails.press('Enter');
  await drawer.getByRole('button', { name: 'Create review alert rule' }).click();
  await expect(drawer).toHaveCount(0);
  const table = page.getByRole('table', { name: LIST });
  const row = table.getByRole('row').filter({ has: page.getByRole('button', { name: `Send test of ${name}`, exact: true }) });
  await expect(row).toContainText('Google, Facebook');
  await expect(row).toContainText('1–2★; Facebook: Not recommended');
  await expect(row).toContainText('Weekly on Monday at 08:30');
  await expect(row).toContainText('Selected All');
  await expect(row).toContainText('owner@example.com');

  await row.getByRole('button', { name: `Duplicate ${name}`, exact: true }).click();
  await expect(table.getByRole('row', { name: new RegExp(`${name} \\(copy\\)`) })).toBeVisible();
  await row.getByRole('button', { name: `Pause ${name}`, exact: true }).click();
  await page
    .getByRole('dialog', { name: `Pause ${name}?` })
    .getByRole('button', { name: 'Pause' })
    .click();
  await expect(row.getByText('Paused')).toBeVisible();

  await row.getByRole('button', { name: `Send test of ${name}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Send test of ${name}` });
  await dialog.getByRole('button', { name: 'Send test alert' }).click();
  await expect(dialog.getByRole('status')).toContainText('owner@example.com');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await page.goto(`/admin/notifications/logs?recipient=${encodeURIComponent('owner@example.com')}`);
  await expect(listRows(page, 'Messages').filter({ hasText: 'Review alert' }).first()).toBeVisible();
  expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
});

test('Review Alert Settings at 390 px: a rule for Default for New User is made on a phone and listed as a card', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await signInAsAdmin(page, '/admin/review-alert-settings');
  await expect(listRows(page, LIST).first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'Create review alert rule' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create review alert rule' });
  const name = `Phone review rule ${Date.now()}`;
  await drawer.getByRole('textbox', { name: 'Rule' }).fill(name);
  await drawer.getByRole('textbox', { name: 'Highest rating' }).fill('2');
  await drawer.getByRole('combobox', { name: 'Recipient users' }).click();
  await page.getByRole('option', { name: 'Default for New User' }).click();
  await drawer.getByRole('textbox', { name: 'Rule' }).click();
  await drawer.getByRole('button', { name: 'Create review alert rule' }).click();
  await expect(drawer).toHaveCount(0);
  const card = listRows(page, LIST).filter({ hasText: name });
  await expect(card).toBeVisible();
  await expect(card).toContainText('1–2★');
  await expect(card).toContainText('Default for New User');
  // "Defaults for new users" lists the rules that name it.
  await page.getByRole('button', { name: 'Defaults for new users' }).click();
  await expect(listRows(page, LIST).filter({ hasText: name })).toBeVisible();
});
