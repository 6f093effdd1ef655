import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, listRows, setColumn, signInAsAdmin, uniqueSuffix } from './support.ts';

/** Screenshots for a person to look at, when asked for (`SHOTS_DIR=/tmp/shots`). */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

test('SMS Text: a template is written with the live counter, refused until compliant, switches to UCS-2 with an emoji, and is listed and duplicated', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  // This attempt's own template: a retry on the same server still has the first attempt's, and its copy.
  const name = `Invite after visit ${uniqueSuffix()}`;
  await signInAsAdmin(page, '/admin/sms-text');
  const table = page.getByRole('table', { name: 'SMS templates' });
  await page.getByRole('button', { name: 'Create SMS template' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create SMS template' });
  // Made a global default, the template would reach every client: the form says so while the box is ticked.
  const global = drawer.getByRole('checkbox', { name: /Global default for all clients/ });
  await expect(drawer.getByRole('note')).toHaveCount(0);
  await global.check();
  await expect(drawer.getByRole('note')).toContainText('A global default is shared by every client');
  await global.uncheck();
  await expect(drawer.getByRole('note')).toHaveCount(0);
  await drawer.getByRole('textbox', { name: 'Name' }).fill(name);
  await drawer.getByRole('combobox', { name: 'Purpose' }).click();
  await page.getByRole('option', { name: 'Survey invite' }).click();
  await expect(drawer.getByRole('combobox', { name: 'Language' })).toHaveValue('English');

  const message = drawer.getByRole('textbox', { name: 'Message' });
  const counter = drawer.getByRole('status', { name: 'Message length' });
  await message.fill('Hi {first_name}, how did we do? {link}');
  // "Hi " 3 + 12 + ", how did we do? " 17 + 23 (the short link)
  await expect(counter).toContainText('55 characters');
  await expect(counter).toContainText('GSM-7');
  await expect(counter).toContainText('1 segment');
  await expect(counter).toContainText('The Message field must include {business_name} in a survey invite');

  // Saving is held back with the rule's message on the field.
  await drawer.getByRole('button', { name: 'Create SMS template' }).click();
  await expect(message).toHaveAttribute('aria-invalid', 'true');
  await expect(drawer.getByText('The Message field must include {business_name} in a survey invite').first()).toBeVisible();

  await message.fill('Hi {first_name}, how did we do at {business_name}? {link}');
  await drawer.getByRole('group', { name: 'Insert into the message' }).getByRole('button', { name: 'Reply STOP to opt out' }).click();
  await expect(message).toHaveValue('Hi {first_name}, how did we do at {business_name}? {link} Reply STOP to opt out');
  await expect(counter).not.toContainText('The Message field');

  // One emoji switches the whole message to UCS-2, and the counter says which character did.
  await message.press('End');
  await message.pressSequentially(' 🙂');
  await expect(counter).toContainText('UCS-2');
  await expect(counter).toContainText('UCS-2 because of 🙂 (U+1F642)');
  await expect(counter).toContainText('2 segments');
  await shot(page, 'sms-text-form-1440');

  await drawer.getByRole('button', { name: 'Create SMS template' }).click();
  await expect(drawer).toHaveCount(0);
  const row = table.getByRole('row', { name });
  await expect(row).toContainText('UCS-2');
  await expect(row).toContainText('Survey invite');
  await expect(row).toContainText('Hi {first_name}, how did we do at {business_name}? {link} Re…');
  await setColumn(page, 'Has opt-out text', true);
  await expect(row).toContainText('Yes');
  await setColumn(page, 'Has opt-out text', false);

  await row.getByRole('button', { name: `Duplicate ${name}` }).click();
  await expect(table.getByRole('row', { name: `${name} (copy)` })).toBeVisible();

  // Send test: a wrong number is named on the field; a right one goes out and lands in Tracking Logs.
  await row.getByRole('button', { name: `Send test of ${name}`, exact: true }).click();
  const test = page.getByRole('dialog', { name: `Send test of ${name}` });
  await test.getByRole('textbox', { name: 'Phone' }).fill('303-555');
  await test.getByRole('button', { name: 'Send test' }).click();
  await expect(test.getByText('The Phone field must be a number in international format')).toBeVisible();
  await test.getByRole('textbox', { name: 'Phone' }).fill('+1 303 555 0142');
  await test.getByRole('button', { name: 'Send test' }).click();
  await expect(page.getByText(`Test of ${name} sent; it is in Tracking Logs.`)).toBeVisible();

  // The Encoding filter narrows to GSM-7 messages: none yet.
  await page.getByRole('combobox', { name: 'Encoding' }).click();
  await page.getByRole('option', { name: 'GSM-7' }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/encoding=gsm7/);
  await expect(table.getByRole('row', { name })).toHaveCount(0);
  expect(errors).toEqual([]);
});

for (const width of [390, 1440]) {
  test(`SMS Text at ${width} px: the screen and its form fit the width`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page, '/admin/sms-text');
    // A table, or cards on a phone (docs/decisions/040).
    await expect(listRows(page, 'SMS templates').first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await shot(page, `sms-text-${width}`);
    await page.getByRole('button', { name: 'Create SMS template' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create SMS template' });
    await drawer.getByRole('textbox', { name: 'Message' }).fill('Votre avis compte : {link} — répondez STOP pour arrêter');
    await expect(drawer.getByRole('status', { name: 'Message length' })).toContainText('UCS-2 because of — (U+2014), ê (U+00EA)');
    await shot(page, `sms-text-form-${width}`);
  });
}
