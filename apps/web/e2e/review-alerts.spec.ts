import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { postReview, reviewsToken } from './reputation-support.ts';
import { apiOf, collectConsoleErrors, listRows, loadedRows, runWorkersNow, signInAsAdmin, WIDTHS } from './support.ts';

// The review alert engine end to end (issue 21, item 5, "Done when"): a rule made on screen; a
// 1-star review posted through POST /api/v1/reviews with an API token (scope reviews:write) made
// here fires an instant review alert found in Tracking Logs; a weekly digest goes out when the test
// clock moves to its day and time in the client's zone (docs/decisions/030).

async function alertsTo(page: Page, address: string, text: string) {
  await page.goto(`/admin/notifications/logs?recipient=${encodeURIComponent(address)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Tracking Logs' })).toBeVisible();
  return (await loadedRows(page, 'Messages')).filter({ hasText: text });
}

test.describe('Review alerts', () => {
  for (const width of WIDTHS) {
    test(`a 1-star review posted through the API fires an instant review alert found in Tracking Logs (${width} px)`, async ({ page }) => {
      const errors = collectConsoleErrors(page);
      await page.setViewportSize({ width, height: 900 });
      const stamp = `${width}-${Date.now()}`;
      const address = `review-alerts-${stamp}@example.com`;
      const name = `One star e2e ${stamp}`;
      await signInAsAdmin(page, '/admin/review-alert-settings');
      await page.getByRole('button', { name: 'Create review alert rule' }).first().click();
      const drawer = page.getByRole('dialog', { name: 'Create review alert rule' });
      await drawer.getByRole('textbox', { name: 'Rule' }).fill(name);
      await drawer.getByRole('textbox', { name: 'Highest rating' }).fill('1');
      // Only this test's review: other specs' reviews of the same client go through the same rules.
      const word = `nocallback${Date.now()}`;
      const keywords = drawer.getByRole('textbox', { name: 'Keywords' }).or(drawer.getByRole('combobox', { name: 'Keywords' }));
      await keywords.fill(word);
      await keywords.press('Enter');
      const emails = drawer.getByRole('textbox', { name: 'Extra emails' }).or(drawer.getByRole('combobox', { name: 'Extra emails' }));
      await emails.fill(address);
      await emails.press('Enter');
      await drawer.getByRole('textbox', { name: 'Rule' }).click();
      await drawer.getByRole('button', { name: 'Create review alert rule' }).click();
      await expect(drawer).toHaveCount(0);
      await expect(listRows(page, 'Review alert rules').filter({ hasText: name })).toBeVisible();

      const { token, locationId } = await reviewsToken(page);
      await postReview(page, token, {
        reviewId: `e2e-one-star-${stamp}`,
        locationId,
        reviewer: { displayName: 'Casey Angry' },
        starRating: 'ONE',
        comment: `Nobody called back, ${word}.`,
        createTime: new Date(Date.now() - 10 * 60_000).toISOString(),
      });
      await expect.poll(async () => (await alertsTo(page, address, 'Review alert')).count(), { timeout: 20_000 }).toBeGreaterThan(0);
      await expect(await alertsTo(page, address, 'Review alert')).toHaveCount(1);
      expect(errors).toEqual([]);
    });

    test(`a weekly digest goes out when the test clock moves to its day and time in the client's zone (${width} px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      const api = await apiOf(page);
      const me = await api.get<{ data: { user: { current_client_id: number } } }>('/api/user');
      const client = await api.get<{ data: { timezone: string } }>(`/api/clients/${me.data.user.current_client_id}`);
      const zone = client.data.timezone || 'UTC';
      const stamp = `${width}-${Date.now()}`;
      const address = `review-digest-${stamp}@example.com`;
      // The digest's time is two hours ahead in the client's zone, on that instant's weekday.
      const due = new Date(Date.now() + 2 * 3_600_000);
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
          .formatToParts(due)
          .map((p) => [p.type, p.value]),
      );
      await api.post('/api/review-alert-settings', {
        name: `Weekly e2e ${stamp}`,
        sites: ['google'],
        channels: ['email'],
        extra_emails: [address],
        frequency: 'weekly',
        send_time: `${parts.hour}:${parts.minute}`,
        weekly_day: String(parts.weekday).toLowerCase().slice(0, 3),
      });
      const { token, locationId } = await reviewsToken(page);
      await postReview(page, token, {
        reviewId: `e2e-weekly-${stamp}`,
        locationId,
        reviewer: { displayName: 'Morgan Weekly' },
        starRating: 'FOUR',
        comment: 'Good, a little slow.',
        createTime: new Date(Date.now() - 10 * 60_000).toISOString(),
      });
      try {
        // Before its time nothing goes, however long the workers run: setting the clock to now runs
        // every due job and pass of the workers to its end before answering (docs/decisions/030-test-clock.md).
        await runWorkersNow(api);
        await expect(await alertsTo(page, address, 'Review alert')).toHaveCount(0);
        await api.put('/api/test-clock', { now: new Date(due.getTime() + 60_000).toISOString() });
        await expect.poll(async () => (await alertsTo(page, address, 'Review alert')).count(), { timeout: 20_000 }).toBe(1);
        // And only one, on later passes too.
        await runWorkersNow(api);
        await expect(await alertsTo(page, address, 'Review alert')).toHaveCount(1);
      } finally {
        await api.delete('/api/test-clock');
      }
    });
  }
});
