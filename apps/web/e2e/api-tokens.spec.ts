import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, signInAsAdmin } from './support.ts';

type TokenUser = {
  id: number;
  name: string;
  email: string;
  client_id: number | null;
  is_superadmin: number;
  may_hold_token: boolean;
  state: string;
};

/** A user's row on API Token Generation, found by the user's name (after a search by e-mail leaves one row). */
const userRow = (page: Page, name: string) => page.getByRole('table', { name: 'API tokens' }).getByRole('row').filter({ hasText: name });

/**
 * Searches for the user by e-mail and waits for the one row it leaves: a click before the search
 * answered would be on a row the answer then replaces, and a dialog it opened goes with that row.
 */
async function searchFor(page: Page, user: TokenUser) {
  await page.getByRole('searchbox', { name: 'Search' }).fill(user.email);
  await expect(page.getByRole('table', { name: 'API tokens' }).getByRole('row')).toHaveCount(2);
}

/** Finds the user with the search box, then revokes their token if an earlier attempt left one, so Generate is offered. */
async function findUser(page: Page, user: TokenUser) {
  await searchFor(page, user);
  const revoke = page.getByRole('button', { name: `Revoke token of ${user.name}` });
  const generate = page.getByRole('button', { name: `Generate token for ${user.name}` });
  await expect(revoke.or(generate)).toBeVisible();
  if (await revoke.isVisible()) {
    await revoke.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await expect(generate).toBeVisible();
  }
}

