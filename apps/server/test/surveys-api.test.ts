import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emailOptOuts, notificationLogs, surveyProcessingItems } from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const BODY = 'Hi {first_name}, how was {location_name} with {personnel_name}? {survey_link}\nUnsubscribe: {unsubscribe_link}';
const NPS_QUESTIONS = [
  { id: 1, type: 'nps_0_10', text: 'How likely are you to recommend us?', required: true, is_key_metric: true },
  { id: 2, type: 'text', text: 'Why?' },
];

for (const kind of testDatabaseKinds()) {
  describe(`Surveys API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let currentClient: number;
    let locationIds: string[];
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH', url: string, payload?: unknown) =>
      ctx.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
    const create = (body: Record<string, unknown>) =>
      send('POST', '/api/surveys', {
        name: 'After visit',
        type: 'nps',
        channel: 'email',
        location_ids: locationIds.slice(0, 1),
        questions: NPS_QUESTIONS,
        email_subject: 'How was {location_name}?',
        email_body: BODY,
        sender_name: 'Acme',
        ...body,
      });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      currentClient = (await get('/api/user')).json().data.user.current_client_id;
      locationIds = (await get('/api/endpoints?perPage=5')).json().data.map((l: { _id: string }) => l._id);
      expect(locationIds.length).toBeGreaterThan(1);
    });
    afterAll(() => ctx.close());

    it('creates a survey with the rules’ defaults, its locations and question counts', async () => {
      const res = await create({ location_ids: locationIds.slice(0, 2) });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({
        client_id: currentClient,
        send_delay_hours: 24,
        reminder_count: 1,
        link_expires_days: 30,
        // Blank: the client's Survey Admin value (effectiveSurveySettings).
        over_survey_days: null,
        reply_to: null,
        review_invite_mode: 'all_respondents',
        review_sites: ['google'],
        question_count: 2,
        location_count: 2,
        status: 'active',
      });
      const list = (await get('/api/surveys?q=After')).json();
      expect(list.data[0]).toMatchObject({ name: 'After visit', question_count: 2, location_count: 2, sent_30d: 0 });
      const options = (await get('/api/admin/surveys')).json();
      expect(options.data).toContainEqual({ label: 'After visit', value: res.json().data.id });
    });

    it('refuses what §2’s rules refuse, naming the fields', async () => {
      const bad = await create({
        name: '',
        type: 'poll',
        channel: 'email_then_sms',
        location_ids: [],
        email_subject: null,
        email_body: 'Take it: {survey_link}',
        send_delay_hours: 721,
        reminder_count: 4,
        link_expires_days: 0,
      });
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors).sort()).toEqual(
        ['link_expires_days', 'location_ids', 'name', 'reminder_count', 'send_delay_hours', 'type'].sort(),
      );
      const cross = await create({
        channel: 'email_then_sms',
        email_subject: '',
        email_body: 'Take it: {survey_link}',
        review_invite_mode: 'threshold',
      });
      expect(cross.statusCode).toBe(422);
      expect(cross.json().errors).toEqual({
        email_subject: ['The Email subject field is required when the channel is Email → SMS fallback'],
        email_body: ['The Email body must contain {unsubscribe_link}'],
        sms_template_id: ['The SMS template field is required when the channel is Email → SMS fallback'],
        review_invite_threshold: ['The Review-invite threshold field is required when only respondents at or above a score are invited'],
      });
      const foreign = await create({ location_ids: ['0123456789abcdef01234567'] });
      expect(foreign.statusCode).toBe(422);
      expect(foreign.json().errors.location_ids[0]).toContain('not this client');
    });

    it('needs exactly one key metric of the survey type’s kind', async () => {
      const none = await create({ questions: [{ id: 1, type: 'nps_0_10', text: 'Recommend?' }] });
      expect(none.statusCode).toBe(422);
      expect(none.json().errors.questions).toEqual(['Mark exactly one question as the key metric']);
      const wrong = await create({ type: 'csat' });
      expect(wrong.json().errors.questions).toEqual(['The key metric of this survey must be a "Rating (1–5)" question']);
      const two = await create({ questions: [NPS_QUESTIONS[0], { ...NPS_QUESTIONS[0], id: 2 }] });
      expect(two.json().errors.questions).toEqual(['Mark exactly one question as the key metric']);
      const custom = await create({ type: 'custom', questions: [{ id: 1, type: 'yes_no', text: 'Happy?' }] });
      expect(custom.statusCode).toBe(201);
      // An edit is checked with the stored questions: switching to CSAT without new ones is refused.
      const edit = await send('PATCH', `/api/surveys/${custom.json().data.id}`, { type: 'nps', updated_at: custom.json().data.updated_at });
      expect(edit.statusCode).toBe(422);
      expect(edit.json().errors.questions).toEqual(['Mark exactly one question as the key metric']);
    });

    it('sends a test invitation through the outbox: a processing item with its token and the link in the message', async () => {
      const survey = (await create({ name: 'Send test' })).json().data;
      const res = await send('POST', `/api/surveys/${survey.id}/send-test`, { to: 'pat@example.com' });
      expect(res.statusCode).toBe(201);
      const result = res.json().data;
      expect(result).toMatchObject({ channel: 'email', status: 'sent', notification_status: 'sent', error: null });
      const token = result.link.split('/s/')[1];
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const [item] = await ctx.database.db.select().from(surveyProcessingItems).where(eq(surveyProcessingItems.id, result.item_id));
      expect(item).toMatchObject({
        token,
        source: 'manual_test',
        status: 'sent',
        email: 'pat@example.com',
        surveyId: survey.id,
        attempts: 1,
      });
      const days = ((item?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);

      const [log] = await ctx.database.db.select().from(notificationLogs).where(eq(notificationLogs.id, result.notification_id));
      expect(log).toMatchObject({ channel: 'email', type: 'survey_invite', recipient: 'pat@example.com', status: 'sent' });
      expect(log?.relatedType).toBe('survey_processing_item');
      expect(log?.relatedId).toBe(String(result.item_id));
      expect(log?.subjectOrTemplate).not.toContain('{');
      expect(log?.bodyText).toContain(`Hi Alex, how was `);
      expect(log?.bodyText).toContain(result.link);
      expect(log?.bodyText).toContain(`/u/${token}`);

      // Two tests, two links.
      const again = (await send('POST', `/api/surveys/${survey.id}/send-test`, { to: 'pat@example.com' })).json().data;
      expect(again.link).not.toBe(result.link);

      await ctx.database.db.insert(emailOptOuts).values({ email: 'gone@example.com', clientId: null, source: 'unsubscribe' });
      const refused = (await send('POST', `/api/surveys/${survey.id}/send-test`, { to: 'gone@example.com' })).json().data;
      expect(refused).toMatchObject({ status: 'skipped_opt_out', notification_status: 'suppressed' });

      const phone = await send('POST', `/api/surveys/${survey.id}/send-test`, { to: '+13035550142' });
      expect(phone.statusCode).toBe(422);
      expect(phone.json().errors.to[0]).toContain('no SMS template');
      const bad = await send('POST', `/api/surveys/${survey.id}/send-test`, { to: 'not an address' });
      expect(bad.statusCode).toBe(400);
      expect(JSON.stringify(bad.json())).toContain('to');
      expect((await send('POST', '/api/surveys/999999/send-test', { to: 'pat@example.com' })).statusCode).toBe(404);
    });

    it('sends an SMS test with the survey’s template and its link', async () => {
      const template = (
        await send('POST', '/api/sms-templates', {
          name: 'Invite',
          purpose: 'survey_invite',
          language: 'en',
          body: 'Hi {first_name}, rate {business_name}: {link} Reply STOP to opt out',
        })
      ).json().data;
      const survey = (await create({ name: 'By text', channel: 'sms', sms_template_id: template.id })).json().data;
      // The record names its template, so a form showing another client's survey need not look it up.
      expect(survey).toMatchObject({ sms_template_id: template.id, sms_template_name: template.name });
      const listed = (await get(`/api/surveys?q=${encodeURIComponent('By text')}`)).json().data;
      expect(listed.find((s: { id: number }) => s.id === survey.id)).toMatchObject({ sms_template_name: template.name });
      const res = (await send('POST', `/api/surveys/${survey.id}/send-test`, { to: '+13035550142' })).json().data;
      expect(res).toMatchObject({ channel: 'sms', status: 'sent' });
      const [log] = await ctx.database.db.select().from(notificationLogs).where(eq(notificationLogs.id, res.notification_id));
      expect(log?.bodyText).toContain(res.link);
      expect(log?.bodyText).toMatch(/^Hi Alex, rate /);
    });

    it('previews the e-mail (as sent, with its HTML), the SMS with its counter and the public page, recording nothing', async () => {
      const template = (
        await send('POST', '/api/sms-templates', {
          name: 'Preview invite',
          purpose: 'survey_invite',
          language: 'en',
          body: 'Hi {first_name}, rate {business_name}: {link} Reply STOP to opt out',
        })
      ).json().data;
      const survey = (await create({ name: 'Preview <me>', channel: 'email_then_sms', sms_template_id: template.id })).json().data;
      const db = ctx.database.db;
      const before = await db.$count(surveyProcessingItems);
      const logsBefore = await db.$count(notificationLogs);

      const res = await get(`/api/surveys/${survey.id}/preview`);
      expect(res.statusCode, res.body).toBe(200);
      const p = res.json().data;
      expect(p.sample.first_name).toBe('Alex');
      expect(p.sample.link).toMatch(/\/s\/preview-sample-link$/);
      expect(p.email.subject).toBe(`How was ${p.sample.location_name}?`);
      expect(p.email.text).toContain(`Hi Alex, how was ${p.sample.location_name} with Jordan? ${p.sample.link}`);
      expect(p.email.html).toContain(`<a href="${p.sample.link}"`);
      expect(p.email_missing).toBeNull();
      expect(p.sms).toMatchObject({ template_name: 'Preview invite', encoding: 'gsm7', segments: 1 });
      expect(p.sms.text).toMatch(/^Hi Alex, rate .+: http.+\/s\/preview-sample-link Reply STOP to opt out$/);
      expect(p.sms.characters).toBeGreaterThan(40);
      // The public page's own markup, escaped: the survey's name cannot add tags.
      expect(p.landing_html).toContain('<h1>Preview &lt;me&gt;</h1>');
      expect(p.landing_html).toContain('Hi Alex, thank you for choosing');
      expect(p.landing_html).toContain('How likely are you to recommend us?');
      expect(await db.$count(surveyProcessingItems)).toBe(before);
      expect(await db.$count(notificationLogs)).toBe(logsBefore);

      const bare = (await create({ name: 'No SMS' })).json().data;
      const q = (await get(`/api/surveys/${bare.id}/preview`)).json().data;
      expect(q.sms).toBeNull();
      expect(q.sms_missing).toContain('no SMS template');
      expect((await get('/api/surveys/999999/preview')).statusCode).toBe(404);

      // Send test sends the same HTML the preview shows.
      const sent = (await send('POST', `/api/surveys/${survey.id}/send-test`, { to: 'pat@example.com' })).json().data;
      const [log] = await db.select().from(notificationLogs).where(eq(notificationLogs.id, sent.notification_id));
      expect(log?.bodyHtml).toContain(`<a href="${sent.link}"`);
    });

    it('duplicates to the same client (active, same locations) and to another (paused, no locations)', async () => {
      const source = (await create({ name: 'Original', location_ids: locationIds.slice(0, 2) })).json().data;
      const same = await send('POST', `/api/surveys/${source.id}/duplicate`);
      expect(same.statusCode).toBe(201);
      expect(same.json().data).toMatchObject({
        name: 'Original (copy)',
        status: 'active',
        location_ids: source.location_ids,
        questions: source.questions,
      });
      const clients = (await get('/api/create-client?perPage=5')).json().data as { id: number }[];
      const other = clients.find((c) => c.id !== currentClient);
      expect(other).toBeDefined();
      const moved = await send('POST', `/api/surveys/${source.id}/duplicate`, { client_id: other?.id });
      expect(moved.statusCode).toBe(201);
      expect(moved.json().data).toMatchObject({ client_id: other?.id, status: 'paused', location_ids: [] });
      // The copy is the other client's: listed when the Clients filter chooses it, and its test is sent as that client's.
      const copyId = moved.json().data.id;
      expect((await get('/api/surveys?q=Original')).json().data.map((r: { id: number }) => r.id)).not.toContain(copyId);
      const listed = (await get(`/api/surveys?q=Original&client=${other?.id}`)).json().data;
      expect(listed.map((r: { id: number }) => r.id)).toEqual([copyId]);
      expect(listed[0].client_name).toEqual(expect.any(String));
      const every = (await get('/api/surveys?q=Original&client=all')).json();
      expect(every.data.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([source.id, copyId]));
      expect((await get('/api/admin/surveys')).json().data.map((o: { value: number }) => o.value)).not.toContain(copyId);
      expect((await get('/api/surveys?client=all,2')).statusCode).toBe(400);
      const edited = await send('PATCH', `/api/surveys/${copyId}`, { name: 'Original for them', updated_at: moved.json().data.updated_at });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().data).toMatchObject({ client_id: other?.id, name: 'Original for them' });
      const test = await send('POST', `/api/surveys/${copyId}/send-test`, { to: 'a@example.com' });
      expect(test.statusCode, test.body).toBe(201);
      const [log] = await ctx.database.db.select().from(notificationLogs).where(eq(notificationLogs.id, test.json().data.notification_id));
      expect(log?.clientId).toBe(other?.id);
      // Its copy "for this client" is its own client's again.
      expect((await send('POST', `/api/surveys/${copyId}/duplicate`)).json().data).toMatchObject({
        client_id: other?.id,
        status: 'active',
      });
    });

    it('stores blank reply-to and over-survey days as null and sends with the client’s Survey Admin reply-to unless the survey sets its own', async () => {
      const saved = await send('PATCH', `/api/surveys-admin/${currentClient}`, {
        updated_at: (await get(`/api/surveys-admin/${currentClient}`)).json().data.updated_at,
        from_name: 'Front desk',
        from_email: 'surveys@example.com',
        reply_to: 'desk@example.com',
        over_survey_days: 45,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const spy = vi.spyOn(ctx.app.messenger, 'send');
      try {
        const inheriting = (await create({ name: 'Inherits', reply_to: '' })).json().data;
        const own = (await create({ name: 'Own reply-to', reply_to: 'own@example.com', over_survey_days: 10 })).json().data;
        expect(inheriting).toMatchObject({ reply_to: null, over_survey_days: null });
        expect(own).toMatchObject({ reply_to: 'own@example.com', over_survey_days: 10 });
        for (const [survey, replyTo] of [
          [inheriting, 'desk@example.com'],
          [own, 'own@example.com'],
        ] as const) {
          spy.mockClear();
          expect((await send('POST', `/api/surveys/${survey.id}/send-test`, { to: 'pat@example.com' })).statusCode).toBe(201);
          expect(spy.mock.calls[0]?.[0]).toMatchObject({ channel: 'email', replyTo, sender: { name: 'Acme', address: null } });
          expect((await get(`/api/surveys/${survey.id}/preview`)).json().data.email).toMatchObject({
            from_name: 'Acme',
            // The platform's address (EMAIL_FROM), which the message is sent from: no own verified domain.
            from_address: 'no-reply@example.com',
            reply_to: replyTo,
          });
        }
      } finally {
        spy.mockRestore();
        await send('POST', `/api/surveys-admin/${currentClient}/reset`, { updated_at: saved.json().data.updated_at });
      }
    });
  });
}
