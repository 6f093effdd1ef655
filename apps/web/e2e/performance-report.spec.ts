import { readFileSync } from 'node:fs';
import type { PerformanceReport } from '@admin/shared';
import type { Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, columnTexts, listRows, showFilters, signInAsAdmin, WIDTHS } from './support.ts';

// Performance Report (issue 23, item 2): for the demo client with the most responses in the last
// 90 days, the screen shows cards, a chart and a table whose Responses equal Survey Manager's count
// for the same filters (reached by clicking the number); the CSV equals the table; the print view
// fits an A4 page's printable width; axe finds no serious or critical violation. At 390 and 1440 px.

const PATH = '/admin/reports/performance-report';
const TABLE = 'Performance by group';
/** An A4 page less 12 mm margins each side (performance-print.css), in CSS pixels (96 per inch). */
const A4_PRINTABLE_PX = Math.floor(((210 - 24) / 25.4) * 96);

/** A picture of the screen when SHOTS_DIR is set (for a person to look at; nothing is compared). */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

const iso = (d: Date) => d.toISOString().slice(0, 10);

async function busiestClient(page: Page, from: string, to: string) {
  const api = await apiOf(page);
  const answer = await api.get<{ data: PerformanceReport }>(`/api/reports/performance?from=${from}&to=${to}&groupBy=client`);
  const rows = [...answer.data.rows].sort((a, b) => b.figures.responses - a.figures.responses);
  const top = rows[0];
  if (!top || top.figures.responses === 0) throw new Error('the demo has no responses in the last 90 days');
  return top;
}

/** The table as the screen shows it (header, then rows), sort arrows left out. */
async function tableTexts(page: Page): Promise<string[][]> {
  const table = page.getByRole('table', { name: TABLE, exact: true });
  const head = (await table.getByRole('columnheader').allInnerTexts()).map((t) => t.replace(/[▲▼↕]/g, '').trim());
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
  return [head, ...rows];
}

