import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { clients, locations, personnel, reviewAlertRules, smsTemplates, surveyLocations, surveys } from '../db/schema/index.ts';
import { createMessenger } from '../messaging/send.ts';
import { type HistoryClient, planInvitations, writeInvitations } from './history-invitations.ts';
import { DAY_MS, HISTORY_END_DAYS, periodsOf, targetNps, trendsOf } from './history-plan.ts';
import { recordResponses } from './history-responses.ts';
import { clickSome, seedHistoryReviews } from './history-reviews.ts';
import { demoOutbox } from './outbox.ts';
import { seededRandom } from './random.ts';
import { QUIET_CLIENT } from './survey-definitions.ts';

/** Each client as the history needs it: active locations, active surveys and where they run, staff, SMS template. */
async function historyClients(db: Db): Promise<HistoryClient[]> {
  const rows = await db
    .select({
      id: clients.id,
      name: clients.name,
      industry: clients.industry,
      phone: clients.phone,
      coordinatorId: clients.accountCoordinatorId,
    })
    .from(clients)
    .orderBy(asc(clients.id));
  const out: HistoryClient[] = [];
  for (const c of rows) {
    const own = await db
      .select({ id: locations.id, name: locations.locationname, reviewLinks: locations.reviewLinks })
      .from(locations)
      .where(and(eq(locations.clientId, c.id), eq(locations.status, 'active')))
      .orderBy(asc(locations.locationname), asc(locations.id));
    const made = await db
      .select()
      .from(surveys)
      .where(and(eq(surveys.clientId, c.id), eq(surveys.status, 'active')))
      .orderBy(asc(surveys.id));
    const covered =
      made.length === 0
        ? []
        : await db
            .select()
            .from(surveyLocations)
            .where(
              inArray(
                surveyLocations.surveyId,
                made.map((s) => s.id),
              ),
            );
    const staff = await db
      .select({ id: personnel.id, firstName: personnel.firstName })
      .from(personnel)
      .where(eq(personnel.clientId, c.id))
      .orderBy(asc(personnel.id))
      .limit(8);
    const [template] = await db
      .select({ name: smsTemplates.name, body: smsTemplates.body })
      .from(smsTemplates)
      .where(eq(smsTemplates.clientId, c.id))
      .orderBy(asc(smsTemplates.id))
      .limit(1);
    const active = new Set(own.map((l) => l.id));
    out.push({
      id: c.id,
      name: c.name,
      industry: c.industry ?? '',
      coordinatorId: c.coordinatorId,
      areaCode: c.phone?.slice(2, 5) ?? '303',
      locations: own.map((l) => ({ ...l, reviewLinks: l.reviewLinks ?? {} })),
      surveys: made.map((survey) => ({
        survey,
        locationIds: new Set(covered.filter((x) => x.surveyId === survey.id && active.has(x.locationId)).map((x) => x.locationId)),
      })),
      staff,
      template: template?.body ? { name: template.name, body: template.body } : null,
    });
  }
  return out;
}

/** Each client's NPS over the last month's answers (the surveys' and feeds' own), null without one. */
async function npsNow(db: Db, anchor: Date): Promise<Map<number, number>> {
  const since = new Date(anchor.getTime() - HISTORY_END_DAYS * DAY_MS).toISOString();
  const rows = rowsOf(
    await db.execute(sql`select client_id,
        round(100.0 * (count(*) filter (where nps_class = 'promoter') - count(*) filter (where nps_class = 'detractor')) / count(*))::int as nps
      from survey_responses where nps_class is not null and not test and not excluded and submitted_at >= ${since}::timestamptz
      group by client_id`),
  );
  return new Map(rows.map((r) => [Number(r.client_id), Number(r.nps)]));
}

/**
 * The report rollup's triggers on the rows the history writes in bulk (migration 0039): off while
 * it writes thousands of them, then the rollup of the history's days is rebuilt from the raw
 * tables by the product's own `report_counts_rebuild` (decision 065's path for rows written with
 * triggers off), one set-based statement instead of a trigger call per row. The KPI summary's
 * triggers (decision 053) stay on: it has no rebuild.
 */
