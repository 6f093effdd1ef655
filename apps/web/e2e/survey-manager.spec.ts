import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { collectConsoleErrors, listRows, showFilters, signInAsAdmin, uniqueSuffix } from './support.ts';

// Survey Manager: a response recorded in the setup through the public JSON API (after a test
// invitation), excluded from reports with a reason, reassigned to another person of the client and
// found again with the Personnel filter, by role and label; pictures at 390 and 1440 px when
// SHOTS_DIR is set.

async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  await page.waitForTimeout(500); // the side panel's slide-in
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

/** The API as the signed-in admin, for the setup. */
async function apiOf(page: Page) {
  const token = await page.evaluate(() => (sessionStorage.getItem('storage-auth-user-token') ?? '').replace(/"/g, ''));
  const headers = { authorization: `Bearer ${token}` };
  return {
    async get<T>(url: string): Promise<T> {
      const res = await page.request.get(url, { headers });
      expect(res.status(), await res.text()).toBe(200);
      return (await res.json()) as T;
    },
    async post<T>(url: string, data: unknown): Promise<T> {
      const res = await page.request.post(url, { headers, data });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()) as T;
    },
  };
}

/**
 * A survey of the current client, a test invitation to it and its answer (the customer's name is
 * the sample "Alex"), and a person of the client named `person` (unique per attempt) to reassign it to.
 */
async function answeredResponse(page: Page, name: string, comment: string, person: { first: string; last: string }) {
  const api = await apiOf(page);
  const locations = await api.get<{ data: { _id: string }[] }>('/api/endpoints?perPage=1');
  const survey = await api.post<{ data: { id: number } }>('/api/surveys', {
    name,
    type: 'nps',
    channel: 'email',
    location_ids: locations.data.map((l) => l._id),
    questions: [
      { id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', required: true, is_key_metric: true },
      { id: 2, type: 'text', text: 'Why?' },
    ],
    email_subject: 'How was {location_name}?',
    email_body: 'Hi {first_name}: {survey_link}\nUnsubscribe: {unsubscribe_link}',
    sender_name: 'Manager Test',
  });
  const sent = await api.post<{ data: { link: string } }>(`/api/surveys/${survey.data.id}/send-test`, { to: 'manager.e2e@example.com' });
  const token = sent.data.link.split('/s/')[1];
  const res = await page.request.post(`/api/public/responses/${token}`, { data: { answers: { '1': 3, '2': comment } } });
  expect(res.status(), await res.text()).toBe(201);
  await api.post('/api/personnel', { first_name: person.first, last_name: person.last, location_ids: locations.data.map((l) => l._id) });
}

test.describe('Survey Manager', () => {
  for (const width of [1440, 390]) {
    test(`a response is read, excluded with a reason, reassigned to another person and found by the Personnel filter (${width} px)`, async ({
      page,
    }) => {
      const errors = collectConsoleErrors(page);
      await page.setViewportSize({ width, height: 900 });
      await signInAsAdmin(page);
      const name = `Manager NPS ${width} ${Date.now()}`;
      // The list is searched by the comment: this attempt's own, since a retry still lists the first attempt's response.
      const comment = `Waited too long ${width} ${uniqueSuffix()}`;
      const last = `Filter${width}x${Date.now()}`;
      const person = `Quinn ${last}`;
      await answeredResponse(page, name, comment, { first: 'Quinn', last });

      await page.goto('/admin/survey-manager');
      await expect(page.getByRole('heading', { level: 1, name: 'Survey Manager' })).toBeVisible();
      // A table row, or a card on a phone (docs/decisions/040), found by its comment (a card shows
      // the customer, personnel, class and comment).
      const row = listRows(page, 'Responses').filter({ hasText: comment });
      await expect(row).toContainText('Detractor');
      await expect(row).toContainText(comment);
      await shot(page, `survey-manager-list-${width}`);

      await row.getByRole('button', { name: /^Details of response/ }).click();
      const detail = page.getByRole('dialog', { name: /response of Alex/i });
      await expect(detail.getByText(comment)).toBeVisible();
      await expect(detail.getByText('How likely are you to recommend us?')).toBeVisible();

      // Exclude: the reason is required.
      await detail.getByRole('button', { name: 'Exclude' }).click();
      await expect(detail.getByText('The Reason field is required')).toBeVisible();
      await detail.getByRole('textbox', { name: 'Reason', exact: true }).fill('Staff test of the survey');
      await detail.getByRole('button', { name: 'Exclude' }).click();
      await expect(detail.getByText('Yes — Staff test of the survey')).toBeVisible();
      await expect(detail.getByRole('button', { name: 'Include' })).toBeVisible();

      // Reassign personnel: options of the client, found by typing.
      const picker = detail.getByRole('combobox', { name: 'New personnel' });
      await picker.fill(last);
      await page.getByRole('option', { name: person, exact: true }).click();
      await detail.getByRole('button', { name: 'Reassign personnel' }).click();
      await expect(detail.getByText(person, { exact: true })).toBeVisible();
      await shot(page, `survey-manager-detail-${width}`);
      await page.keyboard.press('Escape');
      // The exclusion shows in the detail above; Excluded from reports is a column the user may add.
      await expect(row).toContainText(person);

      // The Personnel filter finds the person on the server as typed; the list is then theirs only.
      await showFilters(page);
      await page.getByRole('combobox', { name: 'Personnel' }).click();
      await page.keyboard.type(last);
      const filtered = page.waitForResponse((r) => r.url().includes('/api/survey-responses?') && /personnel=\d+/.test(r.url()));
      await page.getByRole('option', { name: person, exact: true }).click();
      await page.keyboard.press('Escape');
      await filtered;
      await expect(page).toHaveURL(/personnel=\d+/);
      const rows = listRows(page, 'Responses');
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText(comment);
      expect(errors).toEqual([]);
    });
  }
});
