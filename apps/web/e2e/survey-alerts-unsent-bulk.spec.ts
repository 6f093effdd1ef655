import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, DESKTOP, PHONE, signInAsAdmin } from './support.ts';

// Unsent events' "Resend all in this filter" (issue 20): the kit's filtered bulk action
// (apps/web/src/components/resource/filtered-bulk-action.tsx), as Survey Processing's Retry failed
// uses it. It confirms with the server's count and scope; a count that changed meanwhile is a 409
// that resends nothing and asks again. The demo's rule whose only recipient is suppressed
// ("Comments to the old front desk", apps/server/src/seed/alert-rules.ts) has unsent events.

type Preview = { count: number; scope: string };
const RULE = 'Comments to the old front desk';
const counted = (n: number) => `${n.toLocaleString('en-US')} unsent alert${n === 1 ? '' : 's'}`;

async function openResend(page: Page, query: string) {
  await page.goto(`/admin/survey-alerts-unsent-events${query}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Survey Alerts Unsent events' })).toBeVisible();
  await page.getByRole('button', { name: 'Resend all in this filter' }).click();
}

for (const width of [DESKTOP, PHONE]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('Resend all in this filter says when the filter finds nothing', async ({ page }) => {
      const errors = collectConsoleErrors(page);
      await signInAsAdmin(page);
      await openResend(page, `?q=${encodeURIComponent(`no such rule ${Date.now()}`)}`);
      const dialog = page.getByRole('dialog', { name: 'No unsent alerts to resend' });
      await expect(dialog).toContainText('This filter finds no unsent or retrying alert.');
      await expect(dialog.getByRole('button', { name: /^Resend/ })).toHaveCount(0);
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await expect(dialog).toBeHidden();
      expect(errors).toEqual([]);
    });

    test('Resend all in this filter confirms the count, asks again when it changed, and sends the filter with the count confirmed', async ({
      page,
    }) => {
      await signInAsAdmin(page);
      const api = await apiOf(page);
      const real = await api.post<{ data: Preview }>(
        '/api/survey-alerts-unsent-events/resend/preview',
        { filter: { q: RULE, state: ['unsent'] } },
        200,
      );
      expect(real.data.count).toBeGreaterThan(0);

      // The first count the dialog shows is one more than there are: the server refuses it (409) and resends nothing.
      let previews = 0;
      await page.route('**/api/survey-alerts-unsent-events/resend/preview', async (route) => {
        previews += 1;
        if (previews === 1) await route.fulfill({ json: { data: { count: real.data.count + 1, scope: real.data.scope } } });
        else await route.continue();
      });
      // The confirmed resend is answered here, so the demo's events stay as they are for the other specs.
      const resent: unknown[] = [];
      await page.route('**/api/survey-alerts-unsent-events/resend', async (route) => {
        if (resent.length === 0 && previews === 1) {
          resent.push('refused');
          await route.continue();
          return;
        }
        resent.push(route.request().postDataJSON());
        await route.fulfill({ json: { data: { changed: real.data.count, delivered: 0 } } });
      });

      await openResend(page, `?q=${encodeURIComponent(RULE)}&state=unsent`);
      const stale = page.getByRole('dialog', { name: `Resend ${counted(real.data.count + 1)} in ${real.data.scope}?` });
      await expect(stale).toContainText('Each goes again to its recipients as the rule names them today.');
      await stale.getByRole('button', { name: `Resend ${real.data.count + 1}` }).click();
      await expect(page.getByText('Nothing was resent', { exact: true })).toBeVisible();
      await expect(page.getByText(`The filter now finds ${counted(real.data.count)} in ${real.data.scope}`)).toBeVisible();

      // Asked again: the real count, and only that is sent, with the list's filter.
      const fresh = page.getByRole('dialog', { name: `Resend ${counted(real.data.count)} in ${real.data.scope}?` });
      await expect(fresh).toBeVisible();
      await fresh.getByRole('button', { name: `Resend ${real.data.count}`, exact: true }).click();
      await expect(page.getByText(`${counted(real.data.count)} resent, 0 delivered`)).toBeVisible();
      await expect(fresh).toBeHidden();
      expect(resent).toEqual(['refused', { filter: expect.objectContaining({ q: RULE }), confirmed: real.data.count }]);
    });
  });
}
