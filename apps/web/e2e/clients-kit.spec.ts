import { expect, test } from './fixtures.ts';
import { archiveRow, collectConsoleErrors, setColumn, signInAsAdmin, uniqueSuffix } from './support.ts';

test.describe('Client Manager on the resource kit', () => {
  test('a new client: no modules, its root team named as typed, the created message gone after the next status change', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    // This attempt's own names: a retry on the same server still has the first attempt's client.
    const suffix = uniqueSuffix();
    const name = `Kit Test Kennels ${suffix}`;
    const team = `Kit Test HQ ${suffix}`;
    await signInAsAdmin(page);
    await page.getByRole('button', { name: 'Create client' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create client' });
    await drawer.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await drawer.getByRole('textbox', { name: 'Root team name' }).fill(team);
    await drawer.getByRole('combobox', { name: 'Industry' }).click();
    await page.getByRole('option', { name: 'Other' }).click();
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/create-client') && r.request().method() === 'POST');
    await drawer.getByRole('button', { name: 'Create client' }).click();
    const body = (await (await saved).json()).data;
    expect(body).toMatchObject({ modules: [], status: 'active', country: 'US', root_team_name: team });

    const banner = page.getByRole('status').filter({ hasText: `Client "${name}" was created with its root team.` });
    await expect(banner).toBeVisible();
    // One answer to a create: the banner, not a toast as well.
    await expect(page.getByText(`Saved ${name}`)).toHaveCount(0);
    const table = page.getByRole('table', { name: 'Clients' });
    // Root team is not a default column (docs/decisions/040-lists-as-cards-and-one-line-cells.md): shown from Columns.
    await setColumn(page, 'Root team', true);
    await expect(table.getByRole('row', { name })).toContainText(team);
    await setColumn(page, 'Root team', false);

    await table.getByRole('button', { name: `Pause ${name}` }).click();
    await page
      .getByRole('dialog', { name: `Pause ${name}?` })
      .getByRole('button', { name: 'Pause' })
      .click();
    await expect(table.getByRole('row', { name }).getByText('Paused')).toBeVisible();
    await expect(banner).toHaveCount(0);

    // Archived, so the other specs see the demo's clients only.
    await archiveRow(page, table, name);
    expect(errors).toEqual([]);
  });

  test('the Account Coordinator is found by typing (the staff pages on the server), saved, and shown in the row', async ({ page }) => {
    await signInAsAdmin(page);
    const table = page.getByRole('table', { name: 'Clients' });
    const row = table.getByRole('row', { name: /Keystone Family Medicine/ });
    await row.getByRole('button', { name: 'Edit Keystone Family Medicine' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Edit Keystone Family Medicine' });
    // Create-only fields are not part of an edit.
    await expect(drawer.getByRole('textbox', { name: 'Root team name' })).toHaveCount(0);
    const picker = drawer.getByRole('combobox', { name: 'Account Coordinator' });
    const asked = page.waitForRequest((r) => r.url().includes('/api/staff-users/options') && r.url().includes('q=sam'));
    await picker.click();
    await picker.fill('sam');
    await asked;
    await page.getByRole('option', { name: 'Sam Staff' }).click();
    await expect(picker).toHaveValue('Sam Staff');
    const saved = page.waitForResponse((r) => r.url().includes('/api/clients/') && r.request().method() === 'PATCH');
    await drawer.getByRole('button', { name: 'Save changes' }).click();
    const sent = (await saved).request().postDataJSON();
    expect(Object.keys(sent).sort()).toEqual(['account_coordinator_id', 'updated_at']);
    expect(typeof sent.account_coordinator_id).toBe('number');
    await expect(page.getByText('Saved Keystone Family Medicine')).toBeVisible();
    await expect(row).toContainText('Sam Staff');

    // Cleared again (none), as the demo data has it.
    await row.getByRole('button', { name: 'Edit Keystone Family Medicine' }).first().click();
    // Choosing the chosen one again leaves none (Mantine's deselect), with the mouse or the keyboard.
    await drawer.getByRole('combobox', { name: 'Account Coordinator' }).click();
    await page.getByRole('option', { name: 'Sam Staff' }).click();
    await expect(drawer.getByRole('combobox', { name: 'Account Coordinator' })).toHaveValue('');
    const cleared = page.waitForResponse((r) => r.url().includes('/api/clients/') && r.request().method() === 'PATCH');
    await drawer.getByRole('button', { name: 'Save changes' }).click();
    expect((await cleared).request().postDataJSON()).toMatchObject({ account_coordinator_id: null });
  });
});
