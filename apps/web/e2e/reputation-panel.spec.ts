import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { openInvitation } from './reputation-support.ts';
import { apiOf, collectConsoleErrors, columnTexts, listRows, PHONE, showFilters, signInAsAdmin, WIDTHS } from './support.ts';

/**
 * Makes the panel's rows as a respondent does: a demo invitation of the current client still open
 * is answered 10 on its public page, its location first given a Google review link (Locations'
 * API), so the thank-you page offers Google and records the invitation; `click` then follows the
 * page's review link once (without leaving for Google), which records the click.
 */
async function answerAsPromoter(page: Page, clientId: number, click: boolean): Promise<void> {
  const { token } = await openInvitation(page, clientId, 'https://g.page/r/reputation-panel-e2e/review');
  await page.goto(`/s/${token}`);
  await page.getByRole('radio', { name: '10', exact: true }).first().check();
  await page.getByRole('button', { name: 'Send my answers' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/thank/i);
  const link = await page.locator('a[href*="/r/"]').first().getAttribute('href');
  expect(link, 'the thank-you page offers a review link').toBeTruthy();
  if (click && link) {
    const res = await page.request.get(link, { maxRedirects: 0 });
    expect(res.status()).toBeGreaterThanOrEqual(300);
  }
}

const CAPTION = 'Reputation items';
const KPIS = ['Invites sent', 'Click-through', 'Reviews posted', 'Conversion', 'Average rating', 'New reviews on Google'];

// Issue 21, item 4: the demo client's panel (its invitations come from the demo's answered surveys,
// each offered site an amplification): KPI cards, rows, the status filter, cards on a phone.
for (const width of WIDTHS) {
  test(`Reputation Panel at ${width} px: KPI cards and the demo's rows on Google, filtered by status in the URL`, async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page);
    const user = await (await apiOf(page)).get<{ data: { user: { current_client_id: number } } }>('/api/user');
    const clientId = user.data.user.current_client_id;
    await answerAsPromoter(page, clientId, true);
    await answerAsPromoter(page, clientId, false);
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/reputation')) calls.push(new URL(r.url()).pathname + new URL(r.url()).search);
    });
    await page.goto('/admin/reputation-panel');

    const cards = page.getByRole('region', { name: 'KPI cards' });
    for (const label of KPIS) await expect(cards.getByRole('group', { name: label })).toBeVisible();
    await expect(cards.getByRole('group', { name: 'Invites sent' })).toContainText(/\d/);
    await expect(page.getByText('Every respondent is invited')).toBeVisible();

    const rows = listRows(page, CAPTION);
    await expect(rows.first()).toBeVisible();
    // The spec's calls: the site (Google by default) and the tab's client on both.
    expect(calls.some((c) => /^\/api\/v1\/reputation\?.*site=google.*clientId=\d+/.test(c))).toBe(true);
    expect(calls.some((c) => /^\/api\/v1\/reputation\/filters\?site=google&clientId=\d+/.test(c))).toBe(true);
    // Below 640 px the list is cards, above it a table (docs/decisions/040).
    if (width === PHONE) {
      await expect(page.getByRole('table', { name: CAPTION })).toHaveCount(0);
      await expect(page.getByRole('list', { name: CAPTION })).toBeVisible();
    } else {
      await expect(page.getByRole('table', { name: CAPTION })).toBeVisible();
      for (const header of ['Invited at', 'API endpoint/Location', 'Customer', 'Review excerpt', 'Match confidence', 'Status']) {
        await expect(page.getByRole('columnheader', { name: header })).toBeVisible();
      }
    }
    // A badge's text is shown in capitals (CSS); its words are compared case aside.
    const statuses = (await columnTexts(page, CAPTION, 'Status')).map((t) => t.trim().toLowerCase());
    expect(statuses.length).toBeGreaterThan(0);
    // Labels, never keys.
    for (const s of statuses) expect(['invited', 'clicked', 'posted', 'not posted', 'opted out', 'failed']).toContain(s);

    await showFilters(page);
    await expect(page.getByRole('combobox', { name: 'Site' })).toHaveValue('Google');
    // The clicked invitation and the one only invited: the filter has something to leave out.
    expect(new Set(statuses).size).toBeGreaterThan(1);
    const chosen = statuses.includes('clicked') ? 'Clicked' : 'Invited';
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: chosen, exact: true }).click();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/status=/);
    await expect(rows.first()).toBeVisible();
    await expect
      .poll(async () => (await columnTexts(page, CAPTION, 'Status')).every((s) => s.trim().toLowerCase() === chosen.toLowerCase()), {
        timeout: 10_000,
      })
      .toBe(true);
    const invited = await cards.getByRole('group', { name: 'Invites sent' }).innerText();
    expect(invited).toMatch(/\d/);

    // The filter lives in the URL: a reload shows the same narrowed list.
    await page.reload();
    await expect(rows.first()).toBeVisible();
    expect((await columnTexts(page, CAPTION, 'Status')).every((s) => s.trim().toLowerCase() === chosen.toLowerCase())).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
  });
}
