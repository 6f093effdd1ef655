import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notificationLogs } from '../src/db/schema/index.ts';
import { testDatabaseKinds } from './helpers.ts';
import { NPS_QUESTIONS, surveysBed } from './surveys-bed.ts';

for (const kind of testDatabaseKinds()) {
  describe(`Surveys API (${kind})`, () => {
    const bed = surveysBed(kind);
    const { get, send, create } = bed;

    it('creates a survey with the rules’ defaults, its locations and question counts', async () => {
      const res = await create({ location_ids: bed.locationIds.slice(0, 2) });
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({
        client_id: bed.currentClient,
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

    it('duplicates to the same client (active, same locations) and to another (paused, no locations)', async () => {
      const source = (await create({ name: 'Original', location_ids: bed.locationIds.slice(0, 2) })).json().data;
      const same = await send('POST', `/api/surveys/${source.id}/duplicate`);
      expect(same.statusCode).toBe(201);
      expect(same.json().data).toMatchObject({
        name: 'Original (copy)',
        status: 'active',
        location_ids: source.location_ids,
        questions: source.questions,
      });
      const clients = (await get('/api/create-client?perPage=5')).json().data as { id: number }[];
      const other = clients.find((c) => c.id !== bed.currentClient);
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
      const [log] = await bed.ctx.database.db
        .select()
        .from(notificationLogs)
        .where(eq(notificationLogs.id, test.json().data.notification_id));
      expect(log?.clientId).toBe(other?.id);
      // Its copy "for this client" is its own client's again.
      expect((await send('POST', `/api/surveys/${copyId}/duplicate`)).json().data).toMatchObject({
        client_id: other?.id,
        status: 'active',
      });
    });
  });
}
