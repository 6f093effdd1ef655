import { expect, test } from './fixtures.ts';
import { apiOf, collectConsoleErrors, setColumn, signInAsAdmin } from './support.ts';

test('Survey Platform: a feed is created, a CSV with one bad row is validated (the row’s error shown, nothing imported), then run: the rest is imported and the run’s counts shown', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  // Names and contacts of their own per attempt, so a retry counts only its own rows.
  const tag = `${Date.now().toString(36)}${test.info().retry}`;
  const name = `Invoices ${tag}`;
  await signInAsAdmin(page, '/admin/survey-platform');
  const table = page.getByRole('table', { name: 'Feeds' });

  await page.getByRole('button', { name: 'Create feed' }).first().click();
  const drawer = page.getByRole('dialog', { name: 'Create feed' });
  await drawer.getByRole('textbox', { name: 'Feed name' }).fill(name);
  await expect(drawer.getByRole('combobox', { name: 'Source system' })).toHaveValue('CSV upload');
  // A required field left out is refused on its field, as the form labels it.
  await drawer.getByRole('button', { name: 'Create feed' }).click();
  await expect(drawer.getByText('The Fixed location field is required when the location is One location')).toBeVisible();
  await drawer.getByRole('combobox', { name: 'Survey' }).click();
  await page.getByRole('option').first().click();
  await drawer.getByRole('combobox', { name: 'Fixed location' }).click();
  await page.getByRole('option').first().click();
  // A new feed's mapping reads the sample template's headers.
  await expect(drawer.getByRole('combobox', { name: 'First name column' })).toHaveValue('first_name');
  await drawer.getByRole('button', { name: 'Create feed' }).click();
  await expect(drawer).toHaveCount(0);

  const row = table.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('CSV upload');
  await row.getByRole('button', { name: `Upload CSV to ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Upload CSV to ${name}` });
  const csv = [
    'first_name,last_name,email,phone,transaction_id,transaction_date',
    `Alex,Rivera,alex.${tag}@example.com,,A-${tag},2026-11-20`,
    `Sam,Lee,,555-12,B-${tag},2026-11-20`,
    `Kim,Park,kim.${tag}@example.com,,C-${tag},2026-11-21`,
  ].join('\r\n');
  await dialog.locator('input[type="file"]').setInputFiles({ name: `invoices-${tag}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });

  await dialog.getByRole('button', { name: 'Validate file' }).click();
  const result = dialog.getByRole('status');
  await expect(result).toContainText('3 rows read: 2 valid, 1 with errors. Nothing was imported.');
  const rowErrors = dialog.getByRole('table', { name: 'Row errors' });
  await expect(rowErrors.getByRole('row', { name: '3 phone The Phone field must be a valid phone number' })).toBeVisible();

  await dialog.getByRole('button', { name: 'Run import' }).click();
  await expect(result).toContainText('Run Partial');
  // The two good rows became survey requests (scheduled, or skipped by a rule with its reason); the bad one is refused.
  await expect(result).toContainText(/Read 3 · Accepted \d · Skipped \d · Invalid 1 · Scheduled \d/);
  const counts = (await result.textContent()) ?? '';
  const [, accepted, skipped] = /Accepted (\d) · Skipped (\d)/.exec(counts) ?? [];
  expect(Number(accepted) + Number(skipped)).toBe(2);
  await expect(rowErrors.getByRole('row', { name: '3 phone The Phone field must be a valid phone number' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();

  await expect(row).toContainText(`invoices-${tag}.csv`);
  await setColumn(page, 'Rows last run (accepted/skipped/errors)', true);
  await expect(row).toContainText(new RegExp(`${accepted}/${skipped}/1`));
  await setColumn(page, 'Rows last run (accepted/skipped/errors)', false);
  expect(errors).toEqual([]);
});

test('feed to answer: rows uploaded on screen are scheduled by the rules (a repeated transaction skipped with its reason), sent when the clock reaches their time, answered from the link in Tracking Logs, and shown Responded', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectConsoleErrors(page);
  const tag = `${Date.now().toString(36)}${test.info().retry}`;
  const alex = `alex.${tag}@example.com`;
  await signInAsAdmin(page);
  const api = await apiOf(page);

  // Setup: an e-mail survey of the current client at one of its active locations (the Surveys screen's own test builds one on screen).
  const [location] = (await api.get<{ data: { _id: string; locationname: string }[] }>('/api/endpoints?perPage=1&status=active')).data;
  if (!location) throw new Error('the demo client has no active location');
  const surveyName = `Feed flow ${tag}`;
  await api.post('/api/surveys', {
    name: surveyName,
    type: 'nps',
    channel: 'email',
    location_ids: [location._id],
    questions: [{ id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', required: true, is_key_metric: true }],
    email_subject: 'How was {location_name}, {first_name}?',
    email_body: 'Hi {first_name}, one question: {survey_link}\nUnsubscribe: {unsubscribe_link}',
    sender_name: 'Feed Flow',
  });

  try {
    // The feed, made on screen for that survey and location.
    await page.goto('/admin/survey-platform');
    await page.getByRole('button', { name: 'Create feed' }).first().click();
    const drawer = page.getByRole('dialog', { name: 'Create feed' });
    const feedName = `Flow feed ${tag}`;
    await drawer.getByRole('textbox', { name: 'Feed name' }).fill(feedName);
    await drawer.getByRole('combobox', { name: 'Survey' }).fill(surveyName);
    await page.getByRole('option', { name: surveyName }).click();
    await drawer.getByRole('combobox', { name: 'Fixed location' }).fill(location.locationname);
    await page.getByRole('option', { name: location.locationname }).first().click();
    await drawer.getByRole('button', { name: 'Create feed' }).click();
    await expect(drawer).toHaveCount(0);

    // A file: two customers, one bad phone, and Alex's transaction sent a second time.
    const today = new Date().toISOString().slice(0, 10);
    const csv = [
      'first_name,last_name,email,phone,transaction_id,transaction_date',
      `Alex,Rivera,${alex},,A-${tag},${today}`,
      `Sam,Lee,,555-12,B-${tag},${today}`,
      `Kim,Park,kim.${tag}@example.com,,C-${tag},${today}`,
      `Alex,Rivera,${alex},,A-${tag},${today}`,
    ].join('\r\n');
    const row = page.getByRole('table', { name: 'Feeds' }).getByRole('row', { name: new RegExp(feedName) });
    await row.getByRole('button', { name: `Upload CSV to ${feedName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Upload CSV to ${feedName}` });
    await dialog.locator('input[type="file"]').setInputFiles({ name: `flow-${tag}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: 'Validate file' }).click();
    const result = dialog.getByRole('status');
    await expect(result).toContainText('4 rows read: 3 valid, 1 with errors. Nothing was imported.');
    await expect(
      dialog.getByRole('table', { name: 'Row errors' }).getByRole('row', { name: '3 phone The Phone field must be a valid phone number' }),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Run import' }).click();
    await expect(result).toContainText('Read 4 · Accepted 2 · Skipped 1 · Invalid 1 · Scheduled 2');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();

    // Survey Processing: Alex's invitation is scheduled for later; the repeat is skipped, saying why.
    await page.goto('/admin/survey-processing');
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill(alex);
    const table = page.getByRole('table', { name: 'Invitations' });
    await expect(table.getByRole('row')).toHaveCount(3);
    const scheduled = table
      .getByRole('row')
      .filter({ hasText: 'Scheduled' })
      .filter({ hasText: `A-${tag}` });
    const repeat = table.getByRole('row').filter({ hasText: 'Skipped: duplicate' });
    await expect(repeat).toContainText(`Transaction A-${tag} was already received`);
    await expect(scheduled).toHaveCount(1);

    // Time moves to the moment the invitations are due: the engine sends them.
    const items = await api.get<{ data: { scheduled_at: string | null; item_status: string }[] }>(
      `/api/survey-processing?q=${encodeURIComponent(alex)}&status=scheduled`,
    );
    const due = Math.max(...items.data.map((i) => new Date(i.scheduled_at ?? 0).getTime()));
    expect(due, 'the scheduled time').toBeGreaterThan(Date.now());
    await api.put('/api/test-clock', { now: new Date(due + 60_000).toISOString() });
    await page.reload();
    const alexAs = (status: string) =>
      table
        .getByRole('row')
        .filter({ hasText: `A-${tag}` })
        .filter({ hasText: status });
    await expect(alexAs('Sent')).toHaveCount(1);

    // The invitation in Tracking Logs, and its link.
    await page.goto(`/admin/notifications/logs?recipient=${encodeURIComponent(alex)}`);
    const messages = page.getByRole('table', { name: 'Messages' });
    const invitation = messages.getByRole('row', {
      name: new RegExp(`How was ${location.locationname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, Alex\\?`),
    });
    await invitation.getByRole('button', { name: /^Details of message/ }).click();
    const detail = page.getByRole('dialog', { name: /message/i });
    await expect(detail).toContainText('one question:');
    const link = /https?:\/\/\S+\/s\/[A-Za-z0-9_-]+/.exec(await detail.innerText())?.[0];
    expect(link, 'the survey link in the message').toBeTruthy();

    // Alex answers; Survey Processing says Responded.
    await page.goto(link ?? '');
    await page.getByRole('radio', { name: '10', exact: true }).first().check();
    await page.getByRole('button', { name: 'Send my answers' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you, Alex!' })).toBeVisible();
    await page.goto(`/admin/survey-processing?q=${encodeURIComponent(alex)}`);
    await expect(alexAs('Responded')).toHaveCount(1);
  } finally {
    // The tests after this one see the real time again.
    await api.delete('/api/test-clock');
  }
  expect(errors).toEqual([]);
});
