import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiOf, DESKTOP, signInAsAdmin, switchClient, uniqueSuffix } from './support.ts';

/** The client the navigation bar's switcher shows. */
const shownClient = (page: Page) => page.getByRole('combobox', { name: 'Current client' }).inputValue();
const changedDialog = (page: Page) => page.getByRole('dialog', { name: 'Client changed in another tab' });

/** Opens Create product on the Product screen and fills it in. */
async function startProduct(page: Page, name: string, code: string) {
  await page.goto('/admin/product');
  await expect(page.getByRole('table', { name: 'Products' }).getByRole('row').nth(1)).toBeVisible();
  await page.getByRole('button', { name: 'Create product' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create product' });
  await drawer.getByRole('textbox', { name: 'Name' }).fill(name);
  await drawer.getByRole('textbox', { name: 'Code' }).fill(code);
  return drawer;
}

// Two tabs, two clients (issue 19, item 1): a write goes to the client the tab shows, or nowhere.
test.describe('two tabs, two clients', () => {
  test.use({ viewport: { width: DESKTOP, height: 900 } });

  test('a tab whose client another tab switched is told at once, and saves under the client it shows once the user chooses', async ({
    page: tabA,
    context,
  }) => {
    // This attempt's own product and code (unique per client): a retry on the same server still has the first attempt's.
    const suffix = uniqueSuffix();
    const product = `Two tabs wash ${suffix}`;
    await signInAsAdmin(tabA);
    const x = await shownClient(tabA);
    const drawer = await startProduct(tabA, product, `TWO-TABS-${suffix}`);

    // Tab B (the same browser, signed in by its cookie) switches to another client.
    const tabB = await context.newPage();
    await tabB.goto('/admin/product');
    await expect(tabB.getByRole('heading', { level: 1, name: 'Product' })).toBeVisible();
    await tabB.getByRole('combobox', { name: 'Current client' }).click();
    const y = (await tabB.getByRole('option').filter({ hasNotText: x }).first().innerText()).trim();
    await tabB.keyboard.press('Escape');
    await switchClient(tabB, y);

    // Tab A says so over its open form, and still shows X.
    const told = changedDialog(tabA);
    await expect(told).toContainText(`Your current client is now ${y}`);
    await expect(told).toContainText(`but this tab shows ${x}`);
    expect(await shownClient(tabA)).toBe(x);

    // Switching back keeps the form; it is saved under X, and now tab B is the one told.
    await told.getByRole('button', { name: `Switch back to ${x}` }).click();
    await expect(told).toBeHidden();
    await expect(drawer.getByRole('textbox', { name: 'Name' })).toHaveValue(product);
    await drawer.getByRole('button', { name: 'Create product' }).click();
    await expect(tabA.getByRole('table', { name: 'Products' }).getByRole('row', { name: product })).toBeVisible();
    await expect(changedDialog(tabB)).toContainText(`Your current client is now ${x}`);
    await changedDialog(tabB)
      .getByRole('button', { name: `Show ${x} here` })
      .click();
    await expect(tabB.getByRole('combobox', { name: 'Current client' })).toHaveValue(x);
    await expect(tabB.getByRole('table', { name: 'Products' }).getByRole('row', { name: product })).toBeVisible();
  });

  test('a switch the tab never heard of (another window or device) is refused with a message, and nothing is saved', async ({ page }) => {
    await signInAsAdmin(page);
    const x = await shownClient(page);
    await page.getByRole('combobox', { name: 'Current client' }).click();
    const y = (await page.getByRole('option').filter({ hasNotText: x }).first().innerText()).trim();
    await page.keyboard.press('Escape');
    const teams = await (await apiOf(page)).get<{ data: { clientId: number; clientName: string }[] }>('/api/client-root-teams');
    const yId = teams.data.find((t) => t.clientName === y)?.clientId;
    const drawer = await startProduct(page, 'Elsewhere wash', 'ELSEWHERE');
    // The switch is made outside this browser: no tab announces it.
    await (await apiOf(page)).put(`/api/users/switch-client/${yId}`, undefined);

    await drawer.getByRole('button', { name: 'Create product' }).click();
    await expect(drawer.getByText(`This tab shows ${x}, but your current client is now ${y}`)).toBeVisible();
    await expect(changedDialog(page)).toContainText(`Your current client is now ${y}`);
    const underY = await (await apiOf(page)).get<{ total: number }>('/api/product?q=Elsewhere%20wash');
    expect(underY.total).toBe(0);
  });
});
