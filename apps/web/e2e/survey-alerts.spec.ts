import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { openNpsInvitation } from './reputation-support.ts';
import { apiOf, collectConsoleErrors, listRows, loadedRows, runWorkersNow, signInAsAdmin } from './support.ts';

// The alert engine end to end (issue 20, items 3 and 4): a rule made on screen, a real
// invitation of the demo answered on its public page as a detractor with a comment; the
// alert is a Tracking Logs row within seconds; the demo's rule whose only recipient is on the
// suppression list ("Comments to the old front desk", apps/server/src/seed/alert-rules.ts) shows its event in
// Unsent events with its reason, and Resend to… another address delivers it.

type Log = { id: number; client_id: number | null; client_timezone: string | null };

/**
 * A demo invitation of the current client still open to answers (openNpsInvitation), answered on
 * its public page as a respondent does it: a score of 2 and `comment` in the first comment box.
 */
async function answerAsDetractor(page: Page, clientId: number, comment: string): Promise<void> {
  const { token } = await openNpsInvitation(page, clientId);
  await page.goto(`/s/${token}`);
  await page.getByRole('radio', { name: '2', exact: true }).first().check();
  await page.getByRole('textbox').first().fill(comment);
  await page.getByRole('button', { name: 'Send my answers' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/thank/i);
}

/** A rule made in Survey Alert Settings' form: the default trigger (Detractor), instant, to one extra address. */
async function makeRuleOnScreen(page: Page, name: string, address: string): Promise<void> {
  await page.goto('/admin/survey-alert-settings');
  await page.getByRole('button', { name: 'Create alert rule' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create alert rule' });
  await drawer.getByRole('textbox', { name: 'Rule name' }).fill(name);
  await expect(drawer.getByRole('combobox', { name: 'Trigger' })).toHaveValue('Detractor (NPS 0–6)');
  const emails = drawer.getByRole('textbox', { name: 'Extra emails' }).or(drawer.getByRole('combobox', { name: 'Extra emails' }));
  await emails.fill(address);
  await emails.press('Enter');
  await drawer.getByRole('textbox', { name: 'Rule name' }).click();
  await drawer.getByRole('button', { name: 'Create alert rule' }).click();
  await expect(drawer).toHaveCount(0);
  await expect(listRows(page, 'Alert rules').filter({ hasText: name })).toBeVisible();
}

test.describe('Survey alerts', () => {
  for (const width of [1440, 390]) {
    test(`a detractor's alert reaches Tracking Logs; a suppressed recipient's is unsent and Resend to… delivers it (${width} px)`, async ({
      page,
    }) => {
      const errors = collectConsoleErrors(page);
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      const api = await apiOf(page);
      const me = await api.get<{ data: { user: { current_client_id: number } } }>('/api/user');
      const clientId = me.data.user.current_client_id;
      const stamp = `${width}-${Date.now()}`;
      const address = `alerts-${stamp}@example.com`;
      await makeRuleOnScreen(page, `Detractors e2e ${stamp}`, address);
      await answerAsDetractor(page, clientId, `Rude and slow ${stamp}`);

      // Within seconds the workers evaluate the response and send the alert: a Tracking Logs row.
      await expect
        .poll(
          async () => {
            await page.goto(`/admin/notifications/logs?recipient=${encodeURIComponent(address)}`);
            return (await loadedRows(page, 'Messages')).filter({ hasText: 'Survey alert' }).count();
          },
          { timeout: 15_000 },
        )
        .toBeGreaterThan(0);

      // The demo's suppressed recipient: its event is unsent, with the reason in words.
      await page.goto('/admin/survey-alerts-unsent-events?q=Comments%20to%20the%20old%20front%20desk&state=unsent');
      await expect(page.getByRole('heading', { level: 1, name: 'Survey Alerts Unsent events' })).toBeVisible();
      const row = listRows(page, 'Unsent alerts').filter({ hasText: 'On the suppression list' }).first();
      await expect(row).toBeVisible({ timeout: 15_000 });
      await row.getByRole('button', { name: /^Details of alert of rule Comments to the old front desk/ }).click();
      const detail = page.getByRole('dialog', { name: /alert of rule Comments to the old front desk/i });
      await expect(detail).toContainText('On the suppression list');
      const sendTo = detail.getByRole('textbox', { name: 'Send to' });
      await sendTo.fill('not-an-address');
      await detail.getByRole('button', { name: 'Resend to…' }).click();
      await expect(detail.getByText('The Send to field must be a valid email')).toBeVisible();
      const desk = `desk-${stamp}@example.com`;
      await sendTo.fill(desk);
      await detail.getByRole('button', { name: 'Resend to…' }).click();
      await expect(page.getByText(`Alert sent to ${desk}`)).toBeVisible();
      await page.keyboard.press('Escape');
      await page.goto(`/admin/survey-alerts-unsent-events?state=resent`);
      await expect(listRows(page, 'Unsent alerts').filter({ hasText: `Resent to ${desk}` })).toHaveCount(1);
      await page.goto(`/admin/notifications/logs?recipient=${encodeURIComponent(desk)}`);
      await expect(listRows(page, 'Messages').filter({ hasText: 'Survey alert' })).toHaveCount(1);
      expect(errors).toEqual([]);
    });

    test(`a daily digest sends one message at its hour in the client's zone when the test clock moves (${width} px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      const api = await apiOf(page);
      const me = await api.get<{ data: { user: { current_client_id: number } } }>('/api/user');
      const stamp = `${width}-${Date.now()}`;
      const address = `digest-${stamp}@example.com`;
      // The rule is made before the answer, and its hour is the next whole hour of the client's day.
      const probe = await api.get<{ data: Log[] }>(`/api/notifications-logs?client=${me.data.user.current_client_id}&perPage=1`);
      const zone = probe.data[0]?.client_timezone ?? 'UTC';
      const hourNow = Number(new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(new Date()));
      await api.post('/api/survey-alert-settings', {
        name: `Digest e2e ${stamp}`,
        trigger: 'detractor',
        channels: ['email'],
        extra_emails: [address],
        frequency: 'daily_digest',
        digest_hour: (hourNow + 1) % 24,
      });
      await answerAsDetractor(page, me.data.user.current_client_id, `Digest me ${stamp}`);
      const digests = async () => {
        await page.goto(`/admin/notifications/logs?recipient=${encodeURIComponent(address)}`);
        await expect(page.getByRole('heading', { level: 1, name: 'Tracking Logs' })).toBeVisible();
        return (await loadedRows(page, 'Messages')).filter({ hasText: 'Survey alerts digest' });
      };
      try {
        // Before its hour nothing goes, however long the workers run: setting the clock to now runs
        // every due job and pass of the workers to its end before answering (docs/decisions/030-test-clock.md).
        await runWorkersNow(api);
        await expect(await digests()).toHaveCount(0);
        const nextHour = new Date(Date.now() + 61 * 60_000);
        await api.put('/api/test-clock', { now: nextHour.toISOString() });
        await expect.poll(async () => (await digests()).count(), { timeout: 20_000 }).toBe(1);
        // And only one, on later passes too.
        await runWorkersNow(api);
        await expect(await digests()).toHaveCount(1);
      } finally {
        await api.delete('/api/test-clock');
      }
    });
  }
});
