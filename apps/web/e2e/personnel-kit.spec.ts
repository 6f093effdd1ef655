import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, columnTexts, listRows, showFilters, signInAsAdmin } from './support.ts';

/** Screenshots for a person to look at, when asked for (`SHOTS_DIR=/tmp/shots`). */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

for (const width of [390, 1440]) {
  test(`Personnel at ${width} px: the table, the filters and the form; Locations are found on the server as the user types`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const errors = collectConsoleErrors(page);
    await signInAsAdmin(page, '/admin/personnel');
    // A table, or cards on a phone (docs/decisions/040).
    await expect(listRows(page, 'Personnel').first()).toBeVisible();
    await showFilters(page);
    await expect(page.getByRole('checkbox', { name: 'Possible duplicates' })).toBeVisible();
    await shot(page, `personnel-${width}`);

    // The first row's first location, typed in part, is offered by the server's search.
    const location = ((await columnTexts(page, 'Personnel', 'Locations'))[0] ?? '').split('; ')[0] ?? '';
    await page.getByRole('button', { name: 'Create person' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create person' });
    const picker = drawer.getByRole('combobox', { name: 'Locations' });
    const asked = page.waitForResponse((r) => r.url().includes('/api/endpoints/options?') && r.url().includes('q='));
    await picker.fill(location.slice(0, 6));
    await asked;
    await page.getByRole('option', { name: location, exact: true }).click();
    await expect(drawer.getByText(location, { exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await shot(page, `person-form-${width}`);
    expect(errors).toEqual([]);
  });
}

test('Merge Personnel Data pages the suggested groups on the server', async ({ page }) => {
  const first = page.waitForResponse((r) => r.url().includes('/api/get-merge-personnel?') || r.url().endsWith('/api/get-merge-personnel'));
  await signInAsAdmin(page, '/admin/merge-personnel');
  const answer = await (await first).json();
  expect(answer).toMatchObject({ total: expect.any(Number), nextCursor: null });
  expect(new URL((await first).url()).searchParams.get('perPage')).toBeNull();
  await expect(page.getByText(/suggested group/)).toBeVisible();
});
