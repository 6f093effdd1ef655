import type { Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, listRows, loadedRows, openRowActions, showFilters, signInAsAdmin, WIDTHS } from './support.ts';

// Review Alerts Report (domain.md §27) at a phone's and a desktop's width: a 1★ review imported
// with its link and a reply fires the demo's instant rule (the worker evaluates and sends it); the
// report then shows its cards, its rows (a table, cards on a phone), the Rating filter in the
// address, the review link, Export CSV, and Resend of a failed alert with its confirmation.
// The outbox transports never fail a send, so the Resend test makes a rule that reaches nobody: its
// alert is recorded failed (no recipients), which is the one it resends.

const LIST = 'Review alerts';
const PATH = '/admin/reports/review-alerts-report';

/** The list's rows of `reviewer`'s review, once the worker has alerted on it: reloaded until they show. */
async function alertRowsOf(page: Page, reviewer: string) {
  await expect
    .poll(
      async () => {
        await page.reload();
        return (await loadedRows(page, LIST)).filter({ hasText: reviewer }).count();
      },
      { timeout: 60_000 },
    )
    .toBeGreaterThan(0);
  return listRows(page, LIST).filter({ hasText: reviewer });
}

/** A 1★ review of the current client with a link and a reply, imported as the Reputation Panel imports a CSV. */
async function importReview(page: Page, reviewer: string, url: string): Promise<void> {
  const api = await apiOf(page);
  const locationId = (await api.get<{ data: { _id: string }[] }>('/api/endpoints?perPage=1')).data[0]?._id ?? '';
  const created = new Date(Date.now() - 30 * 60_000).toISOString();
  const replied = new Date(Date.now() - 10 * 60_000).toISOString();
  const csv = `review_id,site,location,reviewer,rating,comment,created,reply,replied,url\ne2e-report-${Date.now()},google,${locationId},${reviewer},1,Nobody called back,${created},Sorry — we will call you,${replied},${url}\n`;
  await api.post('/api/reviews/import', { csv, dry_run: false }, 200);
}

for (const width of WIDTHS) {
  test.describe(`Review Alerts Report at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
    });
    // The worker evaluates and sends the imported review's alerts on its own passes, on a shared machine.
    test.setTimeout(120_000);

    test('cards, rows, a filter, the review link and Export CSV; axe finds nothing serious', async ({ page }) => {
      const errors = collectConsoleErrors(page);
      await signInAsAdmin(page);
      const reviewer = `Rowan Report ${width} ${Date.now()}`;
      const url = `https://reviews.example.com/${width}/${Date.now()}`;
      await importReview(page, reviewer, url);

      await page.goto(PATH);
      await expect(page.getByRole('heading', { level: 1, name: 'Review Alerts Report' })).toBeVisible();
      const cards = page.getByRole('region', { name: 'Review alert cards' });
      for (const label of [
        'Reviews alerted',
        'Negative (≤ 2★) alerted',
        'Delivery failures',
        '% negative replied within 48 h',
        'Median time to reply',
      ])
        await expect(cards.getByRole('group', { name: label })).toBeVisible();

      // The worker evaluates the review and sends its alerts: wait for its rows.
      const rows = await alertRowsOf(page, reviewer);
      await expect(cards.getByRole('group', { name: 'Reviews alerted' })).not.toContainText('—');

      // The review link opens the review on its site, in a new tab.
      const row = rows.first();
      await openRowActions(row);
      const link = row.getByRole('link', { name: `Open the review by ${reviewer}` });
      await expect(link).toHaveAttribute('href', url);
      await expect(link).toHaveAttribute('target', '_blank');

      // A filter: Rating 5★ leaves this 1★ review out, and the address keeps it.
      await page.goto(`${PATH}?rating=5`);
      await expect(page.getByRole('heading', { level: 1, name: 'Review Alerts Report' })).toBeVisible();
      await expect(page.getByText('No review alerts match these filters.').or(listRows(page, LIST)).first()).toBeVisible();
      await showFilters(page);
      await expect(page.getByRole('group', { name: 'Filters' }).getByText('5★', { exact: true })).toBeVisible();
      await expect(page).toHaveURL(/rating=5/);
      await expect(listRows(page, LIST).filter({ hasText: reviewer })).toHaveCount(0);
      await page.goto(`${PATH}?rating=1`);
      await expect(listRows(page, LIST).filter({ hasText: reviewer }).first()).toBeVisible();

      expect(await seriousViolations(page)).toEqual([]);

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const csv = await (await download.createReadStream()).toArray();
      const text = Buffer.concat(csv).toString('utf8');
      expect(text.split('\n')[0]).toContain('Delivery status');
      expect(text).toContain(reviewer);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
    });

    test('Resend a failed alert asks first, then re-queues it', async ({ page }) => {
      await signInAsAdmin(page);
      const api = await apiOf(page);
      // A rule that reaches nobody (SMS only, an e-mail address its one recipient) records its alert
      // as failed with no recipients: the failure to resend.
      const rule = await api.post<{ data: { id: number } }>('/api/review-alert-settings', {
        name: `Nobody e2e ${width} ${Date.now()}`,
        sites: ['google'],
        channels: ['sms'],
        extra_emails: ['nobody-by-sms@example.com'],
        frequency: 'instant',
      });
      const reviewer = `Nobody Told ${width} ${Date.now()}`;
      try {
        await importReview(page, reviewer, `https://reviews.example.com/nobody/${Date.now()}`);
        await page.goto(`${PATH}?delivery_status=failed`);
        await expect(page.getByRole('heading', { level: 1, name: 'Review Alerts Report' })).toBeVisible();
        const rows = await alertRowsOf(page, reviewer);
        const row = rows.first();
        await openRowActions(row);
        await row.getByRole('button', { name: /^Resend the alert for / }).click();
        const dialog = page.getByRole('dialog', { name: 'Resend failed alert?' });
        await expect(dialog).toContainText('failed (no recipients)');
        await dialog.getByRole('button', { name: 'Resend alert' }).click();
        await expect(dialog).toBeHidden();
        await expect(page.getByText(/^Resending the alert for /)).toBeVisible();
        // Re-queued: no longer failed until the engine has tried it again.
        await page.goto(`${PATH}?delivery_status=pending,failed`);
        await expect(listRows(page, LIST).filter({ hasText: reviewer }).first()).toBeVisible();
      } finally {
        // Archived, so the rule alerts nobody in the specs that follow.
        const token = await page.evaluate(() => (sessionStorage.getItem('storage-auth-user-token') ?? '').replace(/"/g, ''));
        const current = await api.get<{ data: { updated_at: string } }>(`/api/review-alert-settings/${rule.data.id}`);
        await page.request.patch(`/api/review-alert-settings/${rule.data.id}/status`, {
          headers: { authorization: `Bearer ${token}` },
          data: { status: 'inactive', updated_at: current.data.updated_at },
        });
      }
    });
  });
}
