import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, listRows, signInAsAdmin, switchClient, uniqueSuffix } from './support.ts';

/** Screenshots for a person to look at, when asked for (`SHOTS_DIR=/tmp/shots`). */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

test('Surveys: a survey is built with two questions in the tabs, refused until its rules hold, saved, and a test invitation is sent to an e-mail', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  // This attempt's own survey: a retry on the same server still has the first attempt's, and its copy.
  const name = `After-visit NPS ${uniqueSuffix()}`;
  await signInAsAdmin(page, '/admin/surveys');
  const table = page.getByRole('table', { name: 'Surveys' });
  await page.getByRole('button', { name: 'Create survey' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create survey' });

  // General
  await drawer.getByRole('textbox', { name: 'Name' }).fill(name);
  await expect(drawer.getByRole('combobox', { name: 'Type' })).toHaveValue('NPS');
  await drawer.getByRole('combobox', { name: 'Locations' }).click();
  await page.getByRole('option').first().click();
  await page.keyboard.press('Escape');

  // Questions: the NPS starter has the key metric and a comment; a third is added, moved up, then removed.
  await drawer.getByRole('tab', { name: 'Questions' }).click();
  await expect(drawer.getByRole('group', { name: /^Question \d$/ })).toHaveCount(2);
  await drawer.getByRole('textbox', { name: 'Question 2 text' }).fill('What could we do better?');
  await drawer.getByRole('button', { name: 'Add question' }).click();
  await drawer.getByRole('textbox', { name: 'Question 3 text' }).fill('Would you come back?');
  await drawer.getByRole('button', { name: 'Move question 3 up' }).click();
  await expect(drawer.getByRole('textbox', { name: 'Question 2 text' })).toHaveValue('Would you come back?');
  await drawer.getByRole('button', { name: 'Remove question 2' }).click();
  await expect(drawer.getByRole('group', { name: /^Question \d$/ })).toHaveCount(2);
  // No key metric: the save is held back and the Questions tab says why.
  await drawer.getByRole('checkbox', { name: 'Key metric' }).first().uncheck();

  // Messaging: a body without the unsubscribe link is refused on its field.
  await drawer.getByRole('tab', { name: 'Messaging' }).click();
  await drawer.getByRole('textbox', { name: 'Email subject' }).fill('How was {location_name}?');
  await drawer.getByRole('textbox', { name: 'Email body' }).fill('Hi {first_name}, tell us: {survey_link}');
  // The sender name starts as the client's from name; a blank Reply-to inherits Survey Admin's.
  await expect(drawer.getByRole('textbox', { name: 'Sender name' })).not.toHaveValue('');
  await expect(drawer.getByText(/^Blank: (none \(Survey Admin sets none\)|Survey Admin's .+@.+)$/)).toBeVisible();
  await drawer.getByRole('textbox', { name: 'Sender name' }).fill('Acme Dental');
  await drawer.getByRole('button', { name: 'Create survey' }).click();
  await expect(drawer.getByText('The Email body must contain {unsubscribe_link}')).toBeVisible();
  await drawer
    .getByRole('textbox', { name: 'Email body' })
    .fill('Hi {first_name}, tell us: {survey_link}\nUnsubscribe: {unsubscribe_link}');
  await drawer.getByRole('button', { name: 'Create survey' }).click();
  await expect(drawer.getByRole('tab', { name: /Questions/ })).toHaveAttribute('aria-selected', 'true');
  await expect(drawer.getByText('Mark exactly one question as the key metric')).toBeVisible();
  await drawer.getByRole('checkbox', { name: 'Key metric' }).first().check();

  // Rules: the defaults of §2.
  await drawer.getByRole('tab', { name: 'Rules' }).click();
  await expect(drawer.getByRole('textbox', { name: 'Send delay (hours)' })).toHaveValue('24');
  await expect(drawer.getByRole('textbox', { name: 'Link expires after (days)' })).toHaveValue('30');
  await expect(drawer.getByRole('textbox', { name: 'Over-survey protection (days)' })).toHaveValue('');
  await expect(drawer.getByText(/^Blank: Survey Admin's \d+ days$/)).toBeVisible();
  await shot(page, 'surveys-form-1440');
  await drawer.getByRole('button', { name: 'Create survey' }).click();
  await expect(drawer).toHaveCount(0);

  const row = table.getByRole('row', { name });
  await expect(row).toContainText('NPS');
  await expect(row).toContainText('Email');

  // Send test to an e-mail: the link is shown, and the message is in Tracking Logs.
  await row.getByRole('button', { name: `Send test of ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Send test of ${name}` });
  await dialog.getByRole('textbox', { name: 'Send to' }).fill('not an address');
  await dialog.getByRole('button', { name: 'Send test' }).click();
  await expect(dialog.getByText('The Send to field must be an email or a phone')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Send to' }).fill('pat@example.com');
  await dialog.getByRole('button', { name: 'Send test' }).click();
  await expect(dialog.getByRole('status')).toContainText('Test sent');
  await expect(dialog.getByRole('link', { name: /\/s\/[A-Za-z0-9_-]{43}$/ })).toBeVisible();
  await shot(page, 'surveys-send-test-1440');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  // Preview: the e-mail as sent, the SMS (none chosen: said so) and the public page, in sandboxed frames.
  await row.getByRole('button', { name: `Preview ${name}` }).click();
  const preview = page.getByRole('dialog', { name: `Preview of ${name}` });
  await expect(preview.getByRole('tab', { name: 'E-mail' })).toHaveAttribute('aria-selected', 'true');
  await expect(preview.getByText(/^How was .+\?$/)).toBeVisible();
  // Its links open in a new tab (components/message-frame.tsx), nothing else.
  await expect(preview.getByTitle('Rendered e-mail')).toHaveAttribute('sandbox', 'allow-popups allow-popups-to-escape-sandbox');
  // Read from the frames' documents as given: a sandboxed frame refuses the test runner's scripts too.
  await expect(preview.getByTitle('Rendered e-mail')).toHaveAttribute('srcdoc', /<a href="[^"]+\/s\/preview-sample-link"/);
  await expect(preview.getByText(/^Hi Alex, tell us: http/)).toBeVisible();
  await shot(page, 'surveys-preview-email-1440');
  await preview.getByRole('tab', { name: 'SMS' }).click();
  await expect(preview.getByText('This survey has no SMS template')).toBeVisible();
  await preview.getByRole('tab', { name: 'Landing page' }).click();
  const landing = preview.getByTitle('Landing page');
  await expect(landing).toHaveAttribute('sandbox', '');
  await expect(landing).toHaveAttribute('srcdoc', new RegExp(`<h1>${name}</h1>`));
  await expect(landing).toHaveAttribute('srcdoc', /Hi Alex, thank you for choosing/);
  await expect(landing).toHaveAttribute('srcdoc', /Content-Security-Policy" content="default-src 'none'/);
  await shot(page, 'surveys-preview-landing-1440');
  await page.setViewportSize({ width: 390, height: 900 });
  await expect(landing).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await shot(page, 'surveys-preview-landing-390');
  await preview.getByRole('tab', { name: 'E-mail' }).click();
  await shot(page, 'surveys-preview-email-390');
  await page.keyboard.press('Escape');
  await expect(preview).toHaveCount(0);
  await page.setViewportSize({ width: 1440, height: 900 });

  // Copy to another client: the clients are found on the server as the user types, the survey's own not offered.
  const own = await page.getByRole('combobox', { name: 'Current client' }).inputValue();
  await row.getByRole('button', { name: `Duplicate ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Copy to another client…' }).click();
  const copyTo = page.getByRole('dialog', { name: `Copy ${name} to another client` });
  await copyTo.getByRole('combobox', { name: 'Client' }).click();
  await expect(page.getByRole('option').first()).toBeVisible();
  await copyTo.getByRole('combobox', { name: 'Client' }).fill(own);
  await expect(page.getByText('No match')).toBeVisible();
  await copyTo.getByRole('button', { name: 'Cancel' }).click();
  await expect(copyTo).toHaveCount(0);

  await row.getByRole('button', { name: `Duplicate ${name}` }).click();
  await page.getByRole('menuitem', { name: /^Copy for / }).click();
  await expect(table.getByRole('row', { name: `${name} (copy)` }).first()).toBeVisible();

  // The Clients filter: Selected All lists every client's surveys, each naming its client.
  const current = await page.getByRole('combobox', { name: 'Current client' }).inputValue();
  await expect(page.getByText(`Client: ${current}`)).toBeVisible();
  await page.getByRole('combobox', { name: 'Clients' }).click();
  await page.getByRole('option', { name: 'Selected All' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByText('Clients: all clients')).toBeVisible();
  await expect(page).toHaveURL(/client=selected/);
  await expect(table.getByRole('columnheader', { name: 'Client' })).toBeVisible();
  expect(errors).toEqual([]);
});

test("Surveys: another client's survey, shown by the Clients filter, names its SMS template by the template's name, never by its id", async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  await signInAsAdmin(page);
  const api = await apiOf(page);
  const own = await page.getByRole('combobox', { name: 'Current client' }).inputValue();
  const stamp = Date.now();
  const template = await api.post<{ data: { id: number } }>('/api/sms-templates', {
    name: `Own invite ${stamp}`,
    purpose: 'survey_invite',
    language: 'en',
    body: 'Hi {first_name}, how did we do at {business_name}? {link} Reply STOP to opt out',
  });
  const locations = await api.get<{ data: { _id: string }[] }>('/api/endpoints?perPage=1');
  const name = `Texted NPS ${stamp}`;
  await api.post('/api/surveys', {
    name,
    type: 'nps',
    channel: 'sms',
    location_ids: locations.data.map((l) => l._id),
    questions: [{ id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', required: true, is_key_metric: true }],
    sms_template_id: template.data.id,
    sender_name: 'Texted Test',
  });
  const clients = await api.get<{ data: { name: string }[] }>('/api/create-client?perPage=5');
  const other = clients.data.map((c) => c.name).find((n) => n !== own);
  if (!other) throw new Error('The demo data has a second client');
  await switchClient(page, other);

  await page.goto('/admin/surveys?client=selected%20all');
  await page.getByRole('searchbox', { name: 'Search' }).fill(name);
  const table = page.getByRole('table', { name: 'Surveys' });
  await table
    .getByRole('button', { name: `Edit ${name}` })
    .first()
    .click();
  const drawer = page.getByRole('dialog', { name: `Edit ${name}` });
  await drawer.getByRole('tab', { name: 'Messaging' }).click();
  const select = drawer.getByRole('combobox', { name: 'SMS template' });
  await expect(select).toBeDisabled();
  await expect(select).toHaveValue(`Own invite ${stamp}`);
  await drawer.getByRole('button', { name: 'Close panel' }).click();
  await switchClient(page, own);
  expect(errors).toEqual([]);
});

for (const width of [390, 1440]) {
  test(`Surveys at ${width} px: the list and the builder fit the width`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page, '/admin/surveys');
    // A table, or cards on a phone (docs/decisions/040).
    await expect(listRows(page, 'Surveys').first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await shot(page, `surveys-${width}`);
    await page.getByRole('button', { name: 'Create survey' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create survey' });
    await drawer.getByRole('tab', { name: 'Questions' }).click();
    await expect(drawer.getByRole('textbox', { name: 'Question 1 text' })).toBeVisible();
    await shot(page, `surveys-form-${width}`);
  });
}
