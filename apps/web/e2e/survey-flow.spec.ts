import { expect, test } from '@playwright/test';
import { signInAsAdmin } from './support.ts';

// The flow for one respondent, as a staff member and a customer would do it: build a
// survey, send a test invitation to an e-mail, read the link from the message in the outbox
// (Tracking Logs), answer on the public page, and find the response in Survey Manager.

test('a survey is built, a test invitation sent, answered from the link in the outbox, and the response shows in Survey Manager', async ({
  page,
}) => {
  const name = `Flow NPS ${Date.now()}`;
  await signInAsAdmin(page);
  await page.goto('/admin/surveys');
  await page.getByRole('button', { name: 'Create survey' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create survey' });
  await drawer.getByRole('textbox', { name: 'Name' }).fill(name);
  await drawer.getByRole('combobox', { name: 'Locations' }).click();
  await page.getByRole('option').first().click();
  await page.keyboard.press('Escape');
  await drawer.getByRole('tab', { name: 'Questions' }).click();
  await drawer.getByRole('textbox', { name: 'Question 2 text' }).fill('What could we do better?');
  await drawer.getByRole('tab', { name: 'Messaging' }).click();
  await drawer.getByRole('textbox', { name: 'Email subject' }).fill('How was your visit, {first_name}?');
  await drawer.getByRole('textbox', { name: 'Email body' }).fill('Tell us in one minute: {survey_link}\nUnsubscribe: {unsubscribe_link}');
  await drawer.getByRole('textbox', { name: 'Sender name' }).fill('Flow Test');
  await drawer.getByRole('button', { name: 'Create survey' }).click();
  await expect(drawer).toHaveCount(0);

  const row = page.getByRole('table', { name: 'Surveys' }).getByRole('row', { name: new RegExp(name) });
  await row.getByRole('button', { name: `Send test of ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Send test of ${name}` });
  await dialog.getByRole('textbox', { name: 'Send to' }).fill('flow.customer@example.com');
  await dialog.getByRole('button', { name: 'Send test' }).click();
  await expect(dialog.getByRole('status')).toContainText('Test sent');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The invitation, as stored in the outbox: the newest message, its text holding the link.
  await page.goto('/admin/notifications/logs');
  const messages = page.getByRole('table', { name: 'Messages' });
  const newest = messages.getByRole('row', { name: /How was your visit, Alex\?/ }).first();
  await expect(newest).toContainText('f***@example.com');
  await newest.getByRole('button', { name: /^Details of message/ }).click();
  const detail = page.getByRole('dialog', { name: /message/i });
  await expect(detail).toContainText('Tell us in one minute:');
  const text = await detail.innerText();
  const link = /https?:\/\/\S+\/s\/[A-Za-z0-9_-]+/.exec(text)?.[0];
  expect(link, 'the survey link in the message').toBeTruthy();

  // The customer answers.
  await page.goto(link ?? '');
  await page.getByRole('radio', { name: '9', exact: true }).first().check();
  await page.getByRole('textbox', { name: 'What could we do better?' }).fill('Shorter wait at the front desk');
  await page.getByRole('button', { name: 'Send my answers' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you, Alex!' })).toBeVisible();
  // One response per link.
  await page.goto(link ?? '');
  await expect(page.getByRole('heading', { name: 'You have already answered this survey' })).toBeVisible();

  await page.goto('/admin/survey-manager');
  const response = page.getByRole('table', { name: 'Responses' }).getByRole('row', { name: new RegExp(name) });
  await expect(response).toContainText('9');
  await expect(response).toContainText('Promoter');
  await expect(response).toContainText('Shorter wait at the front desk');
});
