import type { Page } from '@playwright/test';
import { SES_STYLE_DOMAIN } from '../../server/test/messaging-listeners.ts';
import { type Harness, ORIGIN, openHarness } from './deliverability-harness.ts';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, listRows, rowAction, signInAsAdmin, WIDTHS } from './support.ts';

// Issue 22, "Done when": against a server of its own (deliverability-harness.ts) sending e-mail over
// SMTP and SMS over a Twilio-compatible API, a signed SES bounce for a message the SMTP listener took
// turns its Tracking Logs row to Bounced and suppresses the address on SES Bounce; the next invitation
// is skipped as suppressed; releasing the address (the question and a reason) lets the next one go;
// a signed inbound STOP opts the phone out and its next SMS is skipped.

test.use({ baseURL: ORIGIN });
test.describe.configure({ mode: 'serial' });

let harness: Harness;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  harness = await openHarness();
});
test.afterAll(async () => {
  await harness?.close();
});

type SendResult = { data: { status: string; notification_id: number; notification_status: string; error: string | null } };

/** A survey of the current client with an e-mail and an SMS invitation; answers its Send test. */
async function surveyToSend(page: Page, unique: string) {
  const api = await apiOf(page);
  const locations = await api.get<{ data: { _id: string }[] }>('/api/endpoints?perPage=1&status=active');
  const templates = await api.get<{ data: { id: number }[] }>('/api/sms-templates?perPage=1');
  const survey = await api.post<{ data: { id: number } }>('/api/surveys', {
    name: `Deliverability ${unique}`,
    type: 'nps',
    channel: 'email',
    location_ids: [locations.data[0]?._id],
    questions: [{ id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', required: true, is_key_metric: true }],
    email_subject: 'How was {location_name}?',
    email_body: 'Hi {first_name}: {survey_link}\nUnsubscribe: {unsubscribe_link}',
    sender_name: 'Deliverability Test',
    sms_template_id: templates.data[0]?.id,
  });
  return (to: string) => api.post<SendResult>(`/api/surveys/${survey.data.id}/send-test`, { to });
}

/** Tracking Logs narrowed to one recipient: the newest message's row (the list is newest first). */
async function newestMessage(page: Page, recipient: string) {
  await page.goto(`/admin/notifications/logs?recipient=${encodeURIComponent(recipient)}`);
  return listRows(page, 'Messages').first();
}

for (const width of WIDTHS) {
  test(`at ${width} px: a signed bounce suppresses, release lets the next invitation go, STOP skips the next SMS`, async ({ page }) => {
    test.setTimeout(90_000);
    const errors = collectConsoleErrors(page);
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page);
    const unique = `${width}-${Date.now().toString(36)}`;
    const address = `flow.${unique}@${SES_STYLE_DOMAIN}`;
    const phone = `+1303555${String(width).padStart(4, '0')}`;
    const send = await surveyToSend(page, unique);

    // The invitation reaches the SMTP listener, which answers with SES's id for it.
    const first = await send(address);
    expect(first.data.notification_status).toBe('sent');
    const mail = harness.listeners.mails.findLast((m) => m.to.includes(address));
    expect(mail, 'the SMTP listener got the invitation').toBeDefined();
    const sesId = harness.listeners.sesIds.at(-1) ?? '';

    // A signed Permanent bounce for it, as SNS posts it.
    const bounce = {
      bounceType: 'Permanent',
      bounceSubType: 'General',
      bouncedRecipients: [{ emailAddress: address, status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
    };
    expect(await harness.postSesEvent(sesId, address, 'Bounce', 'bounce', bounce)).toBe(200);

    // Tracking Logs: Bounced, and the detail's timeline says why and jumps to SES Bounce.
    const row = await newestMessage(page, address);
    await expect(row.getByText('Bounced', { exact: true })).toBeVisible();
    await row.getByRole('button', { name: `Details of message ${first.data.notification_id}` }).click();
    const panel = page.getByRole('dialog', { name: `Message ${first.data.notification_id}` });
    const history = panel.getByLabel('Status history');
    await expect(history.getByText('SES: Bounce', { exact: true })).toBeVisible();
    await expect(history.getByText('Diagnostic code: smtp; 550 5.1.1 user unknown')).toBeVisible();
    await expect(history.getByText('The address is now suppressed (SES Bounce).')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await panel.getByRole('link', { name: 'This address on SES Bounce' }).click();

    // SES Bounce: the address, suppressed.
    await expect(page).toHaveURL(/\/admin\/ses\/bounce\?q=/);
    const entry = listRows(page, 'Addresses').filter({ hasText: address });
    await expect(entry).toHaveCount(1);
    await expect(entry.getByText('Yes', { exact: true })).toBeVisible();

    // The next invitation is skipped as suppressed, and Tracking Logs says so.
    const skipped = await send(address);
    expect(skipped.data.notification_status).toBe('suppressed');
    await expect(await newestMessage(page, address)).toContainText('Suppressed');

    // Release, with the question and a reason.
    await page.goto(`/admin/ses/bounce?q=${encodeURIComponent(address)}`);
    await expect(entry).toHaveCount(1);
    await rowAction(entry, `Release ${address}`);
    const dialog = page.getByRole('dialog', { name: `Release ${address} from suppression` });
    await expect(dialog.getByText('Are you sure? This cannot be undone.', { exact: true })).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('The customer fixed the mailbox');
    await dialog.getByRole('button', { name: 'Release' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(entry.getByText('No', { exact: true })).toBeVisible();

    // The next one goes out, to the SMTP listener again.
    const mailsBefore = harness.listeners.mails.filter((m) => m.to.includes(address)).length;
    const again = await send(address);
    expect(again.data.notification_status).toBe('sent');
    expect(harness.listeners.mails.filter((m) => m.to.includes(address)).length).toBe(mailsBefore + 1);
    await expect((await newestMessage(page, address)).getByText('Sent', { exact: true })).toBeVisible();

    // SMS: one goes to the provider; a signed STOP from the phone; the next is skipped.
    const text = await send(phone);
    expect(text.data.notification_status).toBe('sent');
    expect(harness.listeners.smsRequests.some((r) => r.form.get('To') === phone)).toBe(true);
    expect(await harness.postInboundSms(phone, 'STOP')).toBe(200);
    const refused = await send(phone);
    expect(refused.data.notification_status).toBe('suppressed');
    expect(refused.data.error).toMatch(/opted out/i);
    const smsRow = await newestMessage(page, phone.slice(-7));
    await expect(smsRow.getByText('Suppressed', { exact: true })).toBeVisible();
    expect(errors).toEqual([]);
  });
}
