import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { openInvitation, postReview, reviewsToken } from './reputation-support.ts';
import { apiOf, collectConsoleErrors, listRows, openRowActions, PHONE, signInAsAdmin, WIDTHS } from './support.ts';

type Row = { id: number; location_id: string; customer_name: string; status: string; reminder_sent_at: string | null };

/** The stored Google link of the invitation's location (never followed here). */
const GOOGLE = 'https://g.page/r/reputation-panel-actions-e2e/review';
const CAPTION = 'Reputation items';

/** One of a row's actions from its More menu, at any width (a card's actions are opened first). */
async function menuItem(page: Page, row: Locator, name: string): Promise<Locator> {
  await openRowActions(row);
  const item = page.getByRole('menuitem', { name, exact: true });
  if (!(await item.isVisible())) await row.getByRole('button', { name: /^More actions for / }).click();
  await expect(item).toBeVisible();
  return item;
}

/** The panel narrowed to one customer (search), the newest invitation first: the one this test made. */
/** Closes the message that says `text` with its close button, and waits until it is gone. */
async function closeToast(page: Page, text: string): Promise<void> {
  const toast = page.getByRole('alert').filter({ hasText: text });
  await toast.getByRole('button', { name: 'Close notification' }).click();
  await expect(toast).toBeHidden();
}

async function rowOf(page: Page, customer: string): Promise<Locator> {
  await page.goto(`/admin/reputation-panel?q=${encodeURIComponent(customer)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Reputation Panel' })).toBeVisible();
  const row = listRows(page, CAPTION).first();
  await expect(row).toContainText(customer);
  return row;
}

// Issue 21, item 5 of the finishing list: the Reputation Panel's row actions as staff use them —
// Resend invite (once; a second attempt refused with the reason), Match review manually among the
// location's unmatched reviews, and Unmatch back to the row's previous state. The invitation and
// the review are made through the real API: a respondent answers a demo invitation (the thank-you
// page offers Google), a review system posts a review under another name (so nothing matches it
// by itself).
for (const width of WIDTHS) {
  test(`Reputation Panel row actions at ${width} px: Resend invite once, Match a review by hand, Unmatch`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const errors = collectConsoleErrors(page);
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page);
    const api = await apiOf(page);
    const me = await api.get<{ data: { user: { current_client_id: number } } }>('/api/user');
    const clientId = me.data.user.current_client_id;

    // A respondent answers an e-mailed invitation: the thank-you page invites them to Google.
    const { token, locationId } = await openInvitation(page, clientId, GOOGLE, 'email');
    await page.goto(`/s/${token}`);
    await page.getByRole('radio', { name: '10', exact: true }).first().check();
    await page.getByRole('button', { name: 'Send my answers' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/thank you/i);
    const invited = await api.get<{ data: Row[] }>(`/api/v1/reputation?site=google&clientId=${clientId}&status=invited&perPage=50`);
    const invitation = invited.data.find((r) => r.location_id === locationId && r.reminder_sent_at === null);
    if (!invitation) throw new Error('the new invitation is not listed');
    const customer = invitation.customer_name;

    // A review of that location arrives under a name that is not the customer's.
    const stamp = Date.now();
    const reviewer = `Zephyrine Okonkwo ${stamp}`;
    const { token: reviewsApi } = await reviewsToken(page);
    await postReview(page, reviewsApi, {
      reviewId: `e2e-actions-${stamp}`,
      locationId,
      site: 'google',
      reviewer: { displayName: reviewer },
      starRating: 'FIVE',
      comment: `Panel actions e2e ${stamp}: lovely visit`,
      createTime: new Date().toISOString(),
    });

    // A colleague's tab, opened on the same row before the reminder goes out.
    const colleagueContext = await browser.newContext({ baseURL, viewport: { width, height: 900 } });
    const colleague = await colleagueContext.newPage();
    await signInAsAdmin(colleague);
    const staleRow = await rowOf(colleague, customer);

    // (a) Resend invite, confirmed, reported; then refused, with the reason, from the stale tab.
    let row = await rowOf(page, customer);
    await expect(row).toContainText('Invited');
    await (await menuItem(page, row, 'Resend invite')).click();
    const confirmResend = page.getByRole('dialog', { name: 'Send a review reminder?' });
    await expect(confirmResend).toContainText(`${customer} gets one reminder by e-mail`);
    await confirmResend.getByRole('button', { name: 'Send reminder' }).click();
    await expect(page.getByText(`Sent ${customer} a reminder.`)).toBeVisible();
    await expect(confirmResend).toBeHidden();
    await expect(await menuItem(page, row, 'Resend invite')).toBeDisabled();
    await page.keyboard.press('Escape');

    await (await menuItem(colleague, staleRow, 'Resend invite')).click();
    const refused = colleague.getByRole('dialog', { name: 'Send a review reminder?' });
    await refused.getByRole('button', { name: 'Send reminder' }).click();
    await expect(refused.getByRole('alert')).toContainText('Resend invite refused');
    await expect(refused.getByRole('alert')).toContainText(/A reminder was already sent \(.+\); only one is sent\./);
    await refused.getByRole('button', { name: 'Cancel' }).click();
    await colleagueContext.close();

    // (b) Match review manually: the posted review is among the candidates; the row says Posted.
    row = await rowOf(page, customer);
    await (await menuItem(page, row, 'Match review manually')).click();
    const match = page.getByRole('dialog', { name: `Match a Google review to ${customer}` });
    await match.getByRole('radio', { name: new RegExp(`^${reviewer} · 5/5`) }).check();
    await match.getByRole('button', { name: 'Confirm match' }).click();
    await expect(page.getByText(`Matched ${customer}'s invitation to the review.`)).toBeVisible();
    await expect(match).toBeHidden();
    await closeToast(page, `Matched ${customer}'s invitation to the review.`);
    await expect(row).toContainText('Posted');
    if (width !== PHONE) {
      await expect(row).toContainText(`Panel actions e2e ${stamp}`);
      await expect(row).toContainText('Manual');
    }

    // (c) Unmatch, confirmed: the row is Invited again, without the review.
    await (await menuItem(page, row, 'Unmatch')).click();
    const unmatch = page.getByRole('dialog', { name: 'Unmatch this review?' });
    await unmatch.getByRole('button', { name: 'Unmatch' }).click();
    await expect(page.getByText(`Unmatched the review from ${customer}'s invitation.`)).toBeVisible();
    await expect(unmatch).toBeHidden();
    // On a phone the message sits over the row's menu: closed, as a person would before the next action.
    await closeToast(page, `Unmatched the review from ${customer}'s invitation.`);
    await expect(row).toContainText('Invited');
    await expect(row).not.toContainText('Posted');
    await expect(row).not.toContainText(`Panel actions e2e ${stamp}`);
    // The review is free again: Match offers it once more.
    await (await menuItem(page, row, 'Match review manually')).click();
    await expect(match.getByRole('radio', { name: new RegExp(`^${reviewer}`) })).toBeVisible();
    await match.getByRole('button', { name: 'Cancel' }).click();

    const after = await api.get<{ data: Row[] }>(
      `/api/v1/reputation?site=google&clientId=${clientId}&perPage=50&q=${encodeURIComponent(customer)}`,
    );
    expect(after.data.find((r) => r.id === invitation.id)).toMatchObject({ status: 'invited' });
    expect(after.data.find((r) => r.id === invitation.id)?.reminder_sent_at).not.toBeNull();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
  });
}
