import { SCREEN_ROUTES } from '../src/app/routes.ts';
import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, signInAsAdmin } from './support.ts';

test.describe('the shell', () => {
  test('every route shows its label as the heading and the title', async ({ page }) => {
    // Every screen in turn: about 20 s alone, a half more with a second browser worker (E2E_WORKERS=2).
    test.setTimeout(120_000);
    const errors = collectConsoleErrors(page);
    await signInAsAdmin(page);
    for (const route of SCREEN_ROUTES) {
      await page.goto(route.path);
      await expect(page.getByRole('heading', { level: 1, name: route.label, exact: true })).toBeVisible();
      await expect(page).toHaveTitle(`${route.label} · Admin Panel`);
      await expect(page.getByText(`© ${new Date().getFullYear()} Admin Panel`)).toBeVisible();
    }
    expect(errors).toEqual([]);
  });

  test('menus navigate, and each screen loads its own chunk on first visit', async ({ page }) => {
    await signInAsAdmin(page);
    const chunk = page.waitForRequest((r) => /\/assets\/system-logs-page-[\w-]+\.js$/.test(r.url()));
    await page.getByRole('button', { name: 'Logging' }).click();
    await page.getByRole('menuitem', { name: 'System Logs' }).click();
    await chunk;
    await expect(page).toHaveURL(/\/admin\/system\/logs$/);
    await expect(page.getByRole('heading', { level: 1, name: 'System Logs' })).toBeVisible();

    await page.getByRole('button', { name: 'Reports' }).click();
    await page.getByRole('menuitem', { name: 'AC Performance Report' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'AC Performance Report' })).toBeVisible();
  });

  test('every navigation scrolls to the top', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 300 });
    await signInAsAdmin(page);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByRole('button', { name: 'Services' }).click();
    await page.getByRole('menuitem', { name: 'Personnel', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Personnel' })).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('an unknown path goes to /404, which has no navigation bar and a way home', async ({ page }) => {
    await signInAsAdmin(page, '/admin/does-not-exist');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Go to Client Manager' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Client Manager' })).toBeVisible();
  });

  test('the client switcher changes the current client on the server', async ({ page }) => {
    await signInAsAdmin(page);
    const switcher = page.getByRole('combobox', { name: 'Current client' });
    await expect(switcher).not.toHaveValue('');
    const put = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/api/users/switch-client/'));
    await switcher.click();
    await page.getByRole('option', { name: 'Northstar Toyota' }).click();
    expect((await put).status()).toBe(200);
    await expect(switcher).toHaveValue('Northstar Toyota');
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Current client' })).toHaveValue('Northstar Toyota');
    const token = await page.evaluate(() => (sessionStorage.getItem('storage-auth-user-token') ?? '').replace(/"/g, ''));
    const me = await (await page.request.get('/api/user', { headers: { authorization: `Bearer ${token}` } })).json();
    const client = await (
      await page.request.get(`/api/clients/${me.data.user.current_client_id}`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    expect(client.data.name).toBe('Northstar Toyota');
  });

  test('on a narrow screen the burger opens a sidebar with the links', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await signInAsAdmin(page);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('link', { name: 'SES Bounce' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'SES Bounce' })).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/ses\/bounce$/);
  });
});
