import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiOf, DESKTOP, PHONE, signInAsAdmin } from './support.ts';

// Bulk Retry failed (issue 19, item 2): it confirms with the count and the scope before anything changes.

type Preview = { count: number; scope: string; filters: string[] };
const PREVIEW = '**/api/survey-processing/retry/preview';

async function openRetry(page: Page, query = '') {
  await page.goto(`/admin/survey-processing${query}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Survey Processing' })).toBeVisible();
  await page.getByRole('button', { name: 'Retry failed in this filter' }).click();
}

for (const width of [DESKTOP, PHONE]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('Retry failed in this filter says how many, in which clients and by which filters, and retries only once confirmed', async ({
      page,
    }) => {
      await signInAsAdmin(page);
      const api = await apiOf(page);
      const teams = await api.get<{ data: { clientId: number; clientName: string }[] }>('/api/client-root-teams');
      const client = teams.data[0];
      if (!client) throw new Error('no client in the demo data');

      // The server's own answer for a Clients filter and a search: no failed one here, said as such.
      const query = `?client=${client.clientId}&q=POS-900`;
      const real = await api.post<{ data: Preview }>(
        '/api/survey-processing/retry/preview',
        { filter: { client: [String(client.clientId)], q: 'POS-900' } },
        200,
      );
      await openRetry(page, query);
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText(`in ${client.clientName}`);
      await expect(dialog.getByRole('listitem')).toHaveText(['Search: "POS-900"']);
      if (real.data.count === 0) {
        await expect(dialog).toHaveAccessibleName('No failed invitations to retry');
        await expect(dialog.getByRole('button', { name: /^Retry/ })).toHaveCount(0);
      }
      await dialog.getByRole('button', { name: real.data.count === 0 ? 'Close' : 'Cancel', exact: true }).click();
      await expect(dialog).toBeHidden();

      // With failed invitations in every client (the demo's sends never fail, so the count is the
      // server's answer as it would come), nothing is retried until the count is confirmed.
      await page.route(PREVIEW, (route) =>
        route.fulfill({ json: { data: { count: 3, scope: 'all clients', filters: [] } satisfies Preview } }),
      );
      const retried: unknown[] = [];
      await page.route('**/api/survey-processing/retry', async (route) => {
        retried.push(route.request().postDataJSON());
        await route.fulfill({ json: { data: { changed: 3 } } });
      });
      await openRetry(page);
      const confirm = page.getByRole('dialog', { name: 'Retry 3 failed invitations in all clients?' });
      await expect(confirm).toBeVisible();
      expect(retried).toEqual([]);
      await confirm.getByRole('button', { name: 'Retry 3' }).click();
      await expect(page.getByText('3 failed invitations in all clients scheduled again')).toBeVisible();
      expect(retried).toEqual([{ filter: expect.any(Object), confirmed: 3 }]);
    });
  });
}
