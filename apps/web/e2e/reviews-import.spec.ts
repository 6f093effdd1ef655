import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, signInAsAdmin, WIDTHS } from './support.ts';

/**
 * Reviews in on the Reputation Panel (issue 21, item 1), by role and label at 390 and 1440 px:
 * Import reviews checks a CSV first (the dry run, line by line: a rating of 6 refused naming the
 * field), then Import writes the accepted line; the Google connection says the pull is off without
 * an OAuth client, saves an account and token, and shows the token only as stored.
 */
for (const width of WIDTHS) {
  test(`Import reviews and Google connection at ${width} px`, async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page);
    const api = await apiOf(page);
    const clientId = (await api.get<{ data: { user: { current_client_id: number } } }>('/api/user')).data.user.current_client_id;
    const locations = await api.get<{ data: { _id: string; client_id: number }[] }>(`/api/endpoints?perPage=50`);
    const location = locations.data.find((l) => l.client_id === clientId) ?? locations.data[0];
    await page.goto('/admin/reputation-panel');

    await page.getByRole('button', { name: 'Import reviews' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import reviews' });
    await expect(dialog.getByRole('button', { name: 'Download template' })).toBeVisible();
    const id = `E2E-${width}-${Date.now()}`;
    const csv = [
      'review_id,site,location,reviewer,rating,comment,created',
      `${id}-ok,google,${location?._id},Robin Vale,5,Lovely visit,2026-01-05T10:00:00Z`,
      `${id}-bad,google,${location?._id},Kim Lo,6,,2026-01-05T10:00:00Z`,
    ].join('\n');
    await expect(dialog.getByLabel('CSV file')).toBeVisible();
    await dialog.locator('input[type=file]').setInputFiles({ name: 'reviews.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Check file' }).click();
    await expect(dialog.getByRole('status')).toContainText('1 new, 0 updated, 0 unchanged, 1 refused');
    await expect(dialog.getByText(/The Star rating field must be a whole number from 1 to 5/)).toBeVisible();
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(page.getByText('Imported reviews: 1 new, 0 updated, 0 unchanged, 1 refused')).toBeVisible();
    await expect(dialog).toHaveCount(0);

    await page.getByRole('button', { name: 'Google connection' }).click();
    const google = page.getByRole('dialog', { name: 'Google connection' });
    await expect(google.getByText('The Google review pull is off')).toBeVisible();
    await google.getByLabel('Account').fill('accounts/42');
    await google.getByRole('button', { name: 'Save connection' }).click();
    await expect(google.getByText('The Refresh token field is required')).toBeVisible();
    await google.getByLabel('Refresh token').fill('e2e-secret-refresh-token');
    await google.getByRole('button', { name: 'Save connection' }).click();
    await expect(google.getByLabel('Refresh token')).toHaveAttribute('placeholder', 'stored');
    await expect(google.getByLabel('Refresh token')).toHaveValue('');
    await expect(google.getByRole('button', { name: 'Disconnect' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await google.getByRole('button', { name: 'Disconnect' }).click();
    await expect(google.getByRole('button', { name: 'Disconnect' })).toHaveCount(0);
    // The one refusal asked for (Save connection without a token) is the only failed call.
    expect(errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
  });
}
