import type { Locator, Page } from '@playwright/test';
import { seriousViolations } from './axe.ts';
import { expect, test } from './fixtures.ts';
import {
  apiOf,
  collectConsoleErrors,
  columnTexts,
  listRows,
  openRowActions,
  showFilters,
  signInAsAdmin,
  switchClient,
  WIDTHS,
} from './support.ts';

type L = { id: number; location_id: string; location_name: string; directory: string; phone_match: boolean | null; listing_status: string };
const LIST = 'Listings';
const DIRECTORY_LABELS: Record<string, string> = {
  google: 'Google Business Profile',
  bing: 'Bing Places',
  apple: 'Apple Business Connect',
  facebook: 'Facebook',
  yelp: 'Yelp',
  yellow_pages: 'Yellow Pages',
  bbb: 'BBB',
  foursquare: 'Foursquare',
  data_axle: 'Data Axle',
  neustar: 'Neustar/Localeze',
};

async function act(page: Page, row: Locator, name: string, action: string) {
  await openRowActions(row);
  await row.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

/**
 * The "done when" for the Listings Tool (the e2e server has no provider keys, so every
 * directory is the built-in demo directory, whose every location has one directory with an old
 * phone): Scan now runs with a visible progress, a phone mismatch shows, and Set listing URL and
 * Mark updated change the row.
 */
for (const width of WIDTHS) {
  test(`Listings Tool at ${width} px: Scan now with progress, a phone mismatch, Set listing URL and Mark updated`, async ({ page }) => {
    // A scan of five locations, an axe check and four saved actions: beside the axe sweep on the other
    // worker it has run past the default minute, still moving (its last step waiting 6 s when cut off).
    test.setTimeout(120_000);
    const errors = collectConsoleErrors(page);
    // The list requests this test made, printed if it fails: at 1440 px the search has been seen
    // unapplied once the filters were picked (the box held the name, the rows were other locations').
    const listed: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/listings') listed.push(new URL(r.url()).search);
    });
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page);
    await switchClient(page, 'Summit Heating & Air');
    await page.goto('/admin/listings-tool');
    await expect(page.getByRole('heading', { level: 1, name: 'Listings Tool' })).toBeVisible();

    await page.getByRole('button', { name: 'Scan now' }).click();
    await expect(page.getByText(/^Finished: scanned \d+ of \d+ locations$/)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('progressbar', { name: 'Scan progress' })).toBeVisible();
    // The screen with its rows, badges and progress: no serious or critical axe violation (decision 042).
    await expect(listRows(page, LIST).first()).toBeVisible();
    // Status and Score % come right after Directory, so a wide screen shows them without a sideways scroll.
    if (width > 640) {
      const status = await page.getByRole('columnheader', { name: /^Status/ }).boundingBox();
      expect((status?.x ?? width) + (status?.width ?? 0)).toBeLessThanOrEqual(width);
    }
    expect(await seriousViolations(page)).toEqual([]);

    // A listing the scan found with a phone mismatch (not yet touched by the other width's run).
    const api = await apiOf(page);
    const all = (await api.get<{ data: L[] }>('/api/listings?perPage=200&status=needs_update')).data;
    const target = all.find((l) => l.phone_match === false);
    if (!target) throw new Error('the scan found no phone mismatch');
    const directory = DIRECTORY_LABELS[target.directory] ?? target.directory;
    const name = `${target.location_name} on ${directory}`;

    await page.getByRole('searchbox', { name: 'Search' }).fill(target.location_name);
    await showFilters(page);
    await page.getByRole('combobox', { name: 'Directory', exact: true }).click();
    await page.getByRole('option', { name: directory, exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'Needs update', exact: true }).click();
    await page.keyboard.press('Escape');
    const row = listRows(page, LIST).filter({ hasText: target.location_name }).first();
    await expect(row).toBeVisible();
    await expect(row).toContainText('Needs update');
    // The search and filters land one after another: read the columns once every row is the target's.
    await expect(listRows(page, LIST).filter({ hasNotText: target.location_name }))
      .toHaveCount(0)
      .catch((err: unknown) => {
        throw new Error(
          `${err instanceof Error ? err.message : String(err)}\nURL: ${page.url()}\nlist requests:\n  ${listed.join('\n  ')}`,
        );
      });
    await expect(listRows(page, LIST).filter({ hasNotText: 'Needs update' })).toHaveCount(0);
    expect((await columnTexts(page, LIST, 'Mismatched fields'))[0]).toContain('Phone');
    if (width > 640) expect((await columnTexts(page, LIST, 'Phone match'))[0]).toMatch(/^mismatch$/i);

    // Set listing URL: the url rule refuses a bad one, naming the field; a good one shows in the row.
    await act(page, row, name, 'Set listing URL');
    const dialog = page.getByRole('dialog', { name: 'Set listing URL' });
    await dialog.getByRole('textbox', { name: 'Listing URL' }).fill('not a url');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('The Listing URL field is not a valid URL')).toBeVisible();
    const url = `https://www.example.com/biz/e2e-${width}`;
    await dialog.getByRole('textbox', { name: 'Listing URL' }).fill(url);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    // A phone's card shows no URL (its facts are directory, mismatches and score); the API says below.
    if (width > 640) await expect(row.getByRole('link', { name: `www.example.com/biz/e2e-${width}` })).toBeVisible();

    // Mark updated: pending until a scan finds every field right; the note is kept.
    await act(page, row, name, 'Mark updated');
    const marking = page.getByRole('dialog', { name: 'Mark updated' });
    await marking.getByRole('textbox', { name: 'Note' }).fill('New number sent to the directory');
    await marking.getByRole('button', { name: 'Mark updated' }).click();
    await expect(marking).toBeHidden();
    // The list still filters Needs update: clear the status filter to see the row change.
    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'Pending update', exact: true }).click();
    await page.getByRole('option', { name: 'Needs update', exact: true }).click();
    await page.keyboard.press('Escape');
    const pending = listRows(page, LIST).filter({ hasText: target.location_name }).first();
    await expect(pending).toContainText('Pending update');
    const after = (
      await api.get<{ data: (L & { listing_url: string | null; note: string | null })[] }>(
        `/api/listings?perPage=200&location=${target.location_id}`,
      )
    ).data.find((l) => l.id === target.id);
    expect(after).toMatchObject({ listing_status: 'pending_update', listing_url: url, note: 'New number sent to the directory' });
    // The one refusal the test asked for (the bad URL) is the only error the page printed.
    expect(errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
  });
}
