import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures.ts';
import { openInvitation } from './reputation-support.ts';
import { apiOf, collectConsoleErrors, signInAsAdmin, WIDTHS } from './support.ts';

type Row = { id: number; location_id: string; clicked_at: string | null; status: string; invited_at: string };

/**
 * Where the stored Google link points in this test: a local stand-in for Google's review page,
 * never the internet (Chromium does not hand a redirect's target to Playwright's routes, so the
 * stand-in is a small server of the test's own rather than a route).
 */
let GOOGLE = '';
let standIn: Server;
test.beforeAll(async () => {
  standIn = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>Write a review</title><h1>Google review form (stand-in)</h1></html>');
  });
  await new Promise<void>((done) => standIn.listen(0, '127.0.0.1', done));
  GOOGLE = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/local/writereview?placeid=review-links-e2e`;
});
test.afterAll(() => new Promise<void>((done) => standIn.close(() => done())));

// Issue 21, item 2: the thank-you page's review links are /r/{token}; following one records the
// click and lands on the location's stored link (here a local stand-in for Google's page).
for (const width of WIDTHS) {
  test(`Review links at ${width} px: a respondent answers, follows "Review us on Google" through /r/, and the click is recorded`, async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page);
    const api = await apiOf(page);
    const me = await api.get<{ data: { user: { current_client_id: number } } }>('/api/user');
    const clientId = me.data.user.current_client_id;
    const { token, locationId } = await openInvitation(page, clientId, GOOGLE);

    await page.goto(`/s/${token}`);
    await page.getByRole('radio', { name: '9', exact: true }).first().check();
    await page.getByRole('button', { name: 'Send my answers' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/thank you/i);
    const link = page.getByRole('link', { name: 'Review us on Google' });
    await expect(link).toBeVisible();
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/r\/[A-Za-z0-9_-]{20,}$/);
    // The page itself never holds the stored link: only the /r/ redirect leads there.
    expect(await page.content()).not.toContain('review-links-e2e');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe(GOOGLE);
    await expect(popup.getByRole('heading', { name: 'Google review form (stand-in)' })).toBeVisible();
    await popup.close();

    // The click is recorded on the invitation (the Reputation Panel's API), newest first.
    const rows = await api.get<{ data: Row[] }>(`/api/v1/reputation?site=google&clientId=${clientId}&status=clicked&perPage=20`);
    const mine = rows.data.find((r) => r.location_id === locationId);
    expect(mine, 'the clicked invitation is listed').toBeDefined();
    expect(mine?.clicked_at).not.toBeNull();

    // The answered link, opened again, offers the same /r/ link; an unknown one is a plain 404 page.
    await page.goto(`/s/${token}`);
    await expect(page.getByRole('heading', { level: 1, name: 'You have already answered this survey' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Review us on Google' })).toHaveAttribute('href', href ?? '');
    const unknown = await page.goto('/r/AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'We could not find this review link' })).toBeVisible();
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
  });
}
