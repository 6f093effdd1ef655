import { expect, test } from './fixtures.ts';
import { archiveRow, signInAsAdmin, uniqueSuffix } from './support.ts';

test('Product: create with a field error first, edit, archive', async ({ page }) => {
  // This attempt's own product and code (unique per client, archived or not): a retry on the same
  // server still has the first attempt's.
  const suffix = uniqueSuffix();
  const name = `Duct cleaning ${suffix}`;
  await signInAsAdmin(page, '/admin/product');
  const table = page.getByRole('table', { name: 'Products' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await page.getByRole('button', { name: 'Create product' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create product' });
  await drawer.getByRole('textbox', { name: 'Name' }).fill(name);
  await drawer.getByRole('textbox', { name: 'Code' }).fill('duct cleaning');
  await drawer.getByRole('textbox', { name: 'Category' }).focus();
  await expect(drawer.getByText('The Code field may contain alpha-numeric characters as well as dashes and underscores')).toBeVisible();
  await drawer.getByRole('textbox', { name: 'Code' }).fill(`DUCT-${suffix}`);
  await drawer.getByRole('button', { name: 'Create product' }).click();
  const row = table.getByRole('row', { name });
  await expect(row).toBeVisible();

  await row
    .getByRole('button', { name: `Edit ${name}` })
    .first()
    .click();
  const edit = page.getByRole('dialog', { name: `Edit ${name}` });
  await edit.getByRole('textbox', { name: 'Category' }).fill('Air quality');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(row).toContainText('Air quality');

  await archiveRow(page, table, name);
});

test('Referral Source: a global default shows for every client; scope filters it', async ({ page }) => {
  // This attempt's own source and code (unique among the global defaults): a retry on the same
  // server still has the first attempt's.
  const suffix = uniqueSuffix();
  const name = `Podcast sponsorship ${suffix}`;
  await signInAsAdmin(page, '/admin/referral-source');
  const table = page.getByRole('table', { name: 'Referral sources' });
  await expect(table.getByRole('row', { name: /Google search/ })).toContainText('All clients');
  await page.getByRole('button', { name: 'Create referral source' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create referral source' });
  await drawer.getByRole('textbox', { name: 'Name' }).fill(name);
  await drawer.getByRole('textbox', { name: 'Code' }).fill(`PODCAST-${suffix}`);
  await drawer.getByRole('textbox', { name: 'Name' }).focus();
  await drawer.getByRole('button', { name: 'Create referral source' }).click();
  await expect(drawer.getByText('The Type field is required')).toBeVisible();
  await drawer.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Advertising' }).click();
  await drawer.getByRole('checkbox', { name: /Global default for all clients/ }).check();
  await drawer.getByRole('button', { name: 'Create referral source' }).click();
  await expect(table.getByRole('row', { name })).toContainText('All clients');

  await page.getByRole('combobox', { name: 'Scope' }).click();
  await page.getByRole('option', { name: 'This client only' }).click();
  await expect(table.getByRole('row', { name })).toHaveCount(0);
  await expect(table.getByRole('row', { name: /Yard sign/ })).toBeVisible();
});

test('Personnel: create a person at two locations, filter by location, edit, archive and restore', async ({ page }) => {
  // This attempt's own person: a retry on the same server still has the first attempt's.
  const last = `Quintero ${uniqueSuffix()}`;
  const person = `Marisol ${last}`;
  await signInAsAdmin(page, '/admin/personnel');
  const table = page.getByRole('table', { name: 'Personnel' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await page.getByRole('button', { name: 'Create person' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create person' });
  await drawer.getByRole('button', { name: 'Create person' }).click();
  await expect(drawer.getByText('The First name field is required')).toBeVisible();
  await expect(drawer.getByText('The Locations field is required')).toBeVisible();
  await drawer.getByRole('textbox', { name: 'First name' }).fill('Marisol');
  await drawer.getByRole('textbox', { name: 'Last name' }).fill(last);
  await drawer.getByRole('combobox', { name: 'Locations' }).click();
  const options = page.getByRole('option');
  const firstLocation = (await options.nth(0).innerText()).trim();
  await options.nth(0).click();
  await options.nth(1).click();
  await page.keyboard.press('Escape');
  await drawer.getByRole('combobox', { name: 'Aliases' }).fill('Mari Q');
  await page.keyboard.press('Enter');
  await drawer.getByRole('button', { name: 'Create person' }).click();
  const row = table.getByRole('row', { name: person });
  await expect(row).toContainText(firstLocation);

  await page.getByRole('combobox', { name: 'Locations' }).click();
  await page.getByRole('option', { name: firstLocation, exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(row).toBeVisible();

  await row
    .getByRole('button', { name: `Edit ${person}` })
    .first()
    .click();
  const edit = page.getByRole('dialog', { name: `Edit ${person}` });
  await edit.getByRole('textbox', { name: 'Title' }).fill('Lead technician');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(row).toContainText('Lead technician');

  await archiveRow(page, table, person);

  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Archived' }).click();
  await page.keyboard.press('Escape');
  await expect(row.getByText('Archived')).toBeVisible();
  await row.getByRole('button', { name: `Restore ${person}` }).click();
  await page
    .getByRole('dialog', { name: /Restore/ })
    .getByRole('button', { name: 'Restore' })
    .click();
  await expect(row.getByText('Active')).toBeVisible();
});

test('Personnel: import a CSV with one bad line (nothing imported, the line says why), then the fixed file', async ({ page }) => {
  // This attempt's own people and employee codes (unique per client): a retry on the same server
  // still has the first attempt's, whose codes would be refused as taken.
  const suffix = uniqueSuffix();
  const odile = `Odile Fontaine ${suffix}`;
  const pavel = `Pavel Novak ${suffix}`;
  await signInAsAdmin(page, '/admin/personnel');
  const table = page.getByRole('table', { name: 'Personnel' });
  const firstLocation = (await table.getByRole('row').nth(1).getByRole('cell').nth(1).innerText()).split('; ')[0] ?? '';
  const summary = page.getByText(/^Showing [\d,]+–[\d,]+ of \d+/);
  const before = await summary.innerText();
  const upload = async (lines: string[]) => {
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import personnel' });
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'personnel.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(['first_name,last_name,employee_code,locations,aliases', ...lines].join('\n')),
    });
    await dialog.getByRole('button', { name: 'Import' }).click();
    return dialog;
  };
  const good = `Odile,Fontaine ${suffix},CSV-1-${suffix},"${firstLocation}",Odie F`;
  const dialog = await upload([good, `Pavel,Novak ${suffix},CSV-2-${suffix},Atlantis Branch,`]);
  await expect(dialog.getByRole('alert')).toContainText('Nothing was imported: 1 of 2 lines have errors.');
  await expect(dialog.getByRole('alert')).toContainText('line 3: Unknown locations: Atlantis Branch');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(summary).toHaveText(before);

  await upload([good, `Pavel,Novak ${suffix},CSV-2-${suffix},"${firstLocation}",`]);
  await expect(page.getByText('Imported 2 personnel')).toBeVisible();
  await expect(table.getByRole('row', { name: odile })).toContainText(firstLocation);
  await expect(table.getByRole('row', { name: pavel })).toBeVisible();
});
