import { seriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, DESKTOP, listRows, rowAction, signInAsAdmin, WIDTHS } from './support.ts';

// Scheduled report e-mails (docs/decisions/069) at a phone's and a desktop's width: the
// Performance Report scheduled from its own screen with Schedule e-mail, the schedule in words in
// Scheduled reports (a table, cards on a phone), Send now with its confirmation, and the e-mail
// it sent in Tracking Logs as a Report (the outbox keeps it; nothing leaves the machine).

const LIST = 'Scheduled reports';

for (const width of WIDTHS) {
  test.describe(`Scheduled reports at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
    });
    test.setTimeout(120_000);

    test('schedule the Performance Report from its screen, Send now, and find the e-mail in Tracking Logs', async ({ page }) => {
      const errors = collectConsoleErrors(page);
      await signInAsAdmin(page);
      const stamp = Date.now();
      const name = `Owners weekly ${width} ${stamp}`;
      const to = `owners${width}-${stamp}@example.com`;

      await page.goto('/admin/reports/performance-report?groupBy=location');
      await expect(page.getByRole('heading', { level: 1, name: 'Performance Report' })).toBeVisible({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Schedule e-mail' }).click();
      const dialog = page.getByRole('dialog', { name: 'Schedule this report by e-mail' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
      await dialog.getByRole('textbox', { name: 'Recipients' }).fill(`${to}, not an address`);
      await dialog.getByRole('button', { name: 'Create scheduled report' }).click();
      await expect(dialog.getByText(/Recipients field holds addresses that are not valid/)).toBeVisible();
      await dialog.getByRole('textbox', { name: 'Recipients' }).fill(to);
      await dialog.getByRole('button', { name: 'Create scheduled report' }).click();
      await expect(dialog).toHaveCount(0);

      if (width === DESKTOP) {
        await page.getByRole('button', { name: 'Reports' }).click();
        await page.getByRole('menuitem', { name: 'Scheduled reports' }).click();
      } else await page.goto('/admin/reports/scheduled-reports');
      await expect(page.getByRole('heading', { level: 1, name: 'Scheduled reports' })).toBeVisible({ timeout: 30_000 });
      const row = listRows(page, LIST).filter({ hasText: name });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(/Mondays at 07:00 [A-Za-z_]+\/[A-Za-z_]+/);
      await expect(row).toContainText('Not sent yet');

      await rowAction(row, `Send now ${name}`);
      const confirm = page.getByRole('dialog', { name: `Send ${name} now?` });
      await expect(confirm).toContainText(to);
      await confirm.getByRole('button', { name: 'Send now' }).click();
      await expect(confirm).toHaveCount(0);
      await expect(row).toContainText(/Sent \(\d{4}-\d{2}-\d{2} – \d{4}-\d{2}-\d{2}\)/);

      expect(await seriousViolations(page)).toEqual([]);

      await page.goto(`/admin/notifications/logs?recipient=${encodeURIComponent(`owners${width}-${stamp}`)}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Tracking Logs' })).toBeVisible();
      const messages = listRows(page, 'Messages');
      await expect(messages).toHaveCount(1);
      await expect(messages.first()).toContainText('Report');
      await expect(messages.first()).toContainText(name);
      await messages
        .first()
        .getByRole('button', { name: /^Details of message \d+$/ })
        .click();
      const detail = page.getByRole('dialog', { name: /^Message \d+$/ });
      await expect(
        detail.getByText(/^performance-report-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}-by-location\.csv \(text\/csv, /),
      ).toBeVisible();
      expect(errors).toEqual([]);
    });
  });
}
