import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, listRows, rowAction, signInAsAdmin } from './support.ts';

const LIST = 'Alert rules';

/** The signed-in admin's current client's name (other specs may have switched it). */
async function currentClientName(page: Page): Promise<string> {
  const api = await apiOf(page);
  const me = await api.get<{ data: { user: { current_client_id: number } } }>('/api/user');
  const client = await api.get<{ data: { name: string } }>(`/api/clients/${me.data.user.current_client_id}`);
  return client.data.name;
}

test('Survey Alert Settings at 1440 px: the form names each problem beside its field, then a rule is made, duplicated and paused', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsAdmin(page, '/admin/survey-alert-settings');
  await expect(page.getByText('Default for New User', { exact: true }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Create alert rule' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create alert rule' });
  // The score fields show only for the triggers that read them.
  await expect(drawer.getByRole('textbox', { name: 'Lowest score' })).toHaveCount(0);
  await drawer.getByRole('combobox', { name: 'Trigger' }).click();
  await page.getByRole('option', { name: 'Score between' }).click();
  await drawer.getByRole('textbox', { name: 'Lowest score' }).fill('6');
  await drawer.getByRole('textbox', { name: 'Highest score' }).fill('3');
  await drawer.getByRole('button', { name: 'Create alert rule' }).click();
  await expect(drawer.getByRole('textbox', { name: 'Rule name' })).toHaveAttribute('aria-invalid', 'true');
  await expect(drawer.getByText('The Rule name field is required')).toBeVisible();
  await expect(drawer.getByText('The Highest score field must be 6 or more (the Lowest score)')).toBeVisible();
  await expect(drawer.getByText(/The Recipient users field needs at least one recipient/)).toBeVisible();

  const name = `Low scores ${Date.now()}`;
  await drawer.getByRole('textbox', { name: 'Rule name' }).fill(name);
  await drawer.getByRole('textbox', { name: 'Lowest score' }).fill('2');
  await drawer.getByRole('textbox', { name: 'Highest score' }).fill('5');
  const emails = drawer.getByRole('textbox', { name: 'Extra emails' }).or(drawer.getByRole('combobox', { name: 'Extra emails' }));
  await emails.fill('frontdesk@example.com');
  await emails.press('Enter');
  await drawer.getByRole('button', { name: 'Create alert rule' }).click();
  await expect(drawer).toHaveCount(0);
  const table = page.getByRole('table', { name: LIST });
  // This rule's row, not its copy's: the one whose Test button names it exactly.
  const row = table.getByRole('row').filter({ has: page.getByRole('button', { name: `Test ${name}`, exact: true }) });
  await expect(row).toContainText('Score between');
  await expect(row).toContainText('Selected All');
  await expect(row).toContainText('frontdesk@example.com');

  await row.getByRole('button', { name: `Duplicate ${name}`, exact: true }).click();
  await expect(table.getByRole('row', { name: new RegExp(`${name} \\(copy\\)`) })).toBeVisible();

  await row.getByRole('button', { name: `Pause ${name}`, exact: true }).click();
  await page
    .getByRole('dialog', { name: `Pause ${name}?` })
    .getByRole('button', { name: 'Pause' })
    .click();
  await expect(row.getByText('Paused')).toBeVisible();

  // Test answers with the engine's result, or its refusal, in the dialog.
  await row.getByRole('button', { name: `Test ${name}`, exact: true }).click();
  const testDialog = page.getByRole('dialog', { name: `Test ${name}` });
  await testDialog.getByRole('button', { name: 'Send test alert' }).click();
  await expect(testDialog.getByRole('status').or(testDialog.getByRole('alert'))).toBeVisible();
  await testDialog.getByRole('button', { name: 'Close', exact: true }).click();
  expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
});

test('Survey Alert Settings at 390 px: a rule for Default for New User is made on a phone and listed as a card', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await signInAsAdmin(page, '/admin/survey-alert-settings');
  await expect(listRows(page, LIST).first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'Create alert rule' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create alert rule' });
  const name = `Phone rule ${Date.now()}`;
  await drawer.getByRole('textbox', { name: 'Rule name' }).fill(name);
  await drawer.getByRole('combobox', { name: 'Recipient users' }).click();
  await page.getByRole('option', { name: 'Default for New User' }).click();
  await drawer.getByRole('textbox', { name: 'Rule name' }).click();
  await drawer.getByRole('button', { name: 'Create alert rule' }).click();
  await expect(drawer).toHaveCount(0);
  const card = listRows(page, LIST).filter({ hasText: name });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Detractor (NPS 0–6)');
});

test('Client Manager Users panel: a user added to the client joins its Default for New User rules, shown as joined by default', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsAdmin(page);
  const client = await currentClientName(page);
  const row = listRows(page, 'Clients').filter({ hasText: client }).first();
  await rowAction(row, `Users of ${client}`);
  const panel = page.getByRole('dialog', { name: `Users of ${client}` });
  await panel.getByRole('button', { name: 'Add user' }).click();
  const stamp = Date.now();
  const person = `Pat Lee ${stamp}`;
  await panel.getByRole('textbox', { name: 'Name' }).fill(person);
  await panel.getByRole('textbox', { name: 'E-mail' }).fill('not-an-address');
  await panel.getByRole('button', { name: 'Add user' }).click();
  await expect(panel.getByText('The E-mail field must be a valid email')).toBeVisible();
  await panel.getByRole('textbox', { name: 'E-mail' }).fill(`pat.${stamp}@example.com`);
  await panel.getByRole('textbox', { name: 'Mobile phone' }).fill('+1 303 555 0142');
  await panel.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Manager' }).click();
  await panel.getByRole('button', { name: 'Add user' }).click();
  const card = panel.getByRole('article', { name: person });
  await expect(card).toContainText('Manager');
  await expect(card).toContainText('Active');
  await page.keyboard.press('Escape');

  await page.goto('/admin/survey-alert-settings');
  const rule = listRows(page, LIST).filter({ hasText: 'Detractors to the owner' }).first();
  await expect(rule).toContainText(`${person} (joined by default)`);
});
