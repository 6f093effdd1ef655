import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { emailOptOuts, notificationLogs, surveyProcessingItems } from '../src/db/schema/index.ts';
import { testDatabaseKinds } from './helpers.ts';
import { surveysBed } from './surveys-bed.ts';

/** A survey's test invitation, its preview and the sender they use. */
for (const kind of testDatabaseKinds()) {
  describe(`Surveys API: test sends and previews (${kind})`, () => {
    const bed = surveysBed(kind);
    const { get, send, create } = bed;

    it('sends a test invitation through the outbox: a processing item with its token and the link in the message', async () => {
      const survey = (await create({ name: 'Send test' })).json().data;
      const res = await send('POST', `/api/surveys/${survey.id}/send-test`, { to: 'pat@example.com' });
      expect(res.statusCode).toBe(201);
      const result = res.json().data;
      expect(result).toMatchObject({ channel: 'email', status: 'sent', notification_status: 'sent', error: null });
      const token = result.link.split('/s/')[1];
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const [item] = await bed.ctx.database.db.select().from(surveyProcessingItems).where(eq(surveyProcessingItems.id, result.item_id));
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

      const [log] = await bed.ctx.database.db.select().from(notificationLogs).where(eq(notificationLogs.id, result.notification_id));
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

      await bed.ctx.database.db.insert(emailOptOuts).values({ email: 'gone@example.com', clientId: null, source: 'unsubscribe' });
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
      const [log] = await bed.ctx.database.db.select().from(notificationLogs).where(eq(notificationLogs.id, res.notification_id));
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
      const db = bed.ctx.database.db;
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

    it('stores blank reply-to and over-survey days as null and sends with the client’s Survey Admin reply-to unless the survey sets its own', async () => {
      const saved = await send('PATCH', `/api/surveys-admin/${bed.currentClient}`, {
        updated_at: (await get(`/api/surveys-admin/${bed.currentClient}`)).json().data.updated_at,
        from_name: 'Front desk',
        from_email: 'surveys@example.com',
        reply_to: 'desk@example.com',
        over_survey_days: 45,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const spy = vi.spyOn(bed.ctx.app.messenger, 'send');
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
        await send('POST', `/api/surveys-admin/${bed.currentClient}/reset`, { updated_at: saved.json().data.updated_at });
      }
    });
  });
}
