import { createHmac } from 'node:crypto';
import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, listRows, signInAsAdmin, WIDTHS } from './support.ts';

// SMS Text's Opted-out phones: a phone that replies STOP (posted here as the provider posts it,
// signed with the token playwright.config.ts gives the server) is listed for every client, found
// by its digits, shown as a card on a phone, and exported; START takes it off the list.

const TOKEN = 'e2e-sms-auth-token';
const LIST = 'Opted-out phones';

/** X-Twilio-Signature (reference A4): the URL, then the params sorted by name as name+value, HMAC-SHA1, base64. */
function sign(url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, name) => acc + name + params[name], url);
  return createHmac('sha1', TOKEN).update(data).digest('base64');
}

for (const width of WIDTHS) {
  test.describe(`SMS opt-outs at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
    });

    test('a phone that replied STOP is listed, searched and exported; START takes it off', async ({ page, baseURL }) => {
      const errors = collectConsoleErrors(page);
      // A number of this run's own, so neither the demo's rows nor a retry's decide what is seen.
      const digits = `1555${String(width).padStart(4, '0')}${String(Date.now() % 1000).padStart(3, '0')}`;
      const phone = `+${digits}`;
      const reply = async (body: string) => {
        const params = { MessageSid: `SM${digits}${body}${Date.now()}`, From: phone, To: '+15555550100', Body: body };
        const url = `${baseURL}/api/v1/sms/inbound`;
        const res = await page.request.post(url, { form: params, headers: { 'X-Twilio-Signature': sign(url, params) } });
        expect(res.status(), await res.text()).toBe(200);
      };
      await reply('STOP');

      await signInAsAdmin(page, '/admin/sms-text');
      await page.getByRole('tab', { name: 'Opted-out phones' }).click();
      await expect(page).toHaveURL(/view=opt-outs/);
      // Searched once the tab's list is drawn: typed while it was still mounting, the search was
      // once lost (the box empty, both rows shown).
      const rows = listRows(page, LIST);
      await expect(rows.first()).toBeVisible();
      const search = page.getByRole('searchbox', { name: 'Search' });
      await search.fill(digits.slice(1));
      await expect(search).toHaveValue(digits.slice(1));
      await expect(rows).toHaveCount(1);
      // The phone is shown grouped for reading (+1 (555) 039-0045): its last four digits find it.
      const row = rows.filter({ hasText: digits.slice(-4) });
      await expect(row).toHaveCount(1);
      await expect(row.getByText('STOP', { exact: true })).toBeVisible();
      await expect(row.getByText('Text reply', { exact: true })).toBeVisible();
      await expect(row.getByText('All clients', { exact: true })).toBeVisible();
      await expect(row.getByText(/UTC/)).toBeVisible();
      if (width < 640) await expect(page.getByRole('list', { name: LIST, exact: true })).toBeVisible();
      else await expect(page.getByRole('table', { name: LIST, exact: true })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: /Export/ }).click();
      const file = await (await download).path();
      const { readFile } = await import('node:fs/promises');
      const csv = await readFile(file, 'utf8');
      expect(csv).toContain('Phone,Keyword,Opted out,Source,Client');
      expect(csv).toContain(`'${phone}`);

      await reply('start');
      await page.reload();
      await expect(page.getByText('No opted-out phones match these filters.')).toBeVisible();
      await page.getByRole('tab', { name: 'Templates' }).click();
      await expect(page).not.toHaveURL(/view=opt-outs/);
      expect(errors).toEqual([]);
    });
  });
}
