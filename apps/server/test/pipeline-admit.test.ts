import type { ProcessingItemStatus } from '@admin/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import {
  clientSurveySettings,
  clients,
  dataFeeds,
  emailOptOuts,
  emailSuppressions,
  locations,
  smsOptOuts,
  surveyProcessingItems,
  surveyResponses,
  surveys,
} from '../src/db/schema/index.ts';
import { admitRows } from '../src/pipeline/admit.ts';
import type { AdmitContext, NormalRow } from '../src/pipeline/types.ts';
import { openTestDatabase, testDatabaseKinds } from './helpers.ts';

/** Monday 2 March 2026, 09:00 in Chicago (CST, UTC−6). */
const NOW = new Date('2026-03-02T15:00:00Z');
const DAY = 86_400_000;

for (const kind of testDatabaseKinds()) {
  describe(`admitRows: the rules in order (${kind})`, () => {
    let database: Database;
    let clientId: number;
    let otherClientId: number;
    let emailSurvey: number;
    let smsSurvey: number;
    let fallbackSurvey: number;
    let pausedSurvey: number;
    let activeFeed: number;
    let pausedFeed: number;
    let n = 0;

    const location = (id: string, client: number, status = 'active') => ({
      id,
      clientId: client,
      locationname: id,
      address1: '1 Main St',
      city: 'Chicago',
      state: 'IL',
      postalCode: '60601',
      phone: '+13125550100',
      timezone: 'America/Chicago',
      status,
    });
    const survey = (name: string, channel: string, status = 'active') => ({
      clientId,
      name,
      type: 'nps',
      language: 'en',
      channel,
      senderName: 'Acme',
      sendDelayHours: 0,
      linkExpiresDays: 30,
      status,
    });

    beforeAll(async () => {
      database = await openTestDatabase(kind);
      const db = database.db;
      const [c, o] = await db
        .insert(clients)
        .values([
          { name: 'Admit Co', timezone: 'America/Chicago' },
          { name: 'Other Co', timezone: 'America/Chicago' },
        ])
        .returning({ id: clients.id });
      clientId = c?.id ?? 0;
      otherClientId = o?.id ?? 0;
      await db.insert(clientSurveySettings).values({
        clientId,
        fromName: 'Acme',
        fromEmail: 'hello@acme.test',
        quietHoursStart: '21:00',
        quietHoursEnd: '08:00',
        sendDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
        dailyCapPerLocation: 2,
        overSurveyDays: 90,
      });
      await db
        .insert(locations)
        .values([
          location('L-OPEN', clientId),
          location('L-PAUSED', clientId, 'paused'),
          location('L-CAP', clientId),
          location('L-AHEAD', clientId),
          location('L-OTHER', otherClientId),
        ]);
      const made = await db
        .insert(surveys)
        .values([survey('Email', 'email'), survey('SMS', 'sms'), survey('Fallback', 'email_then_sms'), survey('Paused', 'email', 'paused')])
        .returning({ id: surveys.id });
      [emailSurvey, smsSurvey, fallbackSurvey, pausedSurvey] = made.map((s) => s.id) as [number, number, number, number];
      const feeds = await db
        .insert(dataFeeds)
        .values([
          { clientId, name: 'Feed', sourceType: 'csv_upload', triggerEvent: 'invoice_paid', surveyId: emailSurvey },
          {
            clientId,
            name: 'Paused feed',
            sourceType: 'csv_upload',
            triggerEvent: 'invoice_paid',
            surveyId: emailSurvey,
            status: 'paused',
          },
        ])
        .returning({ id: dataFeeds.id });
      [activeFeed, pausedFeed] = feeds.map((f) => f.id) as [number, number];

      // What the database already holds: a transaction received, contacts sent or answering lately or long ago, opt-outs.
      const past = (email: string, transactionId: string | null, sentDaysAgo: number) => ({
        clientId,
        locationId: 'L-OPEN',
        surveyId: emailSurvey,
        firstName: 'Past',
        email,
        transactionId,
        channel: 'email' as const,
        status: 'sent' as const,
        sentAt: new Date(NOW.getTime() - sentDaysAgo * DAY),
        token: `past-${email}`,
        expiresAt: new Date(NOW.getTime() + DAY),
        source: 'csv_upload' as const,
      });
      const items = await db
        .insert(surveyProcessingItems)
        .values([
          past('old-tx@x.test', 'T-OLD', 400),
          past('recent@x.test', null, 10),
          past('long-ago@x.test', null, 100),
          past('answered@x.test', null, 200),
          // A staff member's Send test, answered: a test, not a survey of this contact.
          { ...past('tested@x.test', null, 10), source: 'manual_test' as const },
        ])
        .returning({ id: surveyProcessingItems.id, email: surveyProcessingItems.email });
      const answer = (email: string, test: boolean) => ({
        processingItemId: items.find((i) => i.email === email)?.id ?? 0,
        surveyId: emailSurvey,
        clientId,
        answers: {},
        questions: [],
        test,
        submittedAt: new Date(NOW.getTime() - 5 * DAY),
      });
      await db.insert(surveyResponses).values([answer('answered@x.test', false), answer('tested@x.test', true)]);
      await db.insert(emailOptOuts).values([
        { email: 'out@x.test', clientId, source: 'unsubscribe' },
        { email: 'out-elsewhere@x.test', clientId: otherClientId, source: 'unsubscribe' },
      ]);
      await db.insert(smsOptOuts).values({ phone: '+13125550199', clientId: null, keyword: 'STOP', source: 'sms' });
      await db.insert(emailSuppressions).values({ email: 'bounced@x.test', reason: 'BOUNCE' });
    });
    afterAll(async () => database?.close());

    const row = (overrides: Partial<NormalRow> = {}): NormalRow => {
      n++;
      return {
        rowNumber: n,
        firstName: 'Pat',
        lastName: 'Lee',
        email: `pat${n}@x.test`,
        phone: null,
        transactionId: `T-${n}`,
        transactionDate: '2026-03-01',
        locationId: 'L-OPEN',
        personnelId: null,
        productId: null,
        referralSourceId: null,
        amount: '12.50',
        smsOptIn: false,
        raw: { first_name: 'Pat' },
        ...overrides,
      };
    };
    const ctxOf = (overrides: Partial<AdmitContext> = {}): AdmitContext => ({
      clientId,
      surveyId: emailSurvey,
      dataFeedId: activeFeed,
      runId: null,
      source: 'csv_upload',
      ...overrides,
    });

    type Case = {
      rule: string;
      row?: Partial<NormalRow>;
      ctx?: () => Partial<AdmitContext>;
      status: ProcessingItemStatus;
      channel?: string;
    };
    const cases: Case[] = [
      // Each location takes 2 a day (the cap): these rows spill over the following days, the cap tests use their own locations.
      { rule: '1 location paused', row: { locationId: 'L-PAUSED' }, status: 'skipped_paused' },
      { rule: '1 location of another client', row: { locationId: 'L-OTHER' }, status: 'skipped_paused' },
      { rule: '1 survey paused', ctx: () => ({ surveyId: pausedSurvey }), status: 'skipped_paused' },
      { rule: '1 feed paused', ctx: () => ({ dataFeedId: pausedFeed }), status: 'skipped_paused' },
      { rule: '2 transaction already received', row: { transactionId: 'T-OLD' }, status: 'skipped_duplicate' },
      { rule: '3 sent 10 days ago (within 90)', row: { email: 'recent@x.test' }, status: 'skipped_over_survey' },
      { rule: '3 answered 5 days ago', row: { email: 'answered@x.test' }, status: 'skipped_over_survey' },
      {
        rule: '3 a test sent and answered lately: not over-surveyed',
        row: { email: 'tested@x.test' },
        status: 'scheduled',
        channel: 'email',
      },
      { rule: '3 sent 100 days ago: not over-surveyed', row: { email: 'long-ago@x.test' }, status: 'scheduled', channel: 'email' },
      { rule: '4 e-mail opted out of this client', row: { email: 'out@x.test' }, status: 'skipped_opt_out' },
      { rule: '4 opted out of another client only', row: { email: 'out-elsewhere@x.test' }, status: 'scheduled', channel: 'email' },
      { rule: '4 e-mail suppressed', row: { email: 'bounced@x.test' }, status: 'skipped_suppressed' },
      {
        rule: '4 phone opted out (STOP)',
        row: { phone: '+13125550199', smsOptIn: true },
        ctx: () => ({ surveyId: smsSurvey }),
        status: 'skipped_opt_out',
      },
      { rule: '5 no e-mail for an e-mail survey', row: { email: null, phone: '+13125550123', smsOptIn: true }, status: 'invalid_contact' },
      {
        rule: '5 SMS without opt-in',
        row: { phone: '+13125550124', smsOptIn: false },
        ctx: () => ({ surveyId: smsSurvey }),
        status: 'invalid_contact',
      },
      {
        rule: '6 SMS with opt-in',
        row: { phone: '+13125550125', smsOptIn: true },
        ctx: () => ({ surveyId: smsSurvey }),
        status: 'scheduled',
        channel: 'sms',
      },
      {
        rule: '6 fallback: e-mail opted out, SMS opted in',
        row: { email: 'out@x.test', phone: '+13125550126', smsOptIn: true },
        ctx: () => ({ surveyId: fallbackSurvey }),
        status: 'scheduled',
        channel: 'sms',
      },
      {
        rule: '6 fallback: e-mail first',
        row: { phone: '+13125550127', smsOptIn: true },
        ctx: () => ({ surveyId: fallbackSurvey }),
        status: 'scheduled',
        channel: 'email',
      },
    ];

    for (const c of cases) {
      it(`rule ${c.rule} → ${c.status}`, async () => {
        const [outcome] = await admitRows(database.db, ctxOf(c.ctx?.()), [row(c.row)], NOW);
        expect(outcome?.status).toBe(c.status);
        expect(outcome?.reason === null).toBe(c.status === 'scheduled');
        const [item] = await database.db
          .select()
          .from(surveyProcessingItems)
          .where(eq(surveyProcessingItems.id, outcome?.itemId ?? 0));
        expect(item).toMatchObject({ status: c.status, skipReason: outcome?.reason, clientId, source: 'csv_upload' });
        if (c.channel) expect(item?.channel).toBe(c.channel);
        expect(item?.token.length).toBeGreaterThanOrEqual(43);
      });
    }

    it('the first rule that matches wins: a paused location with a duplicate transaction is skipped_paused', async () => {
      const [outcome] = await admitRows(
        database.db,
        ctxOf(),
        [row({ locationId: 'L-PAUSED', transactionId: 'T-OLD', email: 'out@x.test' })],
        NOW,
      );
      expect(outcome?.status).toBe('skipped_paused');
    });

    it('within one batch: a repeated transaction is a duplicate and a repeated contact over-surveyed', async () => {
      const first = row({ transactionId: 'T-BATCH', email: 'batch@x.test' });
      const again = row({ transactionId: 'T-BATCH', email: 'batch2@x.test' });
      const sameContact = row({ email: 'batch@x.test' });
      const outcomes = await admitRows(database.db, ctxOf(), [first, again, sameContact], NOW);
      expect(outcomes.map((o) => o.status)).toEqual(['scheduled', 'skipped_duplicate', 'skipped_over_survey']);
      expect(outcomes.map((o) => o.rowNumber)).toEqual([first.rowNumber, again.rowNumber, sameContact.rowNumber]);
    });

    it('schedules at once in the send window, then past the daily cap on the next send day', async () => {
      const outcomes = await admitRows(
        database.db,
        ctxOf(),
        [row({ locationId: 'L-CAP' }), row({ locationId: 'L-CAP' }), row({ locationId: 'L-CAP' })],
        NOW,
      );
      expect(outcomes.map((o) => o.scheduledAt?.toISOString())).toEqual([
        NOW.toISOString(),
        NOW.toISOString(),
        // Cap 2 reached on Monday: Tuesday at the end of the quiet hours, 08:00 CST.
        '2026-03-03T14:00:00.000Z',
      ]);
      // The next batch counts what the database already holds for that day.
      const [later] = await admitRows(database.db, ctxOf(), [row({ locationId: 'L-CAP' })], NOW);
      expect(later?.scheduledAt?.toISOString()).toBe('2026-03-03T14:00:00.000Z');
      const [item] = await database.db
        .select({ expiresAt: surveyProcessingItems.expiresAt })
        .from(surveyProcessingItems)
        .where(eq(surveyProcessingItems.id, later?.itemId ?? 0));
      expect(item?.expiresAt.toISOString()).toBe(new Date(Date.parse('2026-03-03T14:00:00Z') + 30 * DAY).toISOString());
    });

    it('a transaction dated ahead waits for its day', async () => {
      const [outcome] = await admitRows(database.db, ctxOf(), [row({ transactionDate: '2026-03-04', locationId: 'L-AHEAD' })], NOW);
      // Wednesday 00:00 CST is quiet: 08:00.
      expect(outcome?.scheduledAt?.toISOString()).toBe('2026-03-04T14:00:00.000Z');
    });
  });
}
