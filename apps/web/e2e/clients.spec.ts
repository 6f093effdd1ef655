import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, loadedRows, signInAsAdmin, switchClient, uniqueSuffix } from './support.ts';

test.describe('Client Manager', () => {
  test('create a client: field errors first, then the created message and the row', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    // This attempt's own client: a retry on the same server still has the first attempt's, and the
    // list then holds whatever earlier tests on this server added, so its size is counted first.
    const name = `Aurora Vet Clinic ${uniqueSuffix()}`;
    await signInAsAdmin(page);
    const table = page.getByRole('table', { name: 'Clients' });
    const rows = await loadedRows(page, 'Clients');
    const before = await rows.count();
    expect(before).toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Create client' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create client' });
    await drawer.getByLabel('Website').fill('not a url');
    await drawer.getByLabel('Phone').fill('12');
    await drawer.getByRole('button', { name: 'Create client' }).click();
    await expect(drawer.getByText('The Name field is required')).toBeVisible();
    await expect(drawer.getByText('The Website field is not a valid URL')).toBeVisible();
    await expect(drawer.getByText('The Phone field format is invalid')).toBeVisible();
    await expect(drawer.getByText('The Industry field is required')).toBeVisible();

    await drawer.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await drawer.getByLabel('Website').fill('https://aurora-vet.example.com');
    await drawer.getByLabel('Phone').fill('+13035550123');
    await drawer.getByRole('combobox', { name: 'Industry' }).click();
    await page.getByRole('option', { name: 'Healthcare' }).click();
    await drawer.getByRole('combobox', { name: 'Time zone' }).fill('America/Denver');
    await page.getByRole('option', { name: 'America/Denver' }).click();
    await expect(drawer.getByText('The Phone field format is invalid')).toHaveCount(0);
    await drawer.getByRole('button', { name: 'Create client' }).click();

    await expect(page.getByRole('status').filter({ hasText: `Client "${name}" was created with its root team.` })).toBeVisible();
    await expect(table.getByRole('row', { name })).toBeVisible();
    await expect(rows).toHaveCount(before + 1);

    // The same name again, in other letter case, is refused by the server, beside the field.
    await page.getByRole('button', { name: 'Create client' }).first().click();
    await drawer.getByRole('textbox', { name: 'Name', exact: true }).fill(name.toLowerCase());
    await drawer.getByRole('combobox', { name: 'Industry' }).click();
    await page.getByRole('option', { name: 'Other' }).click();
    await drawer.getByRole('combobox', { name: 'Time zone' }).fill('America/Denver');
    await page.getByRole('option', { name: 'America/Denver' }).click();
    await drawer.getByRole('button', { name: 'Create client' }).click();
    await expect(drawer.getByText('The Name has already been taken')).toBeVisible();
    await drawer.getByRole('button', { name: 'Cancel' }).click();
    expect(errors.filter((e) => !e.includes('409'))).toEqual([]);
  });

  test('edit, archive with confirmation, find among archived, restore', async ({ page }) => {
    // A client of this attempt's own: a retry on the same server would find the first attempt's
    // renamed, and perhaps archived, demo client.
    const name = `Maple Street Outfitters ${uniqueSuffix()}`;
    const renamed = `${name} & Co`;
    await signInAsAdmin(page);
    await (await apiOf(page)).post('/api/create-client', { name, industry: 'retail', timezone: 'America/Chicago' });
    await page.reload();
    const table = page.getByRole('table', { name: 'Clients' });
    await table.getByRole('button', { name: `Edit ${name}`, exact: true }).click();
    const drawer = page.getByRole('dialog', { name: `Edit ${name}` });
    await drawer.getByRole('textbox', { name: 'Name', exact: true }).fill(renamed);
    await drawer.getByRole('button', { name: 'Save changes' }).click();
    const row = table.getByRole('row', { name: new RegExp(renamed) });
    await expect(row).toBeVisible();

    await table.getByRole('button', { name: `Archive ${renamed}` }).click();
    const confirm = page.getByRole('dialog', { name: `Archive ${renamed}?` });
    await expect(confirm).toContainText('You can restore it later');
    await confirm.getByRole('button', { name: 'Archive' }).click();
    await expect(row).toHaveCount(0);

    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Archived' }).click();
    await page.keyboard.press('Escape');
    await expect(row.getByText('Archived')).toBeVisible();
    await row.getByRole('button', { name: `Restore ${renamed}` }).click();
    await page
      .getByRole('dialog', { name: /Restore/ })
      .getByRole('button', { name: 'Restore' })
      .click();
    await expect(row.getByText('Active')).toBeVisible();
  });

  test('switch to a client from its row, then export the table', async ({ page }) => {
    await signInAsAdmin(page);
    const switcher = page.getByRole('combobox', { name: 'Current client' });
    const original = await switcher.inputValue();
    const table = page.getByRole('table', { name: 'Clients' });
    await table.getByRole('button', { name: 'Switch to Crescent City Law' }).click();
    await expect(switcher).toHaveValue('Crescent City Law');
    await expect(table.getByRole('row', { name: /Crescent City Law/ }).getByText('current', { exact: true })).toBeVisible();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^clients-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync((await file.path()) ?? '', 'utf8')
      .slice(1)
      .trim()
      .split('\r\n');
    const screenRows = await table.getByRole('row').count();
    expect(lines).toHaveLength(screenRows); // header + one line per client on screen
    expect(lines[0]?.startsWith('ID,Name,Industry')).toBe(true);

    await table.getByRole('button', { name: `Switch to ${original}` }).click();
    await expect(switcher).toHaveValue(original);
  });

  test("filter by account coordinator and module, then open a client's Personnel from its row", async ({ page }) => {
    await signInAsAdmin(page);
    const original = await page.getByRole('combobox', { name: 'Current client' }).inputValue();
    const table = page.getByRole('table', { name: 'Clients' });
    await page.getByRole('combobox', { name: 'Account coordinator' }).click();
    await page.getByRole('option', { name: 'Sam Staff' }).click();
    await page.keyboard.press('Escape');
    const header = await table.getByRole('columnheader').allInnerTexts();
    const acColumn = header.findIndex((h) => h.startsWith('Account Coordinator'));
    // Until the filtered page arrives the unfiltered one (or none) is on screen: wait for it rather
    // than for a change in the row count, which a list still loading its first page also makes.
    await expect
      .poll(async () => {
        const cells = await table.locator(`tbody tr td:nth-child(${acColumn + 1})`).allInnerTexts();
        return cells.length > 0 && cells.every((c) => c === 'Sam Staff');
      })
      .toBe(true);
    await page.getByRole('combobox', { name: 'Modules' }).click();
    await page.getByRole('option', { name: 'SMS' }).click();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/module=sms/);

    await page.goto('/?ac=');
    const row = table.getByRole('row', { name: /Keystone Family Medicine/ });
    await row.getByRole('button', { name: "Open Keystone Family Medicine's screens" }).click();
    await page.getByRole('menuitem', { name: 'Personnel' }).click();
    await expect(page).toHaveURL(/\/admin\/personnel$/);
    await expect(page.getByRole('combobox', { name: 'Current client' })).toHaveValue('Keystone Family Medicine');
    await expect(page.getByRole('table', { name: 'Personnel' }).getByRole('row').nth(1)).toContainText('Keystone Family Medicine');
    await switchClient(page, original);
  });
});