/** A CSV line's fields (RFC 4180 quoting). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  const re = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
  for (let m = re.exec(line); m && m[0] !== ''; m = re.exec(line)) {
    const raw = m[1] ?? '';
    fields.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw);
    if (m[2] === '') break;
  }
  return fields;
}

test.describe('Performance Report', () => {
  for (const width of WIDTHS) {
    test(`cards, a chart and a table whose Responses match Survey Manager; CSV equals the table; print fits A4 (${width} px)`, async ({
      page,
    }) => {
      // Many steps (two other screens, a download, the print view) on a shared two-core machine.
      test.setTimeout(120_000);
      const errors = collectConsoleErrors(page);
      await page.setViewportSize({ width, height: 900 });
      // Opened bare, it shows the last full month, compared with the month before.
      await signInAsAdmin(page, PATH);
      await expect(page.getByRole('heading', { level: 1, name: 'Performance Report' })).toBeVisible();
      await expect(page.getByText(/, compared with the previous period \(/)).toBeVisible();
      await expect(page.getByRole('group', { name: 'Sent', exact: true })).toBeVisible();

      const to = iso(new Date());
      const from = iso(new Date(Date.now() - 89 * 86_400_000));
      const client = await busiestClient(page, from, to);
      const responses = client.figures.responses.toLocaleString('en-US');

      await page.goto(`${PATH}?clients=${client.key}&from=${from}&to=${to}&groupBy=client`);
      await expect(listRows(page, TABLE)).toHaveCount(1);
      await expect(page.getByRole('group', { name: 'Responses', exact: true })).toContainText(responses);
      await expect(page.getByRole('group', { name: 'NPS', exact: true })).toContainText('promoters');
      const chart = page.getByRole('figure', { name: 'NPS and responses over time' });
      await expect(chart.locator('svg.recharts-surface').first()).toBeVisible();
      await expect(page.getByRole('figure', { name: 'Score mix' })).toBeVisible();
      expect(await columnTexts(page, TABLE, 'Responses')).toEqual([responses]);
      await shot(page, `performance-report-${width}`);
      await showFilters(page);
      // The lists nobody narrowed say so.
      await expect(page.getByPlaceholder('Selected All').first()).toBeVisible();

      expect(await seriousViolations(page)).toEqual([]);

      // The CSV is the table: same header, same rows, same text.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const csv = readFileSync((await download.path()) ?? '', 'utf8')
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n')
        .map(csvFields);
      if (width > 640) {
        expect(csv).toEqual(await tableTexts(page));
      } else {
        const header = csv[0] ?? [];
        expect(header.slice(0, 5)).toEqual(['Client', 'Sent', 'Delivered', 'Opened', 'Responses']);
        expect(csv[1]?.[header.indexOf('Responses')]).toBe(responses);
        expect(csv[1]?.[0]).toBe(client.label);
      }

      // The number opens the rows behind it: Survey Manager counts as many responses.
      await page.getByRole('link', { name: `Responses of ${client.label}: ${responses}, open the rows in Survey Manager` }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Survey Manager' })).toBeVisible();
      await expect(page.getByText(new RegExp(`^Showing .* of ${responses}$`))).toBeVisible();
      await page.goBack();
      await expect(listRows(page, TABLE)).toHaveCount(1);

      // Sent opens the invitations, by the day sent, in Survey Processing.
      const sent = client.figures.sent.toLocaleString('en-US');
      await page.getByRole('link', { name: `Sent of ${client.label}: ${sent}, open the rows in Survey Processing` }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Survey Processing' })).toBeVisible();
      await expect(page.getByText(new RegExp(`^Showing .* of ${sent}$`))).toBeVisible();
      await page.goBack();

      // Group by is a filter of the URL: changed, the table regroups; Back brings the last grouping back.
      await showFilters(page);
      await page.getByLabel('Group by', { exact: true }).first().click();
      await page.getByRole('option', { name: 'Month', exact: true }).click();
      await expect(page).toHaveURL(/groupBy=month/);
      await expect(
        page
          .getByRole('table', { name: TABLE })
          .getByRole('columnheader', { name: /^Month/ })
          .or(listRows(page, TABLE))
          // A header and rows of months at once (the demo has a year of them): either one is enough.
          .first(),
      ).toBeVisible();
      await page.goBack();
      await expect(page).toHaveURL(/groupBy=client/);
      await expect(listRows(page, TABLE)).toHaveCount(1);

      // Print: the view opens the print dialog once drawn, and on paper fits an A4 page's width.
      await page.evaluate(() => {
        window.print = () => document.body.setAttribute('data-printed', 'yes');
      });
      await page.getByRole('button', { name: 'Print' }).click();
      await expect(page.locator('body')).toHaveAttribute('data-printed', 'yes');
      await expect(page.getByRole('table', { name: 'Surveys' })).toBeVisible();
      await page.emulateMedia({ media: 'print' });
      await page.setViewportSize({ width: A4_PRINTABLE_PX, height: 1100 });
      await expect(page.getByRole('banner')).toBeHidden();
      await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
      const widest = await page.evaluate(() => {
        const parts = [...document.querySelectorAll('.performance-print table, .performance-print figure, .performance-print svg')];
        return Math.max(document.documentElement.scrollWidth, ...parts.map((el) => el.getBoundingClientRect().right));
      });
      expect(widest).toBeLessThanOrEqual(A4_PRINTABLE_PX);
      // No header or figure spills out of its cell either.
      const spilled = await page
        .locator('.performance-print th, .performance-print td')
        .evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent));
      expect(spilled).toEqual([]);
      await shot(page, `performance-report-print-${width}`);
      const svgWidths = await page
        .locator('.performance-print .recharts-wrapper > svg')
        .evaluateAll((s) => s.map((e) => e.getAttribute('width')));
      expect(svgWidths).toEqual(['680', '680']);
      await page.emulateMedia({ media: 'screen' });

      expect(errors).toEqual([]);
    });
  }
});
