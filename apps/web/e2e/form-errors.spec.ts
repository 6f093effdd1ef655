import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, signInAsAdmin } from './support.ts';

/**
 * Forms say every error (issue 19, items 7, 8, 9): each field error the server returns is shown
 * beside its field, one submit shows every error with the tabs that hold them marked, and nothing
 * typed is changed without a word (a rate limit is refused, not clamped; Regenerate keeps the expiry).
 */

type TokenUser = { id: number; name: string; email: string; is_superadmin: number; may_hold_token: boolean; token_id: number | null };

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Users who may hold a token and have none, from the end of the list (api-tokens.spec.ts takes its own from the start). */
async function tokenlessUsers(page: Page): Promise<TokenUser[]> {
  const api = await apiOf(page);
  const users = (await api.get<{ data: TokenUser[] }>('/api/api-token?has_token=no&perPage=200')).data;
  return users.filter((u) => u.may_hold_token && u.is_superadmin === 0 && u.token_id === null).reverse();
}

/** Finds the user's row (a card below 640 px, whose actions are in a menu) and clicks one of its actions. */
async function rowAction(page: Page, user: TokenUser, name: string) {
  await page.goto('/admin/api-token-generation');
  await page.getByRole('searchbox', { name: 'Search' }).fill(user.email);
  const action = page.getByRole('button', { name }).or(page.getByRole('menuitem', { name }));
  const menu = page.getByRole('button', { name: `Actions for ${user.name}` });
  await expect(action.or(menu).first()).toBeVisible();
  if (await menu.isVisible()) await menu.click();
  await action.first().click();
}

async function openGenerate(page: Page, user: TokenUser) {
  await rowAction(page, user, `Generate token for ${user.name}`);
  return page.getByRole('dialog', { name: `Generate a token for ${user.name}` });
}

async function generateFailsBesideEachField(page: Page, user: TokenUser) {
  const dialog = await openGenerate(page, user);
  const name = dialog.getByRole('textbox', { name: 'Token name' });
  const ips = dialog.getByRole('textbox', { name: 'Allowed IPs' });
  const expires = dialog.getByRole('textbox', { name: 'Expires' });
  const generate = dialog.getByRole('button', { name: 'Generate token' });

  // A bad Allowed IP: the server's 400 names allowed_ips.0, shown beside Allowed IPs.
  await name.fill('Nightly export');
  await ips.fill('203.0.113.7\nnot-an-address');
  await generate.click();
  await expect(ips).toHaveAttribute('aria-invalid', 'true');
  await expect(ips).toHaveAccessibleDescription(/The Allowed IPs field must hold IPv4 or IPv6 addresses or CIDR ranges/);
  await expect(dialog).toBeVisible();

  // A 61-character name: typed whole (not cut at 60) and refused beside Token name.
  await ips.fill('203.0.113.7');
  await name.fill('N'.repeat(61));
  await expect(name).toHaveValue('N'.repeat(61));
  await generate.click();
  await expect(name).toHaveAccessibleDescription(/The Token name field may not be greater than 60 characters/);
  await expect(ips).not.toHaveAttribute('aria-invalid', 'true');

  // An expiry that is no date: refused beside Expires.
  await name.fill('Nightly export');
  await expires.fill('soon');
  await generate.click();
  await expect(expires).toHaveAccessibleDescription(/The Expires field must be in the format yyyy-MM-dd or be "never"/);
  await expect(name).not.toHaveAttribute('aria-invalid', 'true');
  return dialog;
}

