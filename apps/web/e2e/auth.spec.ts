import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, signIn, signInAsAdminWithForm } from './support.ts';

test.describe('signing in', () => {
  test('the admin signs in and lands on Client Manager with their name shown', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await signInAsAdminWithForm(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(page).toHaveTitle('Client Manager · Admin Panel');
    await expect(page.getByText('Ada Admin').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    const storage = await page.evaluate(() => ({
      token: sessionStorage.getItem('storage-auth-user-token'),
      flag: sessionStorage.getItem('storage-auth-user-authenticated'),
    }));
    expect(storage.flag).toBe('true');
    expect(storage.token).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'ssoToken')).toMatchObject({ path: '/', sameSite: 'Lax' });
    expect(errors).toEqual([]);
  });

  for (const email of ['staff@example.com', 'master@example.com']) {
    test(`${email} is refused with the spec message and stays on /login`, async ({ page }) => {
      await signIn(page, email);
      await expect(page.getByRole('alert')).toHaveText(`Note: ${email} is no Longer allowed. Please try Again with a different account.`);
      await expect(page).toHaveURL(/\/login$/);
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      await page.goto('/admin/surveys');
      await expect(page).toHaveURL(/\/login$/);
    });
  }

  test('a wrong password says so and keeps the form', async ({ page }) => {
    await signIn(page, 'admin@example.com', 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
    await expect(page.getByLabel('Email')).toHaveValue('admin@example.com');
  });

  test('bad input gets a message beside the field on blur', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').focus();
    await expect(page.getByText('The Email field must be a valid email')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel('Password').fill('short');
    await page.getByLabel('Email').focus();
    await expect(page.getByText('The Password field must be at least 8 characters')).toBeVisible();
  });

  test('the guard sends a visitor without a session to /login', async ({ page }) => {
    await page.goto('/admin/system/logs');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Login' })).toBeVisible();
    await expect(page).toHaveTitle('Login · Admin Panel');
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  });

  test('the ssoToken cookie alone signs a new tab in (single sign-on)', async ({ page, context }) => {
    await signInAsAdminWithForm(page);
    const second = await context.newPage();
    // A new tab has no session flag, so the guard sends it to /login, where the cookie signs it
    // in and it goes on to the page it asked for.
    await second.goto('/admin/surveys');
    await expect(second.getByRole('heading', { level: 1, name: 'Surveys' })).toBeVisible();
    await expect(second).toHaveURL(/\/admin\/surveys$/);
    expect(await second.evaluate(() => sessionStorage.getItem('storage-auth-user-authenticated'))).toBe('true');
  });

  test('sign out revokes the session, clears storage, expires the cookie', async ({ page }) => {
    await signInAsAdminWithForm(page);
    const token = await page.evaluate(() => (sessionStorage.getItem('storage-auth-user-token') ?? '').replace(/"/g, ''));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect((await page.context().cookies()).find((c) => c.name === 'ssoToken')).toBeUndefined();
    const res = await page.request.get('/api/user', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status()).toBe(401);
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a session revoked elsewhere sends the user back to /login on the next call', async ({ page }) => {
    await signInAsAdminWithForm(page);
    const token = await page.evaluate(() => (sessionStorage.getItem('storage-auth-user-token') ?? '').replace(/"/g, ''));
    await page.request.post('/api/logout', { headers: { authorization: `Bearer ${token}` } });
    await page.getByRole('combobox', { name: 'Current client' }).click();
    await page.getByRole('option', { name: 'Lakeside Honda' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('alert')).toContainText('session has ended');
  });
});
