import type { ProcessingItemStatus } from '@admin/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { surveyProcessingItems } from '../src/db/schema/index.ts';
import { admitRows } from '../src/pipeline/admit.ts';
import type { AdmitContext, NormalRow } from '../src/pipeline/types.ts';
import { testDatabaseKinds } from './helpers.ts';
import { type AdmitWorld, admitContext, NOW, openAdmitWorld, rowMaker } from './pipeline-admit-bed.ts';

for (const kind of testDatabaseKinds()) {
  describe(`admitRows: the rules in order (${kind})`, () => {
    let world: AdmitWorld;
    let database: Database;
    let clientId: number;
    let smsSurvey: number;
    let fallbackSurvey: number;
    let pausedSurvey: number;
    let pausedFeed: number;

    beforeAll(async () => {
      world = await openAdmitWorld(kind);
      ({ database, clientId, smsSurvey, fallbackSurvey, pausedSurvey, pausedFeed } = world);
    });
    afterAll(async () => database?.close());

    const row = rowMaker();
    const ctxOf = (overrides: Partial<AdmitContext> = {}) => admitContext(world, overrides);

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
  });
}
