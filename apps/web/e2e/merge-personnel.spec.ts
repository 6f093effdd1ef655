import { expect, test } from './fixtures.ts';
import { apiOf, listRows, rowAction, signInAsAdmin, switchClient } from './support.ts';

test.describe('Merge Personnel Data', () => {
  test('merge two duplicates: the survivor then carries their locations, codes and names; history lists it', async ({ page }) => {
    await signInAsAdmin(page);
    await switchClient(page, 'Summit Heating & Air');
    await page.goto('/admin/merge-personnel');
    const groups = page.getByRole('table', { name: 'Suggested duplicate groups' });
    const group = groups.getByRole('row').filter({ hasText: 'Same email' }).first();
    await group.getByRole('button', { name: 'Review merge' }).click();

    const drawer = page.getByRole('dialog', { name: 'Merge personnel' });
    await expect(drawer.getByText(/^New aliases:/)).toBeVisible();
    const survivor = (await drawer.getByText(/^Type: /).innerText()).replace('Type: ', '');
    const duplicateRow = drawer.getByRole('row').nth(2);
    const [duplicateName, duplicateCode, , duplicateLocations] = (await duplicateRow.getByRole('cell').allInnerTexts()).slice(2);
    const dupName = (duplicateName ?? '').replace(/\s*#\d+$/, '');
    expect(dupName).not.toBe('');

    const confirm = drawer.getByRole('textbox', { name: "Type the survivor's name to confirm" });
    await confirm.fill('someone else');
    await expect(drawer.getByRole('button', { name: 'Merge' })).toBeDisabled();
    await confirm.fill(survivor);
    await drawer.getByRole('button', { name: 'Merge' }).click();
    await expect(page.getByText(`Merged into ${survivor}.`)).toBeVisible();
    await expect(groups.getByRole('row').filter({ hasText: dupName })).toHaveCount(0);

    await page.getByRole('tab', { name: 'History' }).click();
    const history = page.getByRole('table', { name: 'Merge history' });
    await expect(history.getByRole('row').nth(1)).toContainText(survivor);
    await expect(history.getByRole('row').nth(1)).toContainText(dupName);

    // On the Personnel screen the survivor now has the duplicate's locations, code and name.
    await page.goto(`/admin/personnel?q=${encodeURIComponent(survivor)}`);
    const row = page
      .getByRole('table', { name: 'Personnel' })
      .getByRole('row', { name: new RegExp(survivor) })
      .first();
    for (const location of (duplicateLocations ?? '').split(', ')) await expect(row).toContainText(location);
    await row
      .getByRole('button', { name: `Edit ${survivor}` })
      .first()
      .click();
    const edit = page.getByRole('dialog', { name: `Edit ${survivor}` });
    await expect(edit.getByText(dupName, { exact: true })).toBeVisible();
    await expect(edit.getByText(duplicateCode ?? '', { exact: true })).toBeVisible();
  });

  test('dismiss a suggestion as not duplicates', async ({ page }) => {
    await signInAsAdmin(page);
    await switchClient(page, 'Summit Heating & Air');
    await page.goto('/admin/merge-personnel');
    const groups = page.getByRole('table', { name: 'Suggested duplicate groups' });
    const first = groups.getByRole('row').nth(1);
    const names = (await first.getByRole('cell').first().innerText()).trim();
    await first.getByRole('button', { name: 'Not duplicates' }).click();
    await page.getByRole('dialog', { name: 'Not duplicates?' }).getByRole('button', { name: 'Dismiss suggestion' }).click();
    await expect(groups.getByRole('row').filter({ hasText: names })).toHaveCount(0);
  });

  test('"Merge…" on the Personnel screen opens a merge with that person and their suspected duplicates', async ({ page }) => {
    await signInAsAdmin(page);
    await switchClient(page, 'Summit Heating & Air');
    await page.goto('/admin/personnel?duplicates=yes');
    const row = page.getByRole('table', { name: 'Personnel' }).getByRole('row').nth(1);
    const name = (await row.getByRole('cell').first().innerText()).trim();
    await row.getByRole('button', { name: `Merge ${name}` }).click();
    await expect(page).toHaveURL(/\/admin\/merge-personnel\?person=\d+/);
    const drawer = page.getByRole('dialog', { name: 'Merge personnel' });
    await expect(drawer.getByText(`Type: ${name}`)).toBeVisible();
    await expect(drawer.getByRole('checkbox', { checked: true })).toHaveCount(1);
    await expect(drawer.getByText(/^New aliases:/)).toBeVisible();
  });

  // Issue 9, item 11: the preview called one number written two ways a conflict. The API takes
  // phones as `+digits` or digits, so the two people write it `+1808555…` and `808555…`.
  for (const width of [390, 1440]) {
    test(`at ${width} px two people whose phones differ only in writing show no phone conflict in the merge preview`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      // The people are made for the current client, whose suggestions the screen shows.
      const api = await apiOf(page);
      const { data: locations } = await api.get<{ data: { _id: string }[] }>('/api/endpoints?perPage=1');
      const line = String(width).padStart(4, '0');
      // Names match without their digits, so each width's people get a family name of their own.
      const family = width === 390 ? 'Dialnarrow' : 'Dialwide';
      for (const [first, phone] of [
        ['Kai', `+1808555${line}`],
        ['Noa', `808555${line}`],
      ]) {
        await api.post('/api/personnel', { first_name: first, last_name: family, phone, location_ids: [locations[0]?._id] });
      }

      await page.goto('/admin/merge-personnel');
      await page.getByRole('searchbox', { name: 'Search' }).fill(family);
      // A table row, or a card on a phone (docs/decisions/040).
      const group = listRows(page, 'Suggested duplicate groups').filter({ hasText: family });
      await expect(group).toHaveCount(1);
      await expect(group).toContainText('Same phone');
      await rowAction(group, 'Review merge');

      const preview = page.getByRole('dialog', { name: 'Merge personnel' }).getByRole('alert', { name: 'Preview' });
      await expect(preview.getByText(/^New aliases:/)).toBeVisible();
      await expect(preview.getByRole('listitem').filter({ hasText: /^Conflict on Phone/ })).toHaveCount(0);
    });
  }
});
