import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, listRows, signInAsAdmin } from './support.ts';

// Tracking Logs: messages sent through the outbox (the default transport) in the test's setup show
// in the list with masked recipients; a row's details show the rendered body in a sandboxed frame
// and the status history.

/** Saves a picture of the screen when SHOTS_DIR is set (looked at by hand, not compared). */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  await page.waitForTimeout(500); // the side panel's slide-in
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

/** Sends a test message through the server's configured transport (the outbox here); answers its id. */
async function sendTestMessage(page: Page, channel: 'email' | 'sms', to: string): Promise<number> {
  const token = await page.evaluate(() => (sessionStorage.getItem('storage-auth-user-token') ?? '').replace(/"/g, ''));
  const res = await page.request.post('/api/notifications-logs/test-message', {
    headers: { authorization: `Bearer ${token}` },
    data: { channel, to },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

test.describe('Tracking Logs', () => {
  test('a message sent through the outbox is listed masked; its details show the body and the status history', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await signInAsAdmin(page);
    // A recipient of this attempt's own, so a retry does not find the first attempt's message too.
    const reader = `reader.${Date.now().toString(36)}`;
    const id = await sendTestMessage(page, 'email', `${reader}@example.com`);
    await sendTestMessage(page, 'sms', '+15555550142');

    // Filtered to this test's own recipients: the demo feeds' invitations, sent when another test
    // moves the server's clock ahead, are dated later and may fill the first page.
    await page.goto('/admin/notifications/logs?recipient=5555550142');
    await expect(page.getByRole('heading', { level: 1, name: 'Tracking Logs' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Messages' });
    await expect(table.getByRole('cell', { name: '+1 ***-***-0142' }).first()).toBeVisible();

    // The recipient filter searches the real address on the server.
    await page.getByRole('textbox', { name: 'Recipient' }).fill(reader);
    await expect(page).toHaveURL(new RegExp(`recipient=${reader.replace('.', '\\.')}`));
    await expect(table.getByRole('row')).toHaveCount(2);
    const row = table.getByRole('row').filter({ has: page.getByRole('button', { name: `Details of message ${id}` }) });
    await expect(row.getByRole('cell', { name: 'r***@example.com' })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Test message from the admin console' })).toBeVisible();
    await expect(row.getByText('Sent', { exact: true })).toBeVisible();
    await expect(page.getByText(`${reader}@example.com`)).toHaveCount(0);

    await row.getByRole('button', { name: `Details of message ${id}` }).click();
    const panel = page.getByRole('dialog', { name: `Message ${id}` });
    await expect(panel.getByLabel('Loading message')).toHaveCount(0);
    const frame = panel.getByTitle('Rendered message');
    await expect(frame).toHaveAttribute('sandbox', 'allow-popups allow-popups-to-escape-sandbox');
    // Read from the frame's document as given, not by reaching into the frame: a sandboxed frame
    // refuses the test runner's own scripts too (and says so on the console).
    await expect(frame).toHaveAttribute('srcdoc', /If you can read it, e-mail sending works\./);
    await expect(frame).toHaveAttribute('srcdoc', /Content-Security-Policy" content="default-src 'none'/);
    await expect(panel.getByText('This is a test message from the admin console. If you can read it, e-mail sending works.')).toBeVisible();
    const history = panel.getByLabel('Status history');
    await expect(history.getByText('Queued', { exact: true })).toBeVisible();
    await expect(history.getByText('Sent', { exact: true })).toBeVisible();
    await expect(history.getByText('Kept in the outbox (EMAIL_TRANSPORT=outbox)')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  for (const width of [390, 1440]) {
    test(`at ${width} px the list and a message's details fit the width`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      const id = await sendTestMessage(page, 'email', `width${width}@example.com`);
      // The page of this test's message (later-dated demo sends may fill the first page unfiltered).
      await page.goto(`/admin/notifications/logs?recipient=width${width}`);
      // A table, or cards on a phone (docs/decisions/040).
      const table = listRows(page, 'Messages');
      await expect(table.getByRole('button', { name: `Details of message ${id}` })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      await shot(page, `tracking-logs-${width}`);
      await table.getByRole('button', { name: `Details of message ${id}` }).click();
      const panel = page.getByRole('dialog', { name: `Message ${id}` });
      await expect(panel.getByLabel('Status history').getByText('Sent', { exact: true })).toBeVisible();
      await shot(page, `tracking-logs-detail-${width}`);
    });
  }
});

// The demo's e-mails carry SES events (apps/server/src/seed/deliverability.ts): every status they
// reach reads as a word on a phone and a desktop, and a bounced message's timeline says what SES
// said and jumps to SES Logs for that message.
test.describe('Tracking Logs with the demo SES events', () => {
  const STATUSES = [
    ['delivered', 'Delivered'],
    ['opened', 'Opened'],
    ['clicked', 'Clicked'],
    ['bounced', 'Bounced'],
    ['complained', 'Complained'],
  ] as const;
  for (const width of [390, 1440]) {
    test(`at ${width} px every delivery status reads as a word, and a bounce's timeline jumps to SES Logs`, async ({ page }) => {
      const errors = collectConsoleErrors(page);
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      for (const [status, label] of STATUSES) {
        await page.goto(`/admin/notifications/logs?status=${status}`);
        const row = listRows(page, 'Messages').first();
        await expect(row.getByText(label, { exact: true })).toBeVisible();
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(
          0,
        );
      }
      await shot(page, `tracking-logs-complained-${width}`);

      await page.goto('/admin/notifications/logs?status=bounced&channel=email');
      const bounced = listRows(page, 'Messages').first();
      await bounced.getByRole('button', { name: /^Details of message \d+$/ }).click();
      const panel = page.getByRole('dialog', { name: /^Message \d+$/ });
      const history = panel.getByLabel('Status history');
      await expect(history.getByText('SES: Bounce', { exact: true })).toBeVisible();
      await expect(history.getByText(/^Bounce: (Permanent \(hard\)|Transient \(soft\)) · /)).toBeVisible();
      await expect(history.getByText(/^Diagnostic code: smtp; /)).toBeVisible();
      await expect(panel.getByRole('link', { name: 'This address on SES Bounce' })).toBeVisible();
      await shot(page, `tracking-logs-timeline-${width}`);
      await panel.getByRole('link', { name: 'SES events of this message' }).click();
      await expect(page).toHaveURL(/\/admin\/ses\/logs\?message_id=outbox-/);
      await expect(listRows(page, 'SES events').getByText('Bounce', { exact: true }).first()).toBeVisible();
      expect(errors).toEqual([]);
    });
  }
});
