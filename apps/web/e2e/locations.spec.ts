import { expect, test } from './fixtures.ts';
import { signInAsAdmin, switchClient, uniqueSuffix } from './support.ts';

test.describe('Locations', () => {
  test('follow the client switcher', async ({ page }) => {
    await signInAsAdmin(page);
    const original = await page.getByRole('combobox', { name: 'Current client' }).inputValue();
    await page.goto('/admin/location');
    const table = page.getByRole('table', { name: 'Locations' });
    await switchClient(page, 'Bayside Inn & Suites');
    await expect(table.getByRole('row').nth(1)).toContainText('Bayside Inn & Suites');
    const clientCells = await table.getByRole('row').locator('td:nth-child(2)').allInnerTexts();
    expect(clientCells.every((c) => c === 'Bayside Inn & Suites')).toBe(true);
    await switchClient(page, original);
    await expect(table.getByRole('row').nth(1)).toContainText(original);
  });

  test('import a CSV: one bad line imports nothing and says why; fixed, all lines arrive', async ({ page }) => {
    // This attempt's own names and store codes (a code is unique per client): a retry on the same
    // server still has the first attempt's locations.
    const suffix = uniqueSuffix();
    const beaverton = `Evergreen Beaverton ${suffix}`;
    const gresham = `Evergreen Gresham ${suffix}`;
    await signInAsAdmin(page, '/admin/location');
    await switchClient(page, 'Evergreen Credit Union');
    const table = page.getByRole('table', { name: 'Locations' });
    await expect(table.getByRole('row').nth(1)).toContainText('Evergreen');
    const summary = page.getByText(/^Showing [\d,]+–[\d,]+ of \d+/);
    const before = await summary.innerText();

    const header = 'locationname,external_code,address1,city,state,postal_code,phone,timezone';
    const upload = async (lines: string[]) => {
      await page.getByRole('button', { name: 'Import CSV' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import locations' });
      await dialog.locator('input[type=file]').setInputFiles({
        name: 'locations.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from([header, ...lines].join('\n')),
      });
      await dialog.getByRole('button', { name: 'Import' }).click();
      return dialog;
    };
    const good = `${beaverton},EVE-500-${suffix},1 Canyon Rd,Beaverton,OR,97005,+15035550100,America/Los_Angeles`;
    const dialog = await upload([good, `${gresham},EVE-501-${suffix},2 Main St,Gresham,Oregon,97030,+15035550101,America/Los_Angeles`]);
    await expect(dialog.getByRole('alert')).toContainText('Nothing was imported: 1 of 2 lines have errors.');
    await expect(dialog.getByRole('alert')).toContainText('line 3: The State field format is invalid');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(summary).toHaveText(before);

    await upload([good, `${gresham},EVE-501-${suffix},2 Main St,Gresham,OR,97030,+15035550101,America/Los_Angeles`]);
    await expect(page.getByText('Imported 2 locations')).toBeVisible();
    await expect(table.getByRole('row', { name: beaverton })).toBeVisible();
    await expect(table.getByRole('row', { name: gresham })).toBeVisible();
  });

  test('create a location with field errors first, then pause it', async ({ page }) => {
    // This attempt's own location: a retry on the same server still has the first attempt's.
    const depot = `Test Depot ${uniqueSuffix()}`;
    await signInAsAdmin(page, '/admin/location');
    await page.getByRole('button', { name: 'Create location' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create location' });
    await drawer.getByRole('button', { name: 'Create location' }).click();
    await expect(drawer.getByText('The Location name field is required')).toBeVisible();
    await drawer.getByRole('textbox', { name: 'Location name', exact: true }).fill(depot);
    await drawer.getByRole('textbox', { name: 'Address line 1', exact: true }).fill('5 Depot Rd');
    await drawer.getByRole('textbox', { name: 'City' }).fill('Boulder');
    await drawer.getByRole('textbox', { name: 'State' }).fill('co');
    await drawer.getByRole('textbox', { name: 'Postal code' }).fill('80301');
    await drawer.getByRole('textbox', { name: 'Phone' }).fill('+13035550999');
    await drawer.getByRole('textbox', { name: 'Postal code' }).focus();
    await expect(drawer.getByText('The State field format is invalid')).toBeVisible();
    await drawer.getByRole('textbox', { name: 'State' }).fill('CO');
    await drawer.getByRole('button', { name: 'Create location' }).click();
    const table = page.getByRole('table', { name: 'Locations' });
    const row = table.getByRole('row', { name: depot });
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: `Pause ${depot}` }).click();
    await page
      .getByRole('dialog', { name: `Pause ${depot}?` })
      .getByRole('button', { name: 'Pause' })
      .click();
    await expect(row.getByText('Paused')).toBeVisible();
  });

  test('opening hours and review links: a bad time is explained, good ones are kept', async ({ page }) => {
    await signInAsAdmin(page, '/admin/location');
    const table = page.getByRole('table', { name: 'Locations' });
    const name = (await table.getByRole('row').nth(1).getByRole('cell').first().innerText()).trim();
    await table
      .getByRole('button', { name: `Edit ${name}` })
      .first()
      .click();
    const drawer = page.getByRole('dialog', { name: `Edit ${name}` });
    await drawer.getByRole('checkbox', { name: 'Saturday' }).check();
    await drawer.getByRole('textbox', { name: 'Saturday opens' }).fill('9am');
    await drawer.getByRole('textbox', { name: 'Saturday closes' }).fill('13:00');
    await drawer.getByRole('button', { name: 'Save changes' }).click();
    await expect(drawer.getByText('The Saturday opening time must be in the format HH:mm')).toBeVisible();
    await drawer.getByRole('textbox', { name: 'Saturday opens' }).fill('09:00');
    await drawer.getByRole('textbox', { name: 'Yelp review link' }).fill('https://www.yelp.com/biz/e2e');
    // The Manager's options page on the server; the chosen one keeps its name after a reload. Not the
    // one already chosen (by a first attempt, on a retry): choosing the chosen option again clears it.
    const kept = await drawer.getByRole('combobox', { name: 'Manager' }).inputValue();
    await drawer.getByRole('combobox', { name: 'Manager' }).click();
    const options = page.getByRole('option');
    const firstUser = (kept ? options.filter({ hasNotText: kept }) : options).first();
    const manager = (await firstUser.innerText()).trim();
    await firstUser.click();
    await drawer.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText(`Saved ${name}`)).toBeVisible();

    await page.reload();
    await table
      .getByRole('button', { name: `Edit ${name}` })
      .first()
      .click();
    const again = page.getByRole('dialog', { name: `Edit ${name}` });
    await expect(again.getByRole('textbox', { name: 'Saturday opens' })).toHaveValue('09:00');
    await expect(again.getByRole('textbox', { name: 'Yelp review link' })).toHaveValue('https://www.yelp.com/biz/e2e');
    await expect(again.getByRole('combobox', { name: 'Manager' })).toHaveValue(manager);
  });
});
