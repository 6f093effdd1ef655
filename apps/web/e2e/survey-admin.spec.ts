import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, signInAsAdmin } from './support.ts';

/** Screenshots for a person to look at, when asked for (`SHOTS_DIR=/tmp/shots`). */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

const CLIENT = 'Summit Heating & Air';

test("Survey Admin: a client's settings are edited with §8's rules, its sender domain's records shown, a test e-mail sent and the defaults restored", async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAsAdmin(page, '/admin/surveys-admin');
  // A retry on the same server meets what its first attempt saved (and choosing the saved Default
  // survey again would clear it): like the first, it starts from the platform defaults.
  const api = await apiOf(page);
  const listed = await api.get<{ data: { id: number; client_name: string; updated_at: string }[] }>(
    `/api/surveys-admin?q=${encodeURIComponent(CLIENT)}`,
  );
  const settings = listed.data.find((r) => r.client_name === CLIENT);
  if (!settings) throw new Error(`${CLIENT} is not in Survey Admin`);
  await api.post(`/api/surveys-admin/${settings.id}/reset`, { updated_at: settings.updated_at }, 200);
  await page.reload();
  const table = page.getByRole('table', { name: 'Survey settings' });
  const row = table.getByRole('row', { name: new RegExp(CLIENT) });
  await expect(row).toContainText('21:00–08:00');
  await expect(page.getByRole('button', { name: /^Create/ })).toHaveCount(0);

  await row
    .getByRole('button', { name: `Edit survey settings of ${CLIENT}` })
    .filter({ hasText: 'Edit' })
    .click();
  const drawer = page.getByRole('dialog', { name: `Edit survey settings of ${CLIENT}` });
  await expect(drawer.getByRole('textbox', { name: 'From name' })).toHaveValue(CLIENT);
  await drawer.getByRole('textbox', { name: 'From email' }).fill('surveys@summit.test');
  await drawer.getByRole('textbox', { name: 'Sending domain' }).fill('mail.summit.test');
  await drawer.getByRole('textbox', { name: 'Over-survey days' }).fill('400');
  await drawer.getByRole('checkbox', { name: 'Sun' }).check();
  await drawer.getByRole('textbox', { name: 'SMS sender' }).fill('12345');
  await drawer.getByRole('checkbox', { name: 'SMS enabled' }).check();
  await drawer.getByRole('textbox', { name: 'TCPA consent source' }).fill('');
  await drawer.getByRole('button', { name: 'Save changes' }).click();
  await expect(drawer.getByText('The Over-survey days field must be between 0 and 365')).toBeVisible();
  await drawer.getByRole('textbox', { name: 'Over-survey days' }).fill('60');
  await drawer.getByRole('button', { name: 'Save changes' }).click();
  await expect(drawer.getByText('The TCPA consent source field is required when SMS enabled is ticked')).toBeVisible();
  await drawer.getByRole('textbox', { name: 'TCPA consent source' }).fill('Checkbox on the booking form');
  // The Default survey is one of the client's surveys, searched on the server.
  await drawer.getByRole('combobox', { name: 'Default survey' }).click();
  const first = page.getByRole('option').first();
  await expect(first).toBeVisible();
  const survey = (await first.innerText()).trim();
  await page.getByRole('option', { name: survey, exact: true }).click();
  await expect(drawer.getByRole('combobox', { name: 'Default survey' })).toHaveValue(survey);
  await shot(page, 'survey-admin-form-1440');
  await drawer.getByRole('button', { name: 'Save changes' }).click();
  await expect(drawer).toHaveCount(0);
  await expect(row).toContainText('surveys@summit.test · mail.summit.test');
  await expect(row).toContainText('60');
  await expect(row).toContainText(survey);

  // Verify sender domain: the records to add, each copyable, with what DNS holds (nothing, for a test domain).
  await row.getByRole('button', { name: `More actions for ${CLIENT}` }).click();
  await page.getByRole('menuitem', { name: 'Verify sender domain' }).click();
  const verify = page.getByRole('dialog', { name: `Verify sender domain of ${CLIENT}` });
  await verify.getByRole('button', { name: 'Show records and check DNS' }).click();
  const records = verify.getByRole('table', { name: 'DNS records to add' });
  await expect(records.getByRole('row')).toHaveCount(6, { timeout: 15_000 });
  await expect(records).toContainText('include:amazonses.com');
  await expect(records).toContainText('._domainkey.mail.summit.test');
  await expect(records).toContainText('_dmarc.mail.summit.test');
  await expect(records.getByRole('button', { name: /^Copy DMARC value/ })).toBeVisible();
  await expect(verify.getByText('5 of 5 records not found yet', { exact: false })).toBeVisible();
  await shot(page, 'survey-admin-verify-1440');
  await verify.getByRole('button', { name: 'Close', exact: true }).click();

  // Send test email asks for the address; the message is in Tracking Logs.
  await row.getByRole('button', { name: `More actions for ${CLIENT}` }).click();
  await page.getByRole('menuitem', { name: 'Send test email' }).click();
  const test = page.getByRole('dialog', { name: `Send test email for ${CLIENT}` });
  await test.getByRole('textbox', { name: 'To' }).fill('not-an-address');
  await test.getByRole('button', { name: 'Send test email' }).click();
  await expect(test.getByText('The To field must be a valid email')).toBeVisible();
  await test.getByRole('textbox', { name: 'To' }).fill('owner@summit.test');
  await test.getByRole('button', { name: 'Send test email' }).click();
  const sent = page.getByText(`Test e-mail of ${CLIENT} sent; it is in Tracking Logs.`);
  await expect(sent).toBeVisible();
  // The toast leaves on its own; until then it may cover the row's menu at the bottom right.
  await expect(sent).toHaveCount(0, { timeout: 15_000 });

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'survey-admin-list-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, 'survey-admin-list-1440');

  // Reset asks first, then the client is back on the platform defaults.
  await row.getByRole('button', { name: `More actions for ${CLIENT}` }).click();
  await page.getByRole('menuitem', { name: 'Reset to platform defaults' }).click();
  const confirm = page.getByRole('dialog', { name: `Reset ${CLIENT} to platform defaults?` });
  await confirm.getByRole('button', { name: 'Reset to platform defaults' }).click();
  await expect(row).toContainText('Platform sender');
  await expect(row).toContainText('90');
  expect(errors).toEqual([]);
});
