import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clients,
  clientUsers,
  emailSuppressions,
  locations,
  smsOptOuts,
  surveyAlertEvents,
  surveyAlertRecipients,
  surveyAlertRules,
  surveys,
  systemLogs,
  users,
} from '../src/db/schema/index.ts';
import { bearer, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

const PATH = '/api/survey-alert-settings';

for (const kind of testDatabaseKinds()) {
  describe(`Survey Alert Settings API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let clientId: number;
    let surveyId: number;
    let locationId: string;
    let userId: number;
    let other: { surveyId: number; locationId: string; userId: number };
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const send = (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>) =>
      ctx.app.inject({ method, url, headers, payload });
    const base = () => ({ name: 'Detractors', trigger: 'detractor', channels: ['email'], recipient_user_ids: [userId] });
    const create = (body: Record<string, unknown>) => send('POST', PATH, { ...base(), ...body });

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      clientId = (await get('/api/user')).json().data.user.current_client_id;
      const db = ctx.database.db;
      const [s] = await db.select().from(surveys).where(eq(surveys.clientId, clientId)).limit(1);
      const [l] = await db.select().from(locations).where(eq(locations.clientId, clientId)).limit(1);
      const [u] = await db.select().from(clientUsers).where(eq(clientUsers.clientId, clientId)).limit(1);
      const [os] = await db.select().from(surveys).where(ne(surveys.clientId, clientId)).limit(1);
      const [ol] = await db.select().from(locations).where(ne(locations.clientId, clientId)).limit(1);
      const [ou] = await db.select().from(clientUsers).where(ne(clientUsers.clientId, clientId)).limit(1);
      if (!s || !l || !u || !os || !ol || !ou) throw new Error('demo data lacks surveys, locations or users');
      surveyId = s.id;
      locationId = l.id;
      userId = u.userId;
      other = { surveyId: os.id, locationId: ol.id, userId: ou.userId };
    });
    afterAll(() => ctx.close());

    it('gives every demo client its users with phones and two or three rules, some of them undeliverable for real reasons', async () => {
      const db = ctx.database.db;
      const seeded = await db.select().from(surveyAlertRules).where(ne(surveyAlertRules.name, ''));
      const allClients = await db.select({ id: clients.id }).from(clients);
      const recipients = await db.select().from(surveyAlertRecipients);
      const members = await db
        .select({ clientId: clientUsers.clientId, userId: clientUsers.userId, role: clientUsers.role, phone: users.phone })
        .from(clientUsers)
        .innerJoin(users, eq(users.id, clientUsers.userId));
      const fiveDaysAgo = Date.now() - 4 * 86_400_000;
      for (const { id } of allClients) {
        const own = seeded.filter((r) => r.clientId === id && r.createdAt.getTime() < fiveDaysAgo);
        expect({ id, rules: own.length >= 2 && own.length <= 3 }).toEqual({ id, rules: true });
        const detractor = own.find((r) => r.trigger === 'detractor');
        const listed = recipients.filter((r) => r.ruleId === detractor?.id).map((r) => r.userId);
        expect(listed).toContain(1000);
        const owner = members.find((m) => m.clientId === id && m.role === 'owner');
        expect(listed).toContain(owner?.userId);
        const keyword = own.find((r) => r.trigger === 'keyword');
        expect(keyword).toMatchObject({ keywords: ['rude', 'dirty', 'wait'], channels: ['sms'] });
        const manager = recipients.find((r) => r.ruleId === keyword?.id);
        expect(members.find((m) => m.userId === manager?.userId)?.role).toBe('manager');
        expect(members.filter((m) => m.clientId === id).every((m) => m.phone !== null && /^\+[1-9]\d{6,14}$/.test(m.phone))).toBe(true);
      }
      expect(seeded.filter((r) => r.frequency === 'daily_digest' && r.digestHour === 8).length).toBeGreaterThanOrEqual(1);
      const suppressed = new Set((await db.select().from(emailSuppressions)).map((e) => e.email));
      const onlySuppressed = seeded.find(
        (r) => r.extraEmails.length === 1 && suppressed.has(r.extraEmails[0] ?? '') && !recipients.some((x) => x.ruleId === r.id),
      );
      expect(onlySuppressed).toBeDefined();
      const optedOut = new Set((await db.select().from(smsOptOuts)).map((o) => o.phone));
      const smsRuleUsers = recipients
        .filter((r) => seeded.some((s) => s.id === r.ruleId && s.channels.includes('sms')))
        .map((r) => r.userId);
      expect(members.some((m) => smsRuleUsers.includes(m.userId) && m.phone !== null && optedOut.has(m.phone))).toBe(true);
    });

    it('creates a rule of the current client with every field, answers names, and audits it', async () => {
      const res = await create({
        name: 'Low scores downtown',
        survey_ids: [surveyId],
        location_ids: [locationId],
        trigger: 'score_between',
        score_min: 2,
        score_max: 5,
        channels: ['email', 'sms'],
        recipient_user_ids: [userId, 1000],
        extra_emails: ['Boss@Example.com'],
        extra_phones: ['+13035550142'],
        notify_location_manager: true,
        frequency: 'daily_digest',
        digest_hour: 8,
        escalate_after_hours: 24,
        escalation_emails: ['gm@example.com'],
      });
      expect(res.statusCode).toBe(201);
      const rule = res.json().data;
      expect(rule).toMatchObject({
        client_id: clientId,
        survey_ids: [surveyId],
        location_ids: [locationId],
        trigger: 'score_between',
        score_min: 2,
        score_max: 5,
        extra_emails: ['boss@example.com'],
        digest_hour: 8,
        status: 'active',
        fired_30d: 0,
        unsent_30d: 0,
        last_fired_at: null,
      });
      expect(rule.survey_names).toHaveLength(1);
      expect(rule.recipients.map((r: { id: number }) => r.id).sort()).toEqual([1000, userId].sort());
      expect(rule.recipients.find((r: { id: number }) => r.id === 1000).name).toBe('Default for New User');
      const [log] = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'survey_alert_rule.create'), eq(systemLogs.entityId, String(rule.id))));
      expect(log?.clientId).toBe(clientId);
      const again = await get(`${PATH}/${rule.id}`);
      expect(again.json().data.recipient_user_ids).toContain(1000);
    });

    it('requires what each trigger reads, naming the field as the form labels it', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ trigger: 'score_at_or_below' }, 'score_max', 'The Highest score field is required'],
        [{ trigger: 'score_between', score_max: 5 }, 'score_min', 'The Lowest score field is required'],
        [
          { trigger: 'score_between', score_min: 6, score_max: 3 },
          'score_max',
          'The Highest score field must be 6 or more (the Lowest score)',
        ],
        [{ trigger: 'keyword' }, 'keywords', 'The Keywords field is required'],
        [{ trigger: 'no_response_days' }, 'no_response_days', 'The Days without response field is required'],
        [{ frequency: 'daily_digest' }, 'digest_hour', 'The Digest hour field is required'],
        [{ escalate_after_hours: 4 }, 'escalation_emails', 'The Escalation emails field is required when escalation is set'],
      ];
      for (const [body, field, message] of cases) {
        const res = await create(body);
        expect({ body, status: res.statusCode }).toEqual({ body, status: 422 });
        expect({ body, errors: res.json().errors[field] }).toEqual({ body, errors: [message] });
      }
      const ok = await create({ trigger: 'keyword', keywords: ['rude', ' dirty ', 'rude'] });
      expect(ok.statusCode).toBe(201);
      expect(ok.json().data.keywords).toEqual(['rude', 'dirty']);
    });

    it('refuses limits: long lists, digest hour 24, escalation 0, bad channels, e-mails and phones', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ trigger: 'keyword', keywords: Array.from({ length: 51 }, (_, i) => `w${i}`) }, 'keywords'],
        [{ trigger: 'keyword', keywords: ['x'.repeat(51)] }, 'keywords'],
        [{ extra_emails: Array.from({ length: 11 }, (_, i) => `p${i}@example.com`) }, 'extra_emails'],
        [{ extra_emails: ['not-an-email'] }, 'extra_emails'],
        [{ extra_phones: Array.from({ length: 6 }, (_, i) => `+1303555010${i}`) }, 'extra_phones'],
        [{ extra_phones: ['555-0100'] }, 'extra_phones'],
        [{ frequency: 'daily_digest', digest_hour: 24 }, 'digest_hour'],
        [{ escalate_after_hours: 0, escalation_emails: ['a@example.com'] }, 'escalate_after_hours'],
        [{ escalate_after_hours: 169, escalation_emails: ['a@example.com'] }, 'escalate_after_hours'],
        [{ no_response_days: 91, trigger: 'no_response_days' }, 'no_response_days'],
        [{ channels: [] }, 'channels'],
        [{ channels: ['fax'] }, 'channels'],
        [{ trigger: 'sometimes' }, 'trigger'],
        [{ name: '' }, 'name'],
        [{ name: 'x'.repeat(121) }, 'name'],
        [{ trigger: 'score_at_or_below', score_max: 11 }, 'score_max'],
      ];
      for (const [body, field] of cases) {
        const res = await create(body);
        expect({ body, status: res.statusCode }).toEqual({ body, status: 422 });
        expect({ body, named: Object.keys(res.json().errors ?? {}) }).toEqual({ body, named: expect.arrayContaining([field]) });
      }
      const named = await create({ frequency: 'daily_digest', digest_hour: 24 });
      expect(named.json().errors.digest_hour).toEqual(['The Digest hour field must be between 0 and 23']);
    });

    it('needs at least one recipient, and any one of the five will do', async () => {
      const none = await create({ recipient_user_ids: [] });
      expect(none.statusCode).toBe(422);
      expect(none.json().message).toBe('Please correct: Recipient users.');
      expect(none.json().errors.recipient_user_ids[0]).toMatch(/needs at least one recipient/);
      for (const one of [
        { extra_emails: ['a@example.com'] },
        { extra_phones: ['+13035550142'] },
        { notify_assigned_personnel: true },
        { notify_location_manager: true },
        { recipient_user_ids: [1000] },
      ]) {
        const res = await create({ ...one, recipient_user_ids: 'recipient_user_ids' in one ? one.recipient_user_ids : [] });
        expect({ one, status: res.statusCode }).toEqual({ one, status: 201 });
      }
      // An edit that takes the last recipient away is refused too.
      const rule = (await create({})).json().data;
      const edit = await send('PATCH', `${PATH}/${rule.id}`, { recipient_user_ids: [], updated_at: rule.updated_at });
      expect(edit.statusCode).toBe(422);
      expect(Object.keys(edit.json().errors)).toEqual(['recipient_user_ids']);
    });

    it("refuses another client's surveys, locations and users, naming each field", async () => {
      const res = await create({
        survey_ids: [other.surveyId],
        location_ids: [other.locationId],
        recipient_user_ids: [other.userId],
      });
      expect(res.statusCode).toBe(422);
      const { errors } = res.json();
      expect(errors.survey_ids[0]).toContain('The Surveys field names surveys that are not this client');
      expect(errors.location_ids[0]).toContain('The Locations field names locations that are not this client');
      expect(errors.recipient_user_ids[0]).toContain('The Recipient users field names people who are not active users');
      const rule = (await create({})).json().data;
      const edit = await send('PATCH', `${PATH}/${rule.id}`, { survey_ids: [other.surveyId], updated_at: rule.updated_at });
      expect(edit.statusCode).toBe(422);
      expect(Object.keys(edit.json().errors)).toEqual(['survey_ids']);
    });

    it('lists the current client only, filters, and reads its alert counts from the events (tests left out)', async () => {
      const rule = (await create({ name: 'Counted rule', recipient_user_ids: [1000] })).json().data;
      const db = ctx.database.db;
      const old = new Date(Date.now() - 40 * 86_400_000);
      const rows = [
        { state: 'sent', createdAt: old, test: false, recipient: 'a@example.com' },
        { state: 'sent', createdAt: new Date(), test: false, recipient: 'b@example.com' },
        { state: 'unsent', createdAt: new Date(), test: false, recipient: 'c@example.com' },
        { state: 'unsent', createdAt: new Date(Date.now() + 1000), test: true, recipient: 'd@example.com' },
      ];
      await db.insert(surveyAlertEvents).values(rows.map((r) => ({ ...r, ruleId: rule.id, clientId, channel: 'email' })));
      const list = (await get(`${PATH}?q=Counted`)).json();
      expect(list.data).toHaveLength(1);
      expect(list.data[0]).toMatchObject({ fired_30d: 2, unsent_30d: 1 });
      expect(list.data[0].last_fired_at).not.toBeNull();
      expect(new Date(list.data[0].last_fired_at).getTime()).toBeLessThan(Date.now() + 500);
      const all = (await get(`${PATH}?perPage=200`)).json().data as { client_id: number }[];
      expect(all.every((r) => r.client_id === clientId)).toBe(true);
      const byRecipient = (await get(`${PATH}?recipient=1000&perPage=200`)).json().data as { recipient_user_ids: number[] }[];
      expect(byRecipient.length).toBeGreaterThan(0);
      expect(byRecipient.every((r) => r.recipient_user_ids.includes(1000))).toBe(true);
      const byTrigger = (await get(`${PATH}?trigger=keyword&perPage=200`)).json().data as { trigger: string }[];
      expect(byTrigger.length).toBeGreaterThan(0);
      expect(byTrigger.every((r) => r.trigger === 'keyword')).toBe(true);
      const bySurvey = (await get(`${PATH}?survey=${other.surveyId}&perPage=200`)).json().data as { survey_ids: number[] }[];
      expect(bySurvey.every((r) => r.survey_ids.length === 0)).toBe(true);
      const csv = await get(`${PATH}/export?q=Counted`);
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toContain('Rule name');
      expect(csv.body).toContain('Detractor (NPS 0–6)');
      expect(csv.body).toContain('Selected All');
    });

    it('duplicates a rule for the same client with its recipients, pauses and archives it', async () => {
      const rule = (await create({ name: 'To copy', recipient_user_ids: [userId, 1000] })).json().data;
      const copy = await send('POST', `${PATH}/${rule.id}/duplicate`, {});
      expect(copy.statusCode).toBe(201);
      expect(copy.json().data).toMatchObject({ name: 'To copy (copy)', client_id: clientId, status: 'active' });
      expect(copy.json().data.recipient_user_ids.sort()).toEqual([1000, userId].sort());
      const paused = await send('PATCH', `${PATH}/${rule.id}/status`, { status: 'paused', updated_at: rule.updated_at });
      expect(paused.json().data.status).toBe('paused');
      const archived = await send('PATCH', `${PATH}/${rule.id}/status`, { status: 'inactive', updated_at: paused.json().data.updated_at });
      expect(archived.json().data.status).toBe('inactive');
      const [row] = await ctx.database.db.select().from(surveyAlertRules).where(eq(surveyAlertRules.id, rule.id));
      expect(row?.status).toBe('inactive');
      const stale = await send('PATCH', `${PATH}/${rule.id}`, { name: 'Late', updated_at: rule.updated_at });
      expect(stale.statusCode).toBe(409);
    });

    it('offers the client users with Default for New User first, and only the client surveys', async () => {
      const users = (await get(`${PATH}/user-options`)).json().data as { value: string; label: string }[];
      expect(users[0]).toEqual({ value: '1000', label: 'Default for New User' });
      expect(users.some((u) => u.value === String(userId))).toBe(true);
      expect(users.some((u) => u.value === String(other.userId))).toBe(false);
      const options = (await get(`${PATH}/survey-options`)).json().data as { value: string }[];
      expect(options.some((o) => o.value === String(surveyId))).toBe(true);
      expect(options.some((o) => o.value === String(other.surveyId))).toBe(false);
    });
  });
}
