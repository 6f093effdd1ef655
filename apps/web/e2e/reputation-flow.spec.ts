import { expect, test } from './fixtures.ts';
import { openInvitation, postReview, reviewsToken } from './reputation-support.ts';
import { apiOf, collectConsoleErrors, listRows, signInAsAdmin, WIDTHS } from './support.ts';

type Row = { id: number; location_id: string; customer_name: string; status: string; match_confidence: number | null };

/** The stored Google link in this test: routed to a local page, never the internet. */
const GOOGLE = 'https://search.google.com/local/writereview?placeid=reputation-flow-e2e';

// Issue 21, "Done when": a respondent clicks a review link on the thank-you page; a review by that
// customer posted through the API is matched to the invitation by the worker and appears on the
// Reputation Panel as posted, with its match confidence.
for (const width of WIDTHS) {
  test(`Review amplification end to end at ${width} px: clicked on the thank-you page, posted through the API, shown posted on the panel`, async ({
    page,
    context,
  }) => {
    const errors = collectConsoleErrors(page);
    await context.route(
      (url) => url.hostname === 'search.google.com',
      (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: '<!doctype html><html lang="en"><title>Write a review</title><h1>Stand-in</h1></html>',
        }),
    );
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page);
    const api = await apiOf(page);
    const me = await api.get<{ data: { user: { current_client_id: number } } }>('/api/user');
    const clientId = me.data.user.current_client_id;
    const { token, locationId } = await openInvitation(page, clientId, GOOGLE);

    // The respondent answers and follows "Review us on Google" (the /r/ answer is a redirect to the stored link).
    await page.goto(`/s/${token}`);
    await page.getByRole('radio', { name: '10', exact: true }).first().check();
    await page.getByRole('button', { name: 'Send my answers' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/thank you/i);
    const href = await page.getByRole('link', { name: 'Review us on Google' }).getAttribute('href');
    expect(href).toMatch(/^\/r\//);
    const click = await page.request.get(href ?? '', { maxRedirects: 0 });
    expect(click.status()).toBeGreaterThanOrEqual(300);
    expect(click.headers().location).toBe(GOOGLE);

    const clicked = await api.get<{ data: Row[] }>(`/api/v1/reputation?site=google&clientId=${clientId}&status=clicked&perPage=50`);
    const invitation = clicked.data.find((r) => r.location_id === locationId);
    if (!invitation) throw new Error('the clicked invitation is not listed');

    // Minutes later the customer's review arrives from the review system, under their own name.
    const { token: apiToken } = await reviewsToken(page);
    const stamp = Date.now();
    await postReview(page, apiToken, {
      reviewId: `e2e-flow-${stamp}`,
      locationId,
      site: 'google',
      reviewer: { displayName: invitation.customer_name },
      starRating: 'FIVE',
      comment: 'Friendly people and quick service, thank you!',
      createTime: new Date().toISOString(),
    });

    // The worker matches it: the invitation is posted, with the confidence kept.
    await expect
      .poll(
        async () => {
          const rows = await api.get<{ data: Row[] }>(`/api/v1/reputation?site=google&clientId=${clientId}&status=posted&perPage=50`);
          return rows.data.find((r) => r.id === invitation.id)?.match_confidence ?? null;
        },
        { timeout: 20_000 },
      )
      .toBeGreaterThanOrEqual(70);

    // On the panel, as staff read it: the customer's row says Posted and shows the review.
    await page.goto('/admin/reputation-panel?status=posted');
    await expect(page.getByRole('heading', { level: 1, name: 'Reputation Panel' })).toBeVisible();
    const row = listRows(page, 'Reputation items').filter({ hasText: invitation.customer_name }).first();
    await expect(row).toBeVisible();
    await expect(row).toContainText('Posted');
    if (width > 640) await expect(row).toContainText('Friendly people');
    expect(errors).toEqual([]);
  });
}
