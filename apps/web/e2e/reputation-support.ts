import { expect, type Page } from '@playwright/test';
import { apiOf } from './support.ts';

// What the reputation specs do as a respondent and as a review system: find a demo invitation still
// open (its link read from the invitation e-mail's log, as the respondent finds it), give its
// location a Google review link, and post reviews with a reviews:write API token.

type Log = { id: number; location_id: string | null; test: boolean };
type Location = { _id: string; review_links: Record<string, string>; updated_at: string };
type TokenUser = {
  id: number;
  client_id: number | null;
  is_superadmin: number;
  may_hold_token: boolean;
  token_id: number | null;
  state: string;
};

/**
 * A demo invitation of the client still open to answers, on its NPS survey (0–10: the callers
 * answer with a score on it), with its location; sent by `channel` when one is given. Its link is
 * read from the invitation e-mail's log, as the respondent finds it.
 */
export async function openNpsInvitation(
  page: Page,
  clientId: number,
  channel?: 'email' | 'sms',
): Promise<{ token: string; location: Location }> {
  const api = await apiOf(page);
  // The demo's SES events move sent invitations on to delivered, opened or clicked: all still open.
  const logs = await api.get<{ data: Log[] }>(
    `/api/notifications-logs?type=survey_invite&status=sent,delivered,opened,clicked&client=${clientId}&perPage=100${channel ? `&channel=${channel}` : ''}`,
  );
  const locations = await api.get<{ data: Location[] }>('/api/endpoints?perPage=200');
  for (const log of logs.data) {
    // A Send test invitation (another spec's) records a test response, which invites to no review.
    if (log.test) continue;
    const location = locations.data.find((l) => l._id === log.location_id);
    if (!location) continue;
    const detail = await api.get<{ data: { body_text: string | null } }>(`/api/notifications-logs/${log.id}`);
    const token = /\/s\/([\w-]+)/.exec(detail.data.body_text ?? '')?.[1];
    if (!token) continue;
    // Still open: its page is the form (an answered or expired link shows a page without it). Some
    // clients' second demo survey asks 1–5 stars, which has no 9 or 10 to answer.
    const html = await (await page.request.get(`/s/${token}`, { headers: { accept: 'text/html' } })).text();
    if (!html.includes('Send my answers') || !html.includes('value="10"')) continue;
    return { token, location };
  }
  throw new Error('no open NPS invitation found in the demo data');
}

/**
 * An open NPS invitation of the client (openNpsInvitation) whose location's Google review link is
 * `googleLink` (set through Locations' API when it differs).
 */
export async function openInvitation(
  page: Page,
  clientId: number,
  googleLink: string,
  channel?: 'email' | 'sms',
): Promise<{ token: string; locationId: string }> {
  const { token, location } = await openNpsInvitation(page, clientId, channel);
  if (location.review_links.google !== googleLink) {
    const res = await page.request.fetch(`/api/endpoints/${location._id}`, {
      method: 'PATCH',
      headers: await page.evaluate(() => ({
        authorization: `Bearer ${(sessionStorage.getItem('storage-auth-user-token') ?? '').replace(/"/g, '')}`,
      })),
      data: { review_links: { ...location.review_links, google: googleLink }, updated_at: location.updated_at },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  return { token, locationId: location._id };
}

/**
 * A reviews:write token of a user of the current client (a user holds one token at a time: one
 * an earlier run or spec gave is revoked first), and one of the client's locations.
 */
export async function reviewsToken(page: Page): Promise<{ token: string; locationId: string }> {
  const api = await apiOf(page);
  const me = await api.get<{ data: { user: { current_client_id: number } } }>('/api/user');
  const clientId = me.data.user.current_client_id;
  const users = (await api.get<{ data: TokenUser[] }>(`/api/api-token?client=${clientId}&perPage=100`)).data.filter(
    (u) => u.is_superadmin === 0 && u.may_hold_token && u.client_id === clientId,
  );
  const user = users.find((u) => u.state !== 'active') ?? users[0];
  const locationId = (await api.get<{ data: { _id: string }[] }>('/api/endpoints?perPage=1')).data[0]?._id;
  if (!user || !locationId) throw new Error('the current client has no user who may hold a token, or no location');
  if (user.state === 'active' && user.token_id !== null) await api.post(`/api/api-token/${user.token_id}/revoke`, {}, 200);
  const made = await api.post<{ data: { token: string } }>('/api/api-token', {
    user_id: user.id,
    name: `Reviews e2e ${Date.now()}`,
    scopes: ['reviews:write'],
  });
  return { token: made.data.token, locationId };
}

/** One review posted as a review system does: Google's shape, a bearer token; it must be new. */
export async function postReview(page: Page, token: string, review: Record<string, unknown>): Promise<void> {
  const res = await page.request.post('/api/v1/reviews', { headers: { authorization: `Bearer ${token}` }, data: { reviews: [review] } });
  expect(res.status(), await res.text()).toBe(200);
  const answer = (await res.json()) as { data: { counts: { created: number } } };
  expect(answer.data.counts.created).toBe(1);
}