test('API tokens: a token made on screen is copied from its dialog, feeds the ingest endpoint (accepted, rejected, 401, 423 paused, 429), and is refused once revoked', async ({
  page,
  context,
}) => {
  const errors = collectConsoleErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const attempt = Date.now().toString(36);
  const tokenName = `E2E feed ${attempt}`;
  await signInAsAdmin(page);

  // The token's user: one of the users of the client of API Managers' first endpoint (a user of one
  // client may hold a token that feeds that client only); the provider's staff may hold none.
  const api = await apiOf(page);
  const [endpoint] = (await api.get<{ data: { client_id: number }[] }>('/api/api-endpoints?perPage=1')).data;
  if (!endpoint) throw new Error('the demo data has no location');
  const users = (await api.get<{ data: TokenUser[] }>(`/api/api-token?client=${endpoint.client_id}&perPage=100`)).data.filter(
    (u) => u.is_superadmin === 0 && u.may_hold_token && u.client_id === endpoint.client_id,
  );
  const [user, other] = users;
  if (!user || !other) throw new Error("the demo data has fewer than two users of the first endpoint's client");
  const staff = (await api.get<{ data: TokenUser[] }>('/api/api-token?q=staff%40example.com')).data[0];
  expect(staff?.may_hold_token).toBe(false);

  // Generate: the plaintext is shown once, with a copy button.
  await page.goto('/admin/api-token-generation');
  await page.getByRole('searchbox', { name: 'Search' }).fill('staff@example.com');
  await expect(userRow(page, 'Sam Staff')).toContainText('May not hold a token');
  await expect(page.getByRole('button', { name: 'Generate token for Sam Staff' })).toHaveCount(0);
  await findUser(page, user);
  await page.getByRole('button', { name: `Generate token for ${user.name}` }).click();
  const form = page.getByRole('dialog', { name: `Generate a token for ${user.name}` });
  await form.getByRole('textbox', { name: 'Token name' }).fill(tokenName);
  await expect(form.getByRole('checkbox', { name: 'Feeds: write (ingest endpoint)' })).toBeChecked();
  await form.getByRole('button', { name: 'Generate token' }).click();
  const shown = page.getByRole('dialog', { name: 'Copy your new token' });
  const token = await shown.getByRole('textbox', { name: 'Token' }).inputValue();
  expect(token).toMatch(/^rp_[0-9A-Za-z]{46}$/);
  await shown.getByRole('button', { name: 'Copy token' }).click();
  await expect(shown.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await shown.getByRole('button', { name: 'Done' }).click();
  // The list shows the token by its first and last characters only.
  await expect(userRow(page, user.name)).toContainText(`${token.slice(0, 7)}…${token.slice(-4)}`);
  await expect(page.getByText(token)).toHaveCount(0);

  // API Managers: set the first location's endpoint up with this token.
  await page.goto('/admin/api-managers');
  const table = page.getByRole('table', { name: 'API endpoints' });
  const row = table.getByRole('row').nth(1);
  await expect(row).toBeVisible();
  const path = (await row.getByText(/^POST \/api\/v1\/endpoints\//).innerText()).replace(/^POST /, '');
  const location = (await row.getByRole('cell').first().innerText()).trim();
  /** Pause or Resume the endpoint on screen, confirmed in its dialog. */
  const setStatus = async (action: 'Pause' | 'Resume') => {
    await row.getByRole('button', { name: `${action} the endpoint of ${location}` }).click();
    await page
      .getByRole('dialog', { name: `${action} the endpoint of ${location}?` })
      .getByRole('button', { name: action })
      .click();
    await expect(row).toContainText(action === 'Pause' ? 'Paused' : 'Active');
  };
  // An earlier attempt may have left it paused.
  if (await row.getByRole('button', { name: `Resume the endpoint of ${location}` }).isVisible()) await setStatus('Resume');
  await row.getByRole('button', { name: /^(Set up|Edit) endpoint of / }).click();
  const setup = page.getByRole('dialog', { name: /the endpoint of / });
  const survey = setup.getByRole('combobox', { name: 'Survey' });
  await survey.click();
  await page.getByRole('option').first().click();
  // An earlier attempt may have chosen it already, and choosing the chosen option again clears it.
  if ((await survey.inputValue()) === '') {
    await survey.click();
    await page.getByRole('option').first().click();
  }
  await expect(survey).not.toHaveValue('');
  await setup.getByRole('combobox', { name: 'Token' }).click();
  await page.getByRole('option', { name: new RegExp(tokenName) }).click();
  await setup.getByRole('textbox', { name: 'Rate limit per minute' }).fill('60');
  // A webhook secret only when asked: shown once, then it speaks for the bound token.
  const makeSecret = setup.getByRole('radio', { name: /^(Make a secret|Replace it with a new secret)/ });
  await makeSecret.check();
  await setup.getByRole('button', { name: 'Save' }).click();
  await expect(setup).toBeHidden();
  const secretDialog = page.getByRole('dialog', { name: 'Copy the webhook secret' });
  const secret = await secretDialog.getByRole('textbox', { name: 'Webhook secret' }).inputValue();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{32,}$/);
  await secretDialog.getByRole('button', { name: 'Done' }).click();
  await expect(row).toContainText(tokenName);
  await expect(row).toContainText('or its webhook secret');

  // The ingest endpoint takes the token: one row accepted with its processing item, one rejected.
  const rows = [
    {
      first_name: 'Robin',
      last_name: 'E2E',
      email: `robin.${attempt}@example.com`,
      transaction_id: `E2E-${attempt}`,
      transaction_date: new Date().toISOString().slice(0, 10),
    },
    { first_name: '', email: 'nobody', transaction_id: `E2E-${attempt}-bad`, transaction_date: 'soon' },
  ];
  const call = () => page.request.post(path, { headers: { authorization: `Bearer ${token}` }, data: rows });
  const callWithSecret = () => page.request.post(path, { headers: { 'x-webhook-secret': secret }, data: rows });
  const accepted = await call();
  expect(accepted.status()).toBe(200);
  const answer = (await accepted.json()).data;
  expect(answer.accepted).toEqual([expect.objectContaining({ row: 1, processing_item_id: expect.any(Number) })]);
  expect(answer.rejected.map((r: { row: number }) => r.row)).toEqual([2]);
  expect((await callWithSecret()).status()).toBe(200);
  expect((await page.request.post(path, { data: rows })).status()).toBe(401);
  // A token without the feeds:write scope (made for another user of the client) is refused, naming the scope.
  const [otherLive] = (
    await api.get<{ data: { token_id: number | null; state: string }[] }>(`/api/api-token?q=${encodeURIComponent(other.email)}`)
  ).data;
  if (otherLive?.token_id && otherLive.state !== 'revoked') await api.post(`/api/api-token/${otherLive.token_id}/revoke`, {}, 200);
  const reportsOnly = await api.post<{ data: { id: number; token: string } }>('/api/api-token', {
    user_id: other.id,
    name: `Reports ${attempt}`,
    scopes: ['reports:read'],
  });
  const wrongScope = await page.request.post(path, { headers: { authorization: `Bearer ${reportsOnly.data.token}` }, data: rows });
  expect(wrongScope.status()).toBe(403);
  expect((await wrongScope.json()).message).toContain('feeds:write');
  await api.post(`/api/api-token/${reportsOnly.data.id}/revoke`, {}, 200);

  // Paused on screen: 423 until resumed.
  await setStatus('Pause');
  expect((await call()).status()).toBe(423);
  await setStatus('Resume');
  expect((await call()).status()).toBe(200);

  // One call a minute: the next is refused with 429 and Retry-After (within three, should a minute turn).
  await row.getByRole('button', { name: `Edit endpoint of ${location}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit the endpoint of ${location}` });
  await edit.getByRole('textbox', { name: 'Rate limit per minute' }).fill('1');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  let limited = null;
  for (let i = 0; i < 3 && !limited; i++) {
    const res = await call();
    if (res.status() === 429) limited = res;
  }
  expect(limited?.headers()['retry-after']).toMatch(/^\d+$/);

  // The calls are on the screen: Calls 24h and the recent calls, the paused one's 423 among them;
  // the calls refused before any credential (401) are counted in System Logs instead.
  await page.reload();
  await row.getByRole('button', { name: /^Recent calls of / }).click();
  const calls = page.getByRole('table', { name: /^Recent calls of / });
  await expect(calls.getByRole('cell', { name: '200', exact: true }).first()).toBeVisible();
  await expect(calls.getByRole('cell', { name: '423', exact: true }).first()).toBeVisible();
  await expect(calls.getByRole('cell', { name: '401', exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Revoke (confirmed): the token is refused from then on, and the endpoint's secret is gone with it.
  await page.goto('/admin/api-token-generation');
  await searchFor(page, user);
  await page.getByRole('button', { name: `Revoke token of ${user.name}` }).click();
  await page
    .getByRole('dialog', { name: `Revoke token ${tokenName}?` })
    .getByRole('button', { name: 'Revoke token' })
    .click();
  await expect(userRow(page, user.name)).toContainText('Revoked');
  expect((await call()).status()).toBe(401);
  expect((await callWithSecret()).status()).toBe(401);
  expect(errors).toEqual([]);
});
