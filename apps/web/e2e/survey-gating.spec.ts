import { expect, type Locator, type Page, test } from '@playwright/test';
import { collectConsoleErrors, DESKTOP, signInAsAdmin, WIDTHS } from './support.ts';

const EVERY = 'Every respondent';
const THRESHOLD = 'Respondents at or above a score';
const WARNING = 'Review gating is against Google’s policy';

/** Screenshots for a person to look at, when asked for (`SHOTS_DIR=/tmp/shots`). */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

/** The Rules tab's review fields: the mode, the hint under Review sites, and the warning when gating. */
async function expectMode(drawer: Locator, mode: string) {
  await expect(drawer.getByRole('combobox', { name: 'Review invitations' })).toHaveValue(mode);
  if (mode === EVERY) {
    await expect(drawer.getByText('Offered to every respondent; at most 4')).toBeVisible();
    await expect(drawer.getByRole('alert').filter({ hasText: WARNING })).toHaveCount(0);
  } else {
    await expect(drawer.getByText('Offered only to respondents scoring at or above the Review-invite threshold; at most 4')).toBeVisible();
    await expect(drawer.getByRole('alert').filter({ hasText: WARNING })).toBeVisible();
    await expect(drawer.getByText('Offered to every respondent; at most 4')).toHaveCount(0);
  }
}

async function chooseMode(page: Page, drawer: Locator, mode: string) {
  await drawer.getByRole('combobox', { name: 'Review invitations' }).click();
  await page.getByRole('option', { name: mode }).click();
  await expectMode(drawer, mode);
}

// Issue 19, item 4: review sites go to every respondent unless a person chooses review gating, and
// then the builder says plainly what that mode does and that Google's policy forbids it.
for (const width of WIDTHS) {
  test(`Surveys at ${width} px: a new survey offers review sites to every respondent; threshold mode shows the Google-policy warning and its own hint`, async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page);
    await page.goto('/admin/surveys');
    await page.getByRole('button', { name: 'Create survey' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create survey' });
    await drawer.getByRole('tab', { name: 'Rules' }).click();
    await expectMode(drawer, EVERY);
    await chooseMode(page, drawer, THRESHOLD);
    await drawer.getByRole('alert').filter({ hasText: WARNING }).scrollIntoViewIfNeeded();
    await shot(page, `survey-gating-warning-${width}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await chooseMode(page, drawer, EVERY);
    expect(errors).toEqual([]);
  });
}

test('Surveys at 1440 px: the demo’s NPS survey offers review sites to every respondent and shows its NPS of the last 30 days', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  await page.setViewportSize({ width: DESKTOP, height: 900 });
  await signInAsAdmin(page);
  await page.goto('/admin/surveys');
  const table = page.getByRole('table', { name: 'Surveys' });
  const row = table.getByRole('row', { name: /Customer experience NPS/ }).first();
  await expect(row).toBeVisible();

  // Issue 19, item 5: the column holds the demo responses' NPS (a whole number from −100 to 100).
  const header = table.getByRole('columnheader', { name: 'NPS or avg 30d' });
  await expect(header).toBeVisible();
  const headers = await table.getByRole('row').first().locator(':scope > *').allInnerTexts();
  const column = headers.findIndex((h) => h.trim() === 'NPS or avg 30d');
  expect(column).toBeGreaterThanOrEqual(0);
  const cell = row.locator(':scope > *').nth(column);
  await expect(cell).toHaveText(/^-?\d{1,3}$/);
  await expect(cell).toBeInViewport();
  await shot(page, 'survey-score-1440');

  await row.getByRole('button', { name: 'Edit Customer experience NPS' }).click();
  const drawer = page.getByRole('dialog', { name: 'Edit Customer experience NPS' });
  await drawer.getByRole('tab', { name: 'Rules' }).click();
  await expectMode(drawer, EVERY);
  await expect(drawer.getByRole('textbox', { name: 'Review-invite threshold' })).toHaveCount(0);
  await drawer.getByRole('button', { name: 'Close panel' }).click();
  expect(errors).toEqual([]);
});
