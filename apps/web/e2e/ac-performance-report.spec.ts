import { readFileSync } from 'node:fs';
import type { AcPerformanceReport, OptionsAnswer } from '@admin/shared';
import type { Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, listRows, openRowActions, signInAsAdmin, WIDTHS } from './support.ts';

// AC Performance Report (issue 23, item 4): Ada Admin's book of demo clients (apps/server/src/seed/demo.ts)
// listed by name, a book expanded to its clients with an at-risk client's reason shown, the
// drill-down opening the Performance Report with her clients chosen, Export CSV of the lines shown,
// axe finding no serious or critical violation. At 390 and 1440 px.

const PATH = '/admin/reports/ac-performance-report';
const TABLE = 'Performance by account coordinator';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A range (ending tomorrow, every US zone's today) over which one of Ada's clients is flagged. */
async function rangeWithAtRisk(page: Page) {
  const api = await apiOf(page);
  const ada = (await api.get<OptionsAnswer>('/api/reports/ac-performance/options/coordinators?q=Ada%20Admin')).data[0];
  if (!ada) throw new Error('Ada Admin coordinates no demo client');
  for (const days of [14, 10, 7, 21, 5, 3]) {
    const from = day(1 - days + 1);
    const to = day(1);
    const answer = await api.get<{ data: AcPerformanceReport }>(
      `/api/reports/ac-performance?from=${from}&to=${to}&coordinators=${ada.value}`,
    );
    const book = answer.data.rows[0];
    const flagged = book?.clients.find((c) => c.risks.length > 0);
    if (book && flagged) return { ada, from, to, book, flagged };
  }
  throw new Error("no range flags one of Ada Admin's clients");
}

test.describe('AC Performance Report', () => {
  for (const width of WIDTHS) {
    test(`Ada Admin's book, expanded with an at-risk flag, drill-down and Export (${width} px)`, async ({ page }) => {
      // A search for a flagged range, an accessibility scan, an export and a drill-down: more than 30 s on a busy machine.
      test.slow();
      const errors = collectConsoleErrors(page);
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page, PATH);
      await expect(listRows(page, TABLE).first()).toBeVisible();
      const { ada, from, to, book, flagged } = await rangeWithAtRisk(page);

      await page.goto(`${PATH}?coordinators=${ada.value}&from=${from}&to=${to}`);
      const rows = listRows(page, TABLE);
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText('Ada Admin');
      await page.getByRole('button', { name: 'Show the clients of Ada Admin' }).click();
      await expect(rows).toHaveCount(1 + book.clients.length);
      for (const client of book.clients) await expect(rows.filter({ hasText: client.name }).first()).toBeVisible();
      const risky = rows.filter({ hasText: flagged.name }).first();
      await expect(risky.getByText(flagged.risks[0]?.reason ?? '', { exact: true })).toBeVisible();

      expect(await seriousViolations(page)).toEqual([]);

      // Export: one line per line shown, the book then its clients.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const csv = readFileSync((await download.path()) ?? '', 'utf8')
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(csv).toHaveLength(2 + book.clients.length);
      expect(csv[1]).toMatch(/^Coordinator,Ada Admin,/);
      for (const client of book.clients) expect(csv.some((l) => l.startsWith('Client,') && l.includes(client.name))).toBe(true);

      // Drill down from the book: the Performance Report with her clients chosen, over the same range.
      const adaRow = rows.first();
      await openRowActions(adaRow);
      await adaRow.getByRole('link', { name: 'Open the Performance Report for Ada Admin' }).click();
      await expect(page).toHaveURL(/\/admin\/reports\/performance-report\?/);
      const params = new URL(page.url()).searchParams;
      expect(params.getAll('clients').sort()).toEqual(book.clients.map((c) => String(c.id)).sort());
      expect(params.get('from')).toBe(from);
      expect(params.get('to')).toBe(to);
      await expect(
        page.getByRole('table', { name: 'Performance by group' }).or(page.getByRole('list', { name: 'Performance by group' })),
      ).toBeVisible();
      expect(errors).toEqual([]);
    });
  }
});
