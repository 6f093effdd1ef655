import { randomBytes } from 'node:crypto';
import { parseCsv } from '@admin/shared';
import type { ProcessingItem, ProcessingItemDetail } from '@admin/shared/resources/survey-processing';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clients,
  emailOptOuts,
  emailSuppressions,
  locations,
  notificationLogs,
  smsOptOuts,
  smsTemplates,
  surveyProcessingItems,
  surveys,
  systemLogs,
} from '../src/db/schema/index.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { backoffMs } from '../src/pipeline/queue.ts';
import { createSendEngine, MAX_SEND_ATTEMPTS } from '../src/pipeline/send.ts';
import { bearer, failingMessenger, login, startTestApp, type TestContext, testDatabaseKinds } from './helpers.ts';

type Page = { data: ProcessingItem[]; total: number; nextCursor: string | null };
const PATH = '/api/survey-processing';

for (const kind of testDatabaseKinds()) {
  describe(`Survey Processing API (${kind})`, () => {
    let ctx: TestContext;
    let headers: Record<string, string>;
    let surveyId: number;
    let clientId: number;
    let locationId: string | null;
    /** A tag in this run's transaction ids, so the searches find only this file's rows. */
    const tag = randomBytes(4).toString('hex');
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers });
    const post = (url: string, payload?: object) => ctx.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
    const newItem = async (fields: Partial<typeof surveyProcessingItems.$inferInsert> = {}) => {
      const [item] = await ctx.database.db
        .insert(surveyProcessingItems)
        .values({
          clientId,
          locationId,
          surveyId,
          firstName: 'Dana',
          lastName: 'Reyes',
          email: 'dana.reyes@example.com',
          phone: '+13035550142',
          transactionId: `${tag}-${randomBytes(3).toString('hex')}`,
          transactionDate: '2026-11-20',
          channel: 'email',
          status: 'scheduled',
          scheduledAt: new Date(Date.now() + 3_600_000),
          token: randomBytes(32).toString('base64url'),
          expiresAt: new Date(Date.now() + 30 * 86_400_000),
          source: 'csv_upload',
          raw: { 'First Name': 'Dana', Email: 'DANA.REYES@example.com' },
          ...fields,
        })
        .returning();
      if (!item) throw new Error('no item');
      return item;
    };
    const page = async (query: string) => {
      const res = await get(`${PATH}${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Page;
    };
    const detail = async (id: number) => (await get(`${PATH}/${id}`)).json().data as ProcessingItemDetail;

    beforeAll(async () => {
      ctx = await startTestApp(kind);
      headers = bearer(await login(ctx.app, 'admin@example.com'));
      const db = ctx.database.db;
      const [client] = await db.select({ id: clients.id }).from(clients).orderBy(clients.id).limit(1);
      clientId = client?.id ?? 0;
      const [location] = await db.select({ id: locations.id }).from(locations).where(eq(locations.clientId, clientId)).limit(1);
      locationId = location?.id ?? null;
      const [template] = await db
        .insert(smsTemplates)
        .values({
          clientId,
          name: `Invite ${tag}`,
          purpose: 'survey_invite',
          language: 'en',
          body: 'Hi {first_name}, rate us: {link} STOP to opt out',
          encoding: 'GSM-7',
          segments: 1,
          hasOptOut: true,
        })
        .returning({ id: smsTemplates.id });
      const [survey] = await db
        .insert(surveys)
        .values({
          clientId,
          smsTemplateId: template?.id ?? null,
          name: `Processing ${tag}`,
          type: 'nps',
          language: 'en',
          channel: 'email',
          senderName: 'Acme',
          emailSubject: 'How was {location_name}?',
          emailBody: 'Hi {first_name}: {survey_link}\nUnsubscribe: {unsubscribe_link}',
        })
        .returning({ id: surveys.id });
      surveyId = survey?.id ?? 0;
    });
    afterAll(() => ctx.close());

    it('lists invitations newest first with masked contacts, filtered, searched and paged', async () => {
      const a = await newItem({ status: 'failed', lastError: 'SMTP 451' });
      const b = await newItem({ status: 'skipped_duplicate', skipReason: 'Transaction already received' });
      const c = await newItem({ email: 'zed@example.com', firstName: 'Zed' });
      const mine = await page(`?survey=${surveyId}`);
      expect(mine.data.map((r) => r.id).slice(0, 3)).toEqual([c.id, b.id, a.id]);
      const first = mine.data.find((r) => r.id === a.id);
      expect(first).toMatchObject({ email: 'd***@example.com', phone: '+1 ***-***-0142', item_status: 'failed', reason: 'SMTP 451' });
      expect(first?.customer).toBe('Dana Reyes');
      // Status (multi) with client, and the search over the full address, the name and the transaction id.
      expect((await page(`?survey=${surveyId}&client=${clientId}&status=failed,skipped_duplicate`)).data.map((r) => r.id)).toEqual([
        b.id,
        a.id,
      ]);
      expect((await page(`?survey=${surveyId}&q=zed@example`)).data.map((r) => r.id)).toEqual([c.id]);
      expect((await page(`?q=${a.transactionId}`)).data.map((r) => r.id)).toEqual([a.id]);
      expect((await page(`?survey=${surveyId}&q=dana%20reyes`)).data.length).toBeGreaterThanOrEqual(2);
      expect((await page(`?survey=${surveyId}&channel=sms`)).data).toEqual([]);
      expect((await page(`?survey=${surveyId}&date_on=sent&startDate=2020-01-01`)).data).toEqual([]);
      // Keyset paging: two pages of two, no row twice.
      const p1 = await page(`?survey=${surveyId}&perPage=2`);
      expect(p1.nextCursor).not.toBeNull();
      const p2 = await page(`?survey=${surveyId}&perPage=2&cursor=${p1.nextCursor}`);
      expect([...p1.data, ...p2.data].map((r) => r.id)).toEqual(mine.data.map((r) => r.id).slice(0, 4));
      expect((await get(`${PATH}?cursor=nonsense`)).statusCode).toBe(400);
      expect((await get(`${PATH}?status=bogus`)).statusCode).toBe(400);
      // A Send test's invitation is listed, and left out (or alone) when Test sends says so.
      const t = await newItem({ source: 'manual_test', firstName: 'Tess' });
      expect((await page(`?survey=${surveyId}&test=no`)).data.map((r) => r.id)).toEqual([c.id, b.id, a.id]);
      expect((await page(`?survey=${surveyId}&test=yes`)).data.map((r) => r.id)).toEqual([t.id]);
      expect((await page(`?survey=${surveyId}`)).data.map((r) => r.id)[0]).toBe(t.id);
      expect((await get(`${PATH}?test=maybe`)).statusCode).toBe(400);
    });

    it('shows one invitation in full: the row as received, the mapping, the outcome and its messages', async () => {
      const item = await newItem({ status: 'sent', sentAt: new Date() });
      await ctx.database.db.insert(notificationLogs).values({
        clientId,
        channel: 'email',
        type: 'survey_invite',
        recipient: 'dana.reyes@example.com',
        subjectOrTemplate: 'How was it?',
        status: 'sent',
        relatedType: 'survey_processing_item',
        relatedId: String(item.id),
      });
      const d = await detail(item.id);
      expect(d).toMatchObject({
        email_full: 'dana.reyes@example.com',
        email: 'd***@example.com',
        raw: { 'First Name': 'Dana', Email: 'DANA.REYES@example.com' },
        item_status: 'sent',
      });
      expect(d.messages).toMatchObject([{ type: 'survey_invite', delivery_status: 'sent', recipient: 'd***@example.com' }]);
      expect((await get(`${PATH}/999999999`)).statusCode).toBe(404);
    });

    it('cancels with a note (required, at most 500) and refuses what was sent', async () => {
      const item = await newItem();
      const none = await post(`${PATH}/${item.id}/cancel`, { note: '  ' });
      expect(none.statusCode).toBe(400);
      expect(none.body).toContain('The Note field is required');
      expect((await post(`${PATH}/${item.id}/cancel`, { note: 'x'.repeat(501) })).body).toContain('500 characters');
      const ok = await post(`${PATH}/${item.id}/cancel`, { note: 'Customer asked not to be surveyed' });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data).toMatchObject({ item_status: 'skipped_manual', reason: 'Customer asked not to be surveyed' });
      const sent = await newItem({ status: 'sent' });
      expect((await post(`${PATH}/${sent.id}/cancel`, { note: 'late' })).statusCode).toBe(409);
      const [audit] = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'survey_processing.cancel'), eq(systemLogs.entityId, String(item.id))));
      expect(audit?.message).toContain('Customer asked not to be surveyed');
    });

    it('reschedules to a time after now only', async () => {
      const item = await newItem();
      const past = await post(`${PATH}/${item.id}/reschedule`, { scheduled_at: '2020-01-01T09:00:00Z' });
      expect(past.statusCode).toBe(422);
      expect(past.json().errors.scheduled_at).toEqual(['The Send at field must be a date after now']);
      expect((await post(`${PATH}/${item.id}/reschedule`, { scheduled_at: 'tomorrow' })).statusCode).toBe(400);
      const at = new Date(Date.now() + 2 * 86_400_000);
      at.setUTCMilliseconds(0);
      const ok = await post(`${PATH}/${item.id}/reschedule`, { scheduled_at: at.toISOString() });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data).toMatchObject({ item_status: 'scheduled', scheduled_at: at.toISOString() });
    });

    it('sends now through the send engine: the message is in the timeline; a sent one is refused', async () => {
      const item = await newItem({ email: `now.${tag}@example.com` });
      const res = await post(`${PATH}/${item.id}/send-now`);
      expect(res.statusCode, res.body).toBe(200);
      const sent = res.json().data as ProcessingItemDetail;
      expect(sent.item_status).toBe('sent');
      expect(sent.messages).toMatchObject([{ type: 'survey_invite', delivery_status: 'sent', recipient: 'n***@example.com' }]);
      expect((await post(`${PATH}/${item.id}/send-now`)).statusCode).toBe(409);
    });

    it('retries failed invitations, one (sent at once), chosen ones or a filter’s (scheduled now), and refuses the others', async () => {
      const one = await newItem({ status: 'failed', lastError: 'timeout', email: `retry.${tag}@example.com` });
      expect((await post(`${PATH}/${one.id}/retry`)).json().data.item_status).toBe('sent');
      expect((await post(`${PATH}/${one.id}/retry`)).statusCode).toBe(409);
      const [x, y] = [await newItem({ status: 'failed' }), await newItem({ status: 'failed' })];
      const sent = await newItem({ status: 'sent' });
      const chosen = await post(`${PATH}/retry`, { ids: [x.id, sent.id] });
      expect(chosen.json().data).toEqual({ changed: 1 });
      const byFilter = await post(`${PATH}/retry`, { filter: { survey: [String(surveyId)], status: ['failed'] } });
      expect(byFilter.json().data.changed).toBeGreaterThanOrEqual(1);
      expect((await detail(y.id)).item_status).toBe('scheduled');
      expect((await detail(sent.id)).item_status).toBe('sent');
      expect((await post(`${PATH}/retry`, {})).statusCode).toBe(422);
      expect((await post(`${PATH}/retry`, { filter: { status: ['bogus'] } })).statusCode).toBe(422);
    });

    it('retries failed invitations in bulk with their attempts started over: a failure then waits its back-off', async () => {
      const item = await newItem({
        status: 'failed',
        attempts: MAX_SEND_ATTEMPTS,
        lastError: 'timeout',
        email: `again.${tag}@example.com`,
      });
      const res = await post(`${PATH}/retry`, { ids: [item.id] });
      expect(res.json().data).toEqual({ changed: 1 });
      expect(await detail(item.id)).toMatchObject({ item_status: 'scheduled', attempts: 0 });
      // The send engine's next pass, through a transport that fails: the first of the attempts, retried later.
      const clock = movableClock(new Date(Date.now() + 1000));
      const messenger = failingMessenger(ctx.database.db, () => clock.now());
      await createSendEngine(ctx.database.db, messenger, clock, ctx.app.surveySettings).run(clock.now());
      const after = await detail(item.id);
      expect(after).toMatchObject({ item_status: 'scheduled', attempts: 1, last_error: '421 4.3.0 Temporary failure' });
      expect(after.scheduled_at).toBe(new Date(clock.now().getTime() + backoffMs(1)).toISOString());
    });

    it('fixes a contact with a phone alone only for a customer who opted in to SMS', async () => {
      const noOptIn = await newItem({ status: 'invalid_contact', email: null, phone: null, smsOptIn: false });
      const refused = await post(`${PATH}/${noOptIn.id}/fix-contact`, { phone: '+13035550199' });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual({ phone: ['The Phone can be texted only when the customer opted in to SMS'] });
      expect(await detail(noOptIn.id)).toMatchObject({ item_status: 'invalid_contact', phone_full: null, channel: 'email', messages: [] });
      const optedIn = await newItem({ status: 'invalid_contact', email: null, phone: null, smsOptIn: true });
      const ok = await post(`${PATH}/${optedIn.id}/fix-contact`, { phone: '+13035550199' });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data).toMatchObject({ channel: 'sms', phone_full: '+13035550199', item_status: 'sent' });
    });

    it('fixes a contact to an opted-out or suppressed one: the messenger refuses it and the invitation says why', async () => {
      const db = ctx.database.db;
      await db.insert(emailOptOuts).values({ email: `gone.${tag}@example.com`, clientId, source: 'unsubscribe_link' });
      await db.insert(emailSuppressions).values({ email: `bounced.${tag}@example.com`, reason: 'BOUNCE' });
      await db.insert(smsOptOuts).values({ phone: '+13035550777', clientId: null, keyword: 'STOP', source: 'inbound_sms' });
      const fix = async (body: object, fields: Partial<typeof surveyProcessingItems.$inferInsert> = {}) => {
        const item = await newItem({ status: 'invalid_contact', email: null, phone: null, ...fields });
        const res = await post(`${PATH}/${item.id}/fix-contact`, body);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data as ProcessingItemDetail;
      };
      const optedOut = await fix({ email: `gone.${tag}@example.com` });
      expect(optedOut).toMatchObject({ item_status: 'skipped_opt_out', skip_reason: 'The address opted out (unsubscribe_link)' });
      expect(optedOut.messages).toMatchObject([{ delivery_status: 'suppressed' }]);
      const suppressed = await fix({ email: `bounced.${tag}@example.com` });
      expect(suppressed).toMatchObject({
        item_status: 'skipped_suppressed',
        skip_reason: 'The address is on the suppression list (BOUNCE)',
      });
      const stopped = await fix({ phone: '+13035550777' }, { smsOptIn: true });
      expect(stopped).toMatchObject({ item_status: 'skipped_opt_out', channel: 'sms', skip_reason: 'The phone opted out (STOP)' });
    });

    it('fixes a contact (checked as the form checks it) and sends again', async () => {
      const item = await newItem({ status: 'invalid_contact', email: null, skipReason: 'No usable e-mail' });
      const bad = await post(`${PATH}/${item.id}/fix-contact`, { email: 'not-an-address' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('The Email field must be a valid email');
      expect((await post(`${PATH}/${item.id}/fix-contact`, { phone: '555' })).body).toContain('The Phone field');
      expect((await post(`${PATH}/${item.id}/fix-contact`, {})).statusCode).toBe(400);
      const ok = await post(`${PATH}/${item.id}/fix-contact`, { email: `Fixed.${tag}@Example.com` });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data).toMatchObject({
        email_full: `fixed.${tag}@example.com`,
        channel: 'email',
        item_status: 'sent',
        skip_reason: null,
      });
    });

    it('exports the filtered invitations as CSV with masked contacts', async () => {
      const res = await get(`${PATH}/export?survey=${surveyId}&columns=customer,status`);
      expect(res.statusCode).toBe(200);
      const rows = parseCsv(res.body.replace(/^\uFEFF/, ''));
      expect(rows[0]).toEqual(['Customer', 'Status']);
      expect(res.body).not.toContain('dana.reyes@example.com');
      expect(res.body).toContain('Dana Reyes · d***@example.com');
    });
  });
}
