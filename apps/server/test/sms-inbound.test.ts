import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import {
  clients,
  smsInboundMessages,
  smsOptOuts,
  smsTemplates,
  surveyProcessingItems,
  surveys,
  systemLogs,
} from '../src/db/schema/index.ts';
import { movableClock } from '../src/pipeline/clock.ts';
import { createSendEngine } from '../src/pipeline/send.ts';
import { openTestDatabase, testDatabaseKinds } from './helpers.ts';
import { type Form, postSigned, smsConfig, smsCounts } from './sms-callbacks-bed.ts';

// POST /api/v1/sms/inbound: once per MessageSid; STOP and its synonyms opt the phone out of every
// client, START/YES/UNSTOP opt it back in, HELP answers the HELP reply template as TwiML.

const INBOUND = '/api/v1/sms/inbound';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>';

for (const kind of testDatabaseKinds()) {
  describe(`SMS inbound messages (${kind})`, () => {
    // No demo data: the seed is slow on a busy machine and nothing here needs it.
    let ctx: { app: FastifyInstance; database: Database };
    const tag = randomBytes(3).toString('hex');
    let n = 0;
    const inbound = (from: string, body: string, sid = `SM${tag}${++n}`): Form => [
      ['MessageSid', sid],
      ['SmsSid', sid],
      ['AccountSid', 'AC0123'],
      ['From', from],
      ['To', '+15555550100'],
      ['Body', body],
      ['NumMedia', '0'],
      ['NumSegments', '1'],
    ];
    const optOutOf = async (phone: string) => (await ctx.database.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone)))[0];

    beforeAll(async () => {
      const database = await openTestDatabase(kind);
      const app = await buildApp(testConfig(smsConfig(testConfig())), { database });
      await app.ready();
      ctx = { app, database };
    });
    afterAll(async () => {
      await ctx?.app.close();
      await ctx?.database.close();
    });

    it('opts a phone out on STOP (global, keyword and source kept), logged, answered with empty TwiML; a repeat changes nothing', async () => {
      const phone = '+15555551001';
      const form = inbound(phone, '  stop ');
      const res = await postSigned(ctx.app, INBOUND, form);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/xml/);
      expect(res.body).toBe(`${XML_HEAD}<Response></Response>`);
      expect(await optOutOf(phone)).toMatchObject({ phone, clientId: null, keyword: 'STOP', source: 'inbound' });
      const [log] = await ctx.database.db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'sms.opt_out'), eq(systemLogs.entityId, phone)));
      expect(log).toMatchObject({ level: 'info', entityType: 'sms_opt_out' });
      expect(log?.message).toMatch(/opted out of every client's texts by replying STOP/);
      const [row] = await ctx.database.db.select().from(smsInboundMessages).where(eq(smsInboundMessages.fromPhone, phone));
      expect(row).toMatchObject({ body: '  stop ', action: 'opt_out', toPhone: '+15555550100' });
      const before = await smsCounts(ctx.app);
      const again = await postSigned(ctx.app, INBOUND, form);
      expect(again.statusCode).toBe(200);
      expect(await smsCounts(ctx.app)).toEqual(before);
    });

    it('after STOP the messenger refuses an SMS to the phone, and the send engine skips its invitation; START lets the next one go', async () => {
      const db = ctx.database.db;
      const phone = '+15555551002';
      await postSigned(ctx.app, INBOUND, inbound(phone, 'UNSUBSCRIBE'));
      const refused = await ctx.app.messenger.send({
        channel: 'sms',
        type: 'survey_invite',
        to: phone,
        template: 'Invite',
        text: 'Hi',
        clientId: null,
      });
      expect(refused).toMatchObject({ status: 'suppressed', error: 'The phone opted out (UNSUBSCRIBE)' });

      const [client] = await db
        .insert(clients)
        .values({ name: `STOP Test Co ${tag}` })
        .returning({ id: clients.id });
      const clientId = client?.id ?? 0;
      const [template] = await db
        .insert(smsTemplates)
        .values({
          clientId,
          name: `Invite ${tag}`,
          purpose: 'survey_invite',
          language: 'en',
          body: 'Rate us: {link} STOP to opt out',
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
          name: `SMS ${tag}`,
          type: 'nps',
          language: 'en',
          channel: 'sms',
          senderName: 'Acme',
        })
        .returning({ id: surveys.id });
      const clock = movableClock(new Date(Date.now() + 60_000));
      const item = async () => {
        const [row] = await db
          .insert(surveyProcessingItems)
          .values({
            clientId,
            surveyId: survey?.id ?? 0,
            firstName: 'Sam',
            lastName: 'Lee',
            email: null,
            phone,
            smsOptIn: true,
            transactionId: `${tag}-${randomBytes(3).toString('hex')}`,
            transactionDate: '2026-11-20',
            channel: 'sms',
            status: 'scheduled',
            scheduledAt: new Date(Date.now() - 1000),
            token: randomBytes(32).toString('base64url'),
            expiresAt: new Date(Date.now() + 30 * 86_400_000),
            source: 'csv_upload',
            raw: {},
          })
          .returning({ id: surveyProcessingItems.id });
        return row?.id ?? 0;
      };
      const statusOf = async (id: number) => (await db.select().from(surveyProcessingItems).where(eq(surveyProcessingItems.id, id)))[0];
      const skipped = await item();
      await createSendEngine(db, ctx.app.messenger, clock, ctx.app.surveySettings).run(clock.now());
      expect(await statusOf(skipped)).toMatchObject({ status: 'skipped_opt_out', skipReason: 'The phone opted out (UNSUBSCRIBE)' });

      const start = await postSigned(ctx.app, INBOUND, inbound(phone, 'Start'));
      expect(start.statusCode).toBe(200);
      expect(await optOutOf(phone)).toBeUndefined();
      const [log] = await db
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.action, 'sms.opt_in'), eq(systemLogs.entityId, phone)));
      expect(log?.message).toMatch(/opted back in by replying START/);
      const sent = await item();
      await createSendEngine(db, ctx.app.messenger, clock, ctx.app.surveySettings).run(clock.now());
      expect(await statusOf(sent)).toMatchObject({ status: 'sent' });
    });

    it('answers HELP with the global HELP reply template, XML-escaped; STOP with the STOP reply when there is one', async () => {
      const db = ctx.database.db;
      const none = await postSigned(ctx.app, INBOUND, inbound('+15555551003', 'help'));
      expect(none.body).toBe(`${XML_HEAD}<Response></Response>`);
      await db.insert(smsTemplates).values([
        {
          clientId: null,
          name: `Help ${tag}`,
          purpose: 'help_reply',
          language: 'en',
          body: 'Acme <Reviews> & co: help at acme.example. Msg&data rates may apply. Reply STOP to cancel.',
          encoding: 'GSM-7',
          segments: 1,
          hasOptOut: true,
        },
        {
          clientId: null,
          name: `Stop ${tag}`,
          purpose: 'stop_reply',
          language: 'en',
          body: 'You are unsubscribed. Reply START to resubscribe.',
          encoding: 'GSM-7',
          segments: 1,
          hasOptOut: false,
        },
      ]);
      const help = await postSigned(ctx.app, INBOUND, inbound('+15555551003', 'HELP'));
      expect(help.statusCode).toBe(200);
      expect(help.body).toBe(
        `${XML_HEAD}<Response><Message>Acme &#60;Reviews&#62; &#38; co: help at acme.example. Msg&#38;data rates may apply. Reply STOP to cancel.</Message></Response>`,
      );
      expect(await optOutOf('+15555551003')).toBeUndefined();
      const stop = await postSigned(ctx.app, INBOUND, inbound('+15555551004', 'quit'));
      expect(stop.body).toBe(`${XML_HEAD}<Response><Message>You are unsubscribed. Reply START to resubscribe.</Message></Response>`);
      expect(await optOutOf('+15555551004')).toMatchObject({ keyword: 'QUIT' });
    });

    it('records anything else with action none and changes no opt-out', async () => {
      const phone = '+15555551005';
      const before = await smsCounts(ctx.app);
      const res = await postSigned(ctx.app, INBOUND, inbound(phone, 'please stop texting me on Sundays'));
      expect(res.body).toBe(`${XML_HEAD}<Response></Response>`);
      expect(await smsCounts(ctx.app)).toEqual({ ...before, inbound: before.inbound + 1 });
      const [row] = await ctx.database.db.select().from(smsInboundMessages).where(eq(smsInboundMessages.fromPhone, phone));
      expect(row?.action).toBe('none');
    });

    it('refuses an inbound STOP with a changed From or no signature, and opts nobody out', async () => {
      const form = inbound('+15555551006', 'STOP');
      const before = await smsCounts(ctx.app);
      const changed = form.map(([k, v]): [string, string] => [k, k === 'From' ? '+15555551007' : v]);
      expect((await postSigned(ctx.app, INBOUND, form, { sentForm: changed })).statusCode).toBe(403);
      expect((await postSigned(ctx.app, INBOUND, form, { signature: null })).statusCode).toBe(403);
      expect(await smsCounts(ctx.app)).toEqual({ ...before, refusals: before.refusals + 2 });
      expect(await optOutOf('+15555551007')).toBeUndefined();
    });

    it('answers 400 naming From when it is missing', async () => {
      const res = await postSigned(ctx.app, INBOUND, [
        ['MessageSid', `SM${tag}nofrom`],
        ['Body', 'STOP'],
      ]);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual({ From: ['The From field is required'] });
    });
  });
}
