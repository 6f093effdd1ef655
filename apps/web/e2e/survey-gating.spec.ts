import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, DESKTOP, PHONE, showFilters, signInAsAdmin, WIDTHS } from './support.ts';

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
    await signInAsAdmin(page, '/admin/surveys');
    await page.getByRole('button', { name: 'Create survey' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create survey' });
    await drawer.getByRole('tab', { name: 'Rules' }).click();
    await expectMode(drawer, EVERY);
    await chooseMode(page, drawer, THRESHOLD);
    // The threshold is needed in this mode, and marked so.
    await expect(drawer.getByRole('textbox', { name: 'Review-invite threshold' })).toHaveAttribute('required', '');
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
  await signInAsAdmin(page, '/admin/surveys');
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

// Issue 19, item 3: an answer to a Send test is listed in Survey Manager marked as a test, and its
// filter leaves tests out.
test('Survey Manager at 1440 and 390 px: an answer to a Send test is marked Test, and "Real responses only" leaves it out', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  await page.setViewportSize({ width: DESKTOP, height: 900 });
  await signInAsAdmin(page);
  const api = await apiOf(page);
  const surveys = await api.get<{ data: { id: number; name: string }[] }>('/api/surveys?q=Customer%20experience%20NPS');
  const survey = surveys.data[0];
  if (!survey) throw new Error('The demo has an NPS survey for the current client');
  const sent = await api.post<{ data: { link: string } }>(`/api/surveys/${survey.id}/send-test`, { to: 'gating.e2e@example.com' });
  const token = sent.data.link.split('/s/')[1];
  const comment = `Checking the survey ${Date.now()}`;
  const res = await page.request.post(`/api/public/responses/${token}`, { data: { answers: { '1': 0, '3': comment } } });
  expect(res.status(), await res.text()).toBe(201);

  await page.goto('/admin/survey-manager');
  const table = page.getByRole('table', { name: 'Responses' });
  const row = table.getByRole('row').filter({ hasText: comment });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Alex Test', exact: true })).toBeVisible();
  await shot(page, 'survey-manager-test-1440');

  await showFilters(page);
  await page.getByRole('combobox', { name: 'Test responses' }).click();
  await page.getByRole('option', { name: 'Real responses only' }).click();
  await expect(page).toHaveURL(/test=no/);
  await expect(table.getByRole('row').filter({ hasText: comment })).toHaveCount(0);
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await expect(table.getByRole('cell', { name: /^.+ Test$/ })).toHaveCount(0);

  // On a phone the list is cards: the test's card is marked beside the name too.
  await page.setViewportSize({ width: PHONE, height: 900 });
  await page.goto('/admin/survey-manager?test=yes');
  const card = page.getByRole('list', { name: 'Responses' }).getByRole('listitem').first();
  await expect(card).toContainText('AlexTest');
  await shot(page, 'survey-manager-test-390');
  expect(errors).toEqual([]);
});
