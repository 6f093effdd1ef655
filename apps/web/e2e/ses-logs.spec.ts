import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, listRows, showFilters, signInAsAdmin, WIDTHS } from './support.ts';

// SES Logs: the list and its filters at a phone's and a desktop's width; an event's details show
// its raw JSON and jump to its message in Tracking Logs and its address in SES Bounce. The events
// come from the demo (the outbox transport's events through the SES ingest, issue 22 item 6);
// until the demo has any, the details test says so and is skipped rather than passing unseen.

const LIST = 'SES events';

for (const width of WIDTHS) {
  test.describe(`SES Logs at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
    });

    test('filters are read from the address and written back to it; the list fits the width', async ({ page }) => {
      const errors = collectConsoleErrors(page);
      await signInAsAdmin(page, '/admin/ses/logs?event_type=Bounce&recipient=nobody%40example.com');
      await expect(page.getByRole('heading', { level: 1, name: 'SES Logs' })).toBeVisible();
      await showFilters(page);
      await expect(page.getByRole('textbox', { name: 'Recipient' })).toHaveValue('nobody@example.com');
      await expect(page.getByRole('group', { name: 'Filters' }).getByText('Bounce', { exact: true })).toBeVisible();
      await expect(page.getByText('No SES events match these filters.')).toBeVisible();
      await page.getByRole('textbox', { name: 'Message id' }).fill('msg-none');
      await expect(page).toHaveURL(/message_id=msg-none/);
      await page.getByRole('button', { name: 'Clear all filters' }).click();
      await expect(page).not.toHaveURL(/recipient=/);

      // The Clients filter's options are every client by name (Tracking Logs' collection serves them).
      await page.getByRole('combobox', { name: 'Clients' }).click();
      const option = page
        .getByRole('option')
        .filter({ hasNotText: /^Selected All$/ })
        .first();
      await expect(option).toBeVisible();
      const name = (await option.innerText()).trim();
      await option.click();
      await page.keyboard.press('Escape');
      await expect(page).toHaveURL(/client=\d+/);
      await expect(page.getByRole('group', { name: 'Filters' }).getByText(name, { exact: true })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
    });

    test('a bounce’s details show its raw JSON and jump to its message in Tracking Logs and its address in SES Bounce', async ({
      page,
    }) => {
      await signInAsAdmin(page, '/admin/ses/logs?event_type=Bounce');
      const rows = listRows(page, LIST);
      // Loaded: an event to open, or the empty list's message (an empty table still has a row: that one).
      const empty = page.getByText('No SES events match these filters.');
      const details = page.getByRole('button', { name: /^Details of SES event \d+$/ });
      await expect(details.first().or(empty)).toBeVisible();
      test.skip(await empty.isVisible(), 'the demo has no SES bounce events yet (issue 22, item 6)');
      await rows
        .first()
        .getByRole('button', { name: /^Details of SES event \d+$/ })
        .click();
      const panel = page.getByRole('dialog', { name: /^SES event \d+$/ });
      await expect(panel.getByLabel('Raw JSON')).toContainText('"Bounce"');
      const fact = async (label: string) =>
        (await panel.getByText(label, { exact: true }).locator('xpath=following::*[1]').innerText()).trim();
      const messageId = await fact('Message id');
      const recipient = await fact('Recipient');

      await panel.getByRole('link', { name: 'Open the notification in Tracking Logs' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Tracking Logs' })).toBeVisible();
      await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(messageId);

      await page.goBack();
      await rows
        .first()
        .getByRole('button', { name: /^Details of SES event \d+$/ })
        .click();
      await panel.getByRole('link', { name: 'Open the bounce record in SES Bounce' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'SES Bounce' })).toBeVisible();
      await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(recipient);
      // An address that bounced has its row (domain.md §25: one per address that ever bounced).
      await expect(listRows(page, 'Addresses').filter({ hasText: recipient }).first()).toBeVisible();
    });
  });
}