const BULK_TRIGGERS = [
  ['survey_processing_items', 'report_counts_item_insert'],
  ['notification_logs', 'report_counts_invite_log_insert'],
  ['survey_responses', 'report_counts_response_insert'],
  ['amplifications', 'report_counts_amplification_insert'],
  ['amplifications', 'report_counts_amplification_update'],
] as const;

async function rollupTriggers(db: Db, state: 'enable' | 'disable'): Promise<void> {
  for (const [table, trigger] of BULK_TRIGGERS) await db.execute(sql.raw(`alter table ${table} ${state} trigger ${trigger}`));
}

/** A day (YYYY-MM-DD, UTC) `days` away from `ms`: the rebuild's bounds, a day wider than any client's zone moves them. */
const dayOf = (ms: number, days: number) => new Date(ms + days * DAY_MS).toISOString().slice(0, 10);

/**
 * The demo's year before its last month (docs/decisions/070-demo-history.md), so every report
 * chart has a shape and every card a change: for the twelve periods before the month the surveys
 * and feeds made (history-plan.ts), per client and active location, invitations with their
 * Tracking Logs rows as sent and reported (written in bulk), answers whose NPS follows each
 * client's trend (in each coordinator's book one client falls by more than the AC Performance
 * Report's at-risk drop in the last month; others improve over the year), review invitations and
 * clicks, the year's public reviews through the ingest and the instant review alerts they raised.
 * Run last, once the rest of the demo exists: it reads the last month's NPS, and no earlier step
 * sees its rows.
 * Deterministic (its own seeded random), relative to `anchor`.
 */
export async function seedHistory(db: Db, options: { publicBaseUrl: string; anchor: Date }): Promise<void> {
  const rnd = seededRandom(20261127);
  const { anchor } = options;
  const periods = periodsOf(anchor);
  const start = periods[0]?.start ?? anchor.getTime();
  const end = periods.at(-1)?.end ?? anchor.getTime();
  const all = await historyClients(db);
  const now = await npsNow(db, anchor);
  const quiet = all.find((c) => c.name === QUIET_CLIENT)?.id ?? null;
  const trends = trendsOf(
    all.map((c) => ({ id: c.id, nps: now.get(c.id) ?? null, coordinatorId: c.coordinatorId })),
    quiet,
  );
  const npsOf = (clientId: number, period: number) =>
    targetNps(trends.get(clientId) ?? 'steady', now.get(clientId) ?? null, periods[period] ?? { index: period, start, end });

  // The instant review rules have watched their clients' reviews all year (the digests and the
  // survey alert rules were made with the last month: review-alerts.ts, alert-rules.ts).
  await db
    .update(reviewAlertRules)
    .set({ createdAt: new Date(start) })
    .where(eq(reviewAlertRules.frequency, 'instant'));

  const clock = { at: new Date(start) };
  const messenger = createMessenger(db, demoOutbox(options.publicBaseUrl), { now: () => clock.at });
  // Phones the history may not text: opted out (the messenger would refuse them), or a customer of the last month's.
  const phones = rowsOf(
    await db.execute(
      sql`select phone from sms_opt_outs union select client_id || ':' || phone from survey_processing_items where phone is not null`,
    ),
  );
  const taken = new Set(phones.map((r) => String(r.phone)));
  const planned = planInvitations(all, periods, taken, rnd);
  await rollupTriggers(db, 'disable');
  await writeInvitations(db, planned, options.publicBaseUrl, rnd);
  const [before] = rowsOf(await db.execute(sql`select coalesce(max(id), 0) as id from amplifications`));
  await recordResponses(db, planned, npsOf, rnd);
  const firstAmplification = Number(before?.id ?? 0);
  const clicked = await clickSome(db, firstAmplification, end, rnd);
  await rollupTriggers(db, 'enable');
  await seedHistoryReviews(db, { clients: all, periods, clicked, messenger, clock }, rnd);
  await db.execute(sql`select report_counts_rebuild(null, ${dayOf(start, -1)}::date, ${dayOf(end, 1)}::date)`);
  messenger.close();
}
