import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, signInAsAdmin } from './support.ts';

// Survey Processing and Survey Manager Logs: a feed file with one bad row uploaded in the setup
// (through the API, as Survey Platform does), its invitations found, one cancelled with a note and
// one sent now,
// then the run and its refused row in Survey Manager Logs (re-run), and the survey's change log.

/** A survey and a feed of the current client, and a file of two good rows and one bad e-mail uploaded to it. */
async function uploadedFeed(page: Page, unique: string) {
  const api = await apiOf(page);
  const locations = await api.get<{ data: { _id: string }[] }>('/api/endpoints?perPage=1&status=active');
  const locationId = locations.data[0]?._id;
  const survey = await api.post<{ data: { id: number } }>('/api/surveys', {
    name: `Processing ${unique}`,
    type: 'nps',
    channel: 'email',
    location_ids: [locationId],
    questions: [{ id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', required: true, is_key_metric: true }],
    email_subject: 'How was {location_name}?',
    email_body: 'Hi {first_name}: {survey_link}\nUnsubscribe: {unsubscribe_link}',
    sender_name: 'Processing Test',
  });
  const feed = await api.post<{ data: { id: number } }>('/api/data-feeds', {
    name: `Feed ${unique}`,
    trigger_event: 'invoice_paid',
    survey_id: survey.data.id,
    location_id: locationId,
    field_mapping: { first_name: 'First', email: 'Email', transaction_id: 'Txn', transaction_date: 'Date' },
  });
  const today = new Date().toISOString().slice(0, 10);
  const csv = [
    'First,Email,Txn,Date',
    `Ada${unique},ada.${unique}@example.com,A-${unique},${today}`,
    `Ben${unique},ben.${unique}@example.com,B-${unique},${today}`,
    `Cy${unique},not-an-address,C-${unique},${today}`,
  ].join('\r\n');
  const started = await api.post<{ data: { id: number } }>(
    `/api/data-feeds/${feed.data.id}/upload`,
    { csv, file_name: `invoices-${unique}.csv` },
    202,
  );
  // The upload answers once the file is stored; the server's workers then admit its rows.
  await expect
    .poll(async () => (await api.get<{ data: { run_status: string } }>(`/api/survey-manager-logs/runs/${started.data.id}`)).data.run_status)
    .not.toBe('running');
  return { feedId: feed.data.id, surveyName: `Processing ${unique}` };
}

test.describe('Survey Processing and Survey Manager Logs', () => {
  test('a feed’s invitations are found and one is cancelled with a note; the run’s bad row and the survey’s creation are logged', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await signInAsAdmin(page);
    const unique = `${Date.now().toString(36)}${test.info().retry}`;
    const { feedId, surveyName } = await uploadedFeed(page, unique);

    await page.goto('/admin/survey-processing');
    await expect(page.getByRole('heading', { level: 1, name: 'Survey Processing' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search' }).fill(`ada.${unique}@example.com`);
    const table = page.getByRole('table', { name: 'Invitations' });
    const row = table.getByRole('row', { name: new RegExp(`Ada${unique}`) });
    await expect(row).toContainText('a***@example.com');
    await expect(row).toContainText(`A-${unique}`);
    await expect(row).toContainText('Scheduled');

    await row.getByRole('button', { name: /^Details of invitation/ }).click();
    const detail = page.getByRole('dialog', { name: new RegExp(`invitation of Ada${unique}`, 'i') });
    await expect(detail.getByRole('table', { name: 'Row as received' })).toContainText(`ada.${unique}@example.com`);
    // The detail has the address in full (the list masks it), ready to be fixed.
    await expect(detail.getByRole('textbox', { name: 'Email' })).toHaveValue(`ada.${unique}@example.com`);
    // Cancel: the note is required.
    await detail.getByRole('button', { name: 'Cancel invitation' }).click();
    await expect(detail.getByText('The Note field is required')).toBeVisible();
    await detail.getByRole('textbox', { name: 'Note' }).fill('Customer called to opt out');
    await detail.getByRole('button', { name: 'Cancel invitation' }).click();
    await expect(detail.getByText('Customer called to opt out')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(row).toContainText('Cancelled');

    // Send now: the other invitation goes out at once; its message is in the timeline.
    await page.getByRole('searchbox', { name: 'Search' }).fill(`B-${unique}`);
    const other = table.getByRole('row', { name: new RegExp(`Ben${unique}`) });
    await other.getByRole('button', { name: /^Details of invitation/ }).click();
    const otherDetail = page.getByRole('dialog', { name: new RegExp(`invitation of Ben${unique}`, 'i') });
    await otherDetail.getByRole('button', { name: 'Send now' }).click();
    await expect(otherDetail.getByLabel('Message timeline')).toContainText('Survey invite · Sent');
    await expect(otherDetail.getByRole('button', { name: 'Resend' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(other).toContainText('Sent');

    // Survey Manager Logs, deep-linked from Survey Platform with the feed.
    await page.goto(`/admin/survey-admin/logs?feed=${feedId}`);
    await expect(page.getByRole('tab', { name: 'Runs', selected: true })).toBeVisible();
    const run = page.getByRole('table', { name: 'Runs' }).getByRole('row', { name: new RegExp(`invoices-${unique}\\.csv`) });
    await expect(run).toContainText('Partial');
    await run.getByRole('button', { name: /^Details of run/ }).click();
    const runDetail = page.getByRole('dialog', { name: /^Run \d+/ });
    await expect(runDetail.getByRole('table', { name: 'Row errors' })).toContainText('Email');
    await runDetail.getByRole('button', { name: 'Re-run failed rows' }).click();
    await expect(page.getByText(/0 accepted, 1 still invalid/)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(
      page
        .getByRole('table', { name: 'Runs' })
        .getByRole('row', { name: /Re-run of run/ })
        .first(),
    ).toBeVisible();

    await page.getByRole('tab', { name: 'Changes' }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill(surveyName);
    const change = page.getByRole('table', { name: 'Changes' }).getByRole('row', { name: new RegExp(surveyName) });
    await expect(change).toContainText('Created');
    expect(errors).toEqual([]);
  });
});