test.describe('at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('Generate token shows the server’s refusal of a bad Allowed IP, a 61-character name and an unparsable expiry beside each field', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await signInAsAdmin(page);
    const [user] = await tokenlessUsers(page);
    if (!user) throw new Error('the demo data has no user who may hold a token');
    const dialog = await generateFailsBesideEachField(page, user);
    await dialog.getByRole('textbox', { name: 'Expires' }).fill(inDays(30));
    await dialog.getByRole('button', { name: 'Generate token' }).click();
    await expect(page.getByRole('dialog', { name: 'Copy your new token' })).toBeVisible();
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });

  test('Regenerate keeps the chosen expiry, and a grace period out of range is refused beside its field, not clamped', async ({ page }) => {
    await signInAsAdmin(page);
    const [, user] = await tokenlessUsers(page);
    if (!user) throw new Error('the demo data has too few users who may hold a token');
    const chosen = inDays(200);
    const api = await apiOf(page);
    await api.post('/api/api-token', { user_id: user.id, name: 'Rotated nightly', scopes: ['feeds:write'], expires_at: chosen });
    await rowAction(page, user, `Regenerate token of ${user.name}`);
    const dialog = page.getByRole('dialog', { name: 'Regenerate token Rotated nightly' });
    await expect(dialog.getByRole('textbox', { name: 'Expires' })).toHaveValue(chosen);
    await expect(dialog.getByText('Kept from the current token')).toBeVisible();

    const grace = dialog.getByRole('textbox', { name: 'Grace period (hours)' });
    await grace.fill('99');
    await grace.blur();
    await expect(grace).toHaveValue('99');
    await dialog.getByRole('button', { name: 'Regenerate' }).click();
    await expect(grace).toHaveAccessibleDescription(/The Grace period \(hours\) field must be between 0 and 72/);
    await expect(grace).toHaveValue('99');

    await grace.fill('2');
    await dialog.getByRole('button', { name: 'Regenerate' }).click();
    await page.getByRole('dialog', { name: 'Copy your new token' }).getByRole('button', { name: 'Done' }).click();
    // The new token expires when the old one would have.
    await page.getByRole('button', { name: `Edit token of ${user.name}` }).click();
    await expect(page.getByRole('dialog', { name: 'Edit token Rotated nightly' }).getByRole('textbox', { name: 'Expires' })).toHaveValue(
      chosen,
    );
  });

  test('API Managers refuses a rate limit per minute of 0 or 99999 beside the field, keeping what was typed', async ({ page }) => {
    await signInAsAdmin(page, '/admin/api-managers');
    const row = page.getByRole('table', { name: 'API endpoints' }).getByRole('row').nth(2);
    await row.getByRole('button', { name: /^(Set up|Edit) endpoint of / }).click();
    const dialog = page.getByRole('dialog', { name: /the endpoint of / });
    await dialog.getByRole('combobox', { name: 'Survey' }).click();
    await page.getByRole('option').first().click();
    const rate = dialog.getByRole('textbox', { name: 'Rate limit per minute' });
    for (const typed of ['0', '99999']) {
      await rate.fill(typed);
      await rate.blur();
      await expect(rate).toHaveValue(typed);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(rate).toHaveAccessibleDescription(/The Rate limit per minute field must be between 1 and 6000/);
      await expect(rate).toHaveValue(typed);
      await expect(dialog).toBeVisible();
    }
  });

  test('An empty Create survey shows every error at once and marks each tab that holds one; an empty Create feed shows all of its errors together', async ({
    page,
  }) => {
    await signInAsAdmin(page, '/admin/surveys');
    await page.getByRole('button', { name: 'Create survey' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create survey' });
    await drawer.getByRole('button', { name: 'Create survey' }).click();
    // General holds the name and the locations; Messaging the subject and the body.
    await expect(drawer.getByRole('tab', { name: 'General (2 errors)' })).toBeVisible();
    await expect(drawer.getByRole('tab', { name: 'Messaging (2 errors)' })).toBeVisible();
    await expect(drawer.getByRole('tab', { name: 'Questions', exact: true })).toBeVisible();
    await expect(drawer.getByRole('tab', { name: 'Rules', exact: true })).toBeVisible();
    await expect(drawer.getByRole('tab', { name: /^General/ })).toHaveAttribute('aria-selected', 'true');
    await expect(drawer.getByText('The Name field is required')).toBeVisible();
    await drawer.getByRole('tab', { name: /^Messaging/ }).click();
    await expect(drawer.getByRole('textbox', { name: 'Email subject' })).toHaveAttribute('aria-invalid', 'true');
    await expect(drawer.getByRole('textbox', { name: 'Email body' })).toHaveAttribute('aria-invalid', 'true');
    // Fixing a field takes its count off the tab.
    await drawer.getByRole('tab', { name: /^General/ }).click();
    await drawer.getByRole('textbox', { name: 'Name' }).fill('Trust check');
    await expect(drawer.getByRole('tab', { name: 'General (1 error)' })).toBeVisible();

    await page.goto('/admin/survey-platform');
    await page.getByRole('button', { name: 'Create feed' }).first().click();
    const feed = page.getByRole('dialog', { name: 'Create feed' });
    await feed.getByRole('button', { name: 'Create feed' }).click();
    await expect(feed.getByText('The Feed name field is required')).toBeVisible();
    await expect(feed.getByText('The Fixed location field is required when the location is One location')).toBeVisible();
    await expect(feed.getByRole('textbox', { name: 'Feed name' })).toHaveAttribute('aria-invalid', 'true');
  });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('Generate token’s refusals show beside their fields on a phone', async ({ page }) => {
    await signInAsAdmin(page);
    const users = await tokenlessUsers(page);
    const user = users[2];
    if (!user) throw new Error('the demo data has too few users who may hold a token');
    const dialog = await generateFailsBesideEachField(page, user);
    await expect(dialog.getByText(/The Expires field must be in the format/)).toBeInViewport();
  });
});
