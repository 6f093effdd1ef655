import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, DESKTOP, PHONE, signInAsAdmin } from './support.ts';

// Issue 19, items 14 and 17: a survey whose question is one 500-character word and whose e-mail
// holds a 300-character link. The public survey page and the e-mail wrap at a phone's width, and a
// link in Tracking Logs' rendered e-mail opens in a new tab instead of loading inside the frame
// (where most sites refuse to be framed and the message was replaced by an error page).

const LONG_WORD = 'Supercalifragilistic'.repeat(25);
const LONG_LINK = `https://www.example.com/offers/${'a1b2c3d4e5'.repeat(27)}`;

/** Saves a picture of the screen when SHOTS_DIR is set (looked at by hand, not compared). */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

/** A survey of the signed-in client with the long question and link, and a test invitation sent to `to`. */
async function sendLongSurvey(page: Page, to: string) {
  const api = await apiOf(page);
  const { data: locations } = await api.get<{ data: { _id: string }[] }>('/api/endpoints?perPage=1');
  const { data: survey } = await api.post<{ data: { id: number } }>('/api/surveys', {
    name: `Long text ${Date.now()}`,
    type: 'nps',
    channel: 'email',
    location_ids: locations.map((l) => l._id),
    questions: [
      { id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', required: true, is_key_metric: true },
      { id: 2, type: 'text', text: LONG_WORD },
    ],
    email_subject: 'How was {location_name}?',
    email_body: `Tell us: {survey_link}\nOur offers: ${LONG_LINK}\nUnsubscribe: {unsubscribe_link}`,
    sender_name: 'Long Text',
  });
  const { data } = await api.post<{ data: { link: string; notification_id: number } }>(`/api/surveys/${survey.id}/send-test`, { to });
  return data;
}

test(`at ${PHONE} px the public survey page with a 500-character word is no wider than the screen, nor is the e-mail`, async ({ page }) => {
  await page.setViewportSize({ width: PHONE, height: 800 });
  await signInAsAdmin(page);
  const sent = await sendLongSurvey(page, `long.${Date.now().toString(36)}@example.com`);
  await page.goto(sent.link);
  await expect(page.getByText(LONG_WORD)).toBeVisible();
  expect(await page.evaluate(() => document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(PHONE);
  await shot(page, 'long-text-survey-390');

  // The e-mail as sent, opened on its own at the phone's width.
  const api = await apiOf(page);
  const { data: message } = await api.get<{ data: { body_html: string } }>(`/api/notifications-logs/${sent.notification_id}`);
  await page.setContent(message.body_html);
  await expect(page.getByRole('link', { name: LONG_LINK })).toBeVisible();
  expect(await page.evaluate(() => document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(PHONE);
});

for (const width of [PHONE, DESKTOP]) {
  test(`at ${width} px a link in Tracking Logs' rendered e-mail opens in a new tab and the message stays`, async ({ page, context }) => {
    await page.setViewportSize({ width, height: 900 });
    const errors = collectConsoleErrors(page);
    await signInAsAdmin(page);
    const reader = `links${width}.${Date.now().toString(36)}`;
    const { notification_id: id } = await sendLongSurvey(page, `${reader}@example.com`);
    await page.goto(`/admin/notifications/logs?recipient=${reader}`);
    await page.getByRole('button', { name: `Details of message ${id}` }).click();
    const panel = page.getByRole('dialog', { name: `Message ${id}` });
    await expect(panel.getByText('Links in the message open in a new tab.')).toBeVisible();
    const frame = panel.frameLocator('iframe[title="Rendered message"]');
    const link = frame.getByRole('link', { name: LONG_LINK });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    // The link opens in a new tab (the server is not asked: the address is example.com's).
    await context.route('https://www.example.com/**', (route) => route.fulfill({ status: 200, body: 'Offers' }));
    const popup = context.waitForEvent('page');
    // Followed from the keyboard, as a reader tabbing through the message would.
    await link.focus();
    await link.press('Enter');
    const opened = await popup;
    expect(opened.url()).toBe(LONG_LINK);
    await opened.close();
    // The frame still shows the message.
    await expect(frame.getByRole('link', { name: LONG_LINK })).toBeVisible();
    await shot(page, `tracking-logs-links-${width}`);
    expect(errors).toEqual([]);
  });
}

for (const width of [PHONE, DESKTOP]) {
  test(`at ${width} px Survey Admin's Send test email shows the From the message is sent with, and the e-mail`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const errors = collectConsoleErrors(page);
    const client = 'Summit Heating & Air';
    await signInAsAdmin(page, `/admin/surveys-admin?q=${encodeURIComponent(client)}`);
    // On a phone the row is a card whose actions are behind its Actions button.
    const disclosure = page.getByRole('button', { name: /^Actions for / });
    await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();
    if (await disclosure.isVisible()) await disclosure.click();
    await page
      .getByRole('button', { name: `More actions for ${client}` })
      .first()
      .click();
    await page.getByRole('menuitem', { name: 'Send test email' }).click();
    const dialog = page.getByRole('dialog', { name: `Send test email for ${client}` });
    // No verified domain of its own: the platform's address (EMAIL_FROM), as the transport is given it.
    await expect(dialog.getByText(`${client} <no-reply@example.com>`)).toBeVisible();
    await expect(dialog.getByText(`Test e-mail from ${client}`)).toBeVisible();
    const frame = dialog.frameLocator('iframe[title="Test e-mail"]');
    await expect(frame.getByText(/You received this because you visited Summit Heating & Air\. Unsubscribe: http/)).toBeVisible();
    await shot(page, `survey-admin-test-email-${width}`);
    expect(errors).toEqual([]);
  });
}
