import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, signInAsAdmin } from './support.ts';

// The flow for one respondent, as a staff member and a customer would do it: build a
// survey, send a test invitation to an e-mail, read the link from the message in the outbox
// (Tracking Logs), answer on the public page (a second answer is refused), find the response in
// Survey Manager; then the customer unsubscribes with the message's other link, and the next
// invitation to the address is refused as opted out, in the dialog and in Tracking Logs.

test('a survey is built, a test invitation sent, answered from the link in the outbox, and the response shows in Survey Manager; after unsubscribing, the next invitation is refused', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const errors = collectConsoleErrors(page);
  const name = `Flow NPS ${Date.now()}`;
  // An address of this attempt's own: a retry must not find the first attempt's message or opt-out.
  const customer = `flow.${Date.now().toString(36)}`;
  await signInAsAdmin(page, '/admin/surveys');
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

  const sendTest = async () => {
    const row = page.getByRole('table', { name: 'Surveys' }).getByRole('row', { name: new RegExp(name) });
    await row.getByRole('button', { name: `Send test of ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Send test of ${name}` });
    await dialog.getByRole('textbox', { name: 'Send to' }).fill(`${customer}@example.com`);
    await dialog.getByRole('button', { name: 'Send test' }).click();
    return dialog;
  };
  const sent = await sendTest();
  await expect(sent.getByRole('status')).toContainText('Test sent');
  await sent.getByRole('button', { name: 'Close', exact: true }).click();

  // The invitation, as stored in the outbox: the one message to this address, its text holding the links.
  await page.goto('/admin/notifications/logs');
  const messages = page.getByRole('table', { name: 'Messages' });
  await page.getByRole('textbox', { name: 'Recipient' }).fill(customer);
  await expect(page).toHaveURL(new RegExp(`recipient=${customer.replace('.', '\\.')}`));
  await expect(messages.getByRole('row')).toHaveCount(2);
  const invitation = messages.getByRole('row', { name: /How was your visit, Alex\?/ });
  await expect(invitation).toContainText('f***@example.com');
  await invitation.getByRole('button', { name: /^Details of message/ }).click();
  const detail = page.getByRole('dialog', { name: /message/i });
  await expect(detail).toContainText('Tell us in one minute:');
  const text = await detail.innerText();
  const link = /https?:\/\/\S+\/s\/[A-Za-z0-9_-]+/.exec(text)?.[0];
  expect(link, 'the survey link in the message').toBeTruthy();
  const unsubscribe = /https?:\/\/\S+\/u\/[A-Za-z0-9_-]+/.exec(text)?.[0];
  expect(unsubscribe, 'the unsubscribe link in the message').toBeTruthy();

  // The customer answers.
  await page.goto(link ?? '');
  await page.getByRole('radio', { name: '9', exact: true }).first().check();
  await page.getByRole('textbox', { name: 'What could we do better?' }).fill('Shorter wait at the front desk');
  await page.getByRole('button', { name: 'Send my answers' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you, Alex!' })).toBeVisible();
  // One response per link: the link again says so and offers no form.
  await page.goto(link ?? '');
  await expect(page.getByRole('heading', { name: 'You have already answered this survey' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send my answers' })).toHaveCount(0);
  await expect(page.getByRole('radio')).toHaveCount(0);

  await page.goto('/admin/survey-manager');
  const response = page.getByRole('table', { name: 'Responses' }).getByRole('row', { name: new RegExp(name) });
  await expect(response).toContainText('9');
  await expect(response).toContainText('Promoter');
  await expect(response).toContainText('Shorter wait at the front desk');

  // The customer unsubscribes with the message's other link, and confirms on the page.
  await page.goto(unsubscribe ?? '');
  await expect(page.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible();
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();

  // The next invitation to the address is refused: in the dialog, and as its own row in Tracking Logs.
  await page.goto('/admin/surveys');
  const refused = await sendTest();
  await expect(refused.getByRole('status')).toContainText('Not sent (suppressed)');
  await expect(refused.getByRole('status')).toContainText('The address opted out (unsubscribe_link)');
  await refused.getByRole('button', { name: 'Close', exact: true }).click();
  await page.goto(`/admin/notifications/logs?recipient=${customer}`);
  await expect(messages.getByRole('row')).toHaveCount(3);
  const refusal = messages.getByRole('row').filter({ hasText: 'suppressed' });
  await expect(refusal).toContainText('How was your visit, Alex?');
  await expect(refusal).toContainText('The address opted out');
  expect(errors).toEqual([]);
});
