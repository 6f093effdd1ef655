import { type SendDay, SURVEY_SETTINGS_DEFAULTS } from '@admin/shared';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { clientSurveySettings, clients, dataFeeds, surveys } from '../db/schema/index.ts';
import type { SendWindow } from './schedule.ts';
import type { AdmitContext, NormalRow } from './types.ts';

/**
 * What admitting a batch (pipeline/admit.ts) reads before it decides: the survey's and client's
 * settings, and what the batch's rows already have in the database, each looked up once.
 */

const DAY_MS = 86_400_000;
/**
 * Statuses an invitation has once it went out (or is about to): they count for the daily cap.
 * The partial index survey_processing_items_location_live_idx (db/schema/surveys.ts) lists the same.
 */
const LIVE_STATUSES = ['scheduled', 'sent', 'delivered', 'opened', 'responded', 'reminded'];

/** A JS list as one SQL parameter: `x in (select jsonb_array_elements_text(…))` works the same on PGlite and PostgreSQL. */
const list = (values: readonly string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;

/**
 * How many live invitations each location has per local day (`yyyy-MM-dd` in `timeZone`) from
 * `since` on: `id`, `day`, `n`. The statuses are written out and the locations are one array, so
 * the plan can look each location up in the partial index survey_processing_items_location_live_idx
 * (an `in (select …)` is a join the planner costed at a hundred locations), and the rows are counted per send time first, in that
 * index's order: a backlog piles its rows on a few send times a day, so only those few are turned
 * into days in the client's zone.
 */
export function capCountStatement(locationIds: readonly string[], since: Date, timeZone: string) {
  return sql`
    select id, to_char(at at time zone ${timeZone}, 'YYYY-MM-DD') as day, sum(n)::int as n
    from (
      select location_id as id, scheduled_at as at, count(*) as n
      from survey_processing_items
      where location_id = any(array${list(locationIds)}) and scheduled_at >= ${since.toISOString()}::timestamptz
        and status in (${sql.raw(LIVE_STATUSES.map((status) => `'${status}'`).join(', '))})
      group by 1, 2
    ) per_time
    group by 1, 2`;
}

/** The survey's and its client's settings an admission follows. */
export type Settings = {
  clientStatus: string;
  timeZone: string;
  surveyStatus: string;
  surveyChannel: string;
  sendDelayHours: number;
  linkExpiresDays: number;
  overSurveyDays: number;
  window: SendWindow;
  dailyCap: number;
  feedStatus: string | null;
};

export async function settingsOf(tx: Db, ctx: AdmitContext): Promise<Settings> {
  const D = SURVEY_SETTINGS_DEFAULTS;
  const [row] = await tx
    .select({
      clientStatus: clients.status,
      timeZone: clients.timezone,
      surveyStatus: surveys.status,
      surveyChannel: surveys.channel,
      sendDelayHours: surveys.sendDelayHours,
      linkExpiresDays: surveys.linkExpiresDays,
      surveyOverDays: surveys.overSurveyDays,
      clientOverDays: clientSurveySettings.overSurveyDays,
      quietHoursStart: clientSurveySettings.quietHoursStart,
      quietHoursEnd: clientSurveySettings.quietHoursEnd,
      sendDays: clientSurveySettings.sendDays,
      dailyCap: clientSurveySettings.dailyCapPerLocation,
    })
    .from(surveys)
    .innerJoin(clients, eq(clients.id, surveys.clientId))
    .leftJoin(clientSurveySettings, eq(clientSurveySettings.clientId, clients.id))
    .where(and(eq(surveys.id, ctx.surveyId), eq(surveys.clientId, ctx.clientId)))
    .limit(1);
  if (!row) throw new Error(`admitRows: survey ${ctx.surveyId} is not one of client ${ctx.clientId}'s`);
  let feedStatus: string | null = null;
  if (ctx.dataFeedId !== null) {
    const [feed] = await tx.select({ status: dataFeeds.status }).from(dataFeeds).where(eq(dataFeeds.id, ctx.dataFeedId)).limit(1);
    feedStatus = feed?.status ?? 'inactive';
  }
  return {
    clientStatus: row.clientStatus,
    timeZone: row.timeZone,
    surveyStatus: row.surveyStatus,
    surveyChannel: row.surveyChannel,
    sendDelayHours: row.sendDelayHours,
    linkExpiresDays: row.linkExpiresDays,
    overSurveyDays: row.surveyOverDays ?? row.clientOverDays ?? D.over_survey_days,
    window: {
      timeZone: row.timeZone,
      quietHoursStart: row.quietHoursStart ?? D.quiet_hours_start,
      quietHoursEnd: row.quietHoursEnd ?? D.quiet_hours_end,
      sendDays: (row.sendDays as SendDay[] | null) ?? D.send_days,
    },
    dailyCap: row.dailyCap ?? D.daily_cap_per_location,
    feedStatus,
  };
}

/** The rows of a lookup the batch had nothing to look up for (null): none. */
const rowsIn = (result: unknown) => (result ? rowsOf(result) : []);

const unique = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null && v !== ''))];

/** What the batch's rows already have in the database, each looked up once for the whole batch. */
export async function lookups(tx: Db, ctx: AdmitContext, rows: NormalRow[], s: Settings, now: Date) {
  const emails = unique(rows.map((r) => r.email));
  const phones = unique(rows.map((r) => r.phone));
  const txIds = unique(rows.map((r) => r.transactionId));
  const locationIds = unique(rows.map((r) => r.locationId));
  const cutoff = new Date(now.getTime() - s.overSurveyDays * DAY_MS).toISOString();
  const c = ctx.clientId;

  // One after another: a transaction is one connection, and node-postgres refuses (from pg 9)
  // a query sent while the client is still busy with the previous one.
  const locationRows = locationIds.length
    ? await tx.execute(sql`select _id as id, status, client_id from locations where _id in ${list(locationIds)}`)
    : null;
  const dupRows = txIds.length
    ? await tx.execute(
        sql`select distinct transaction_id as v from survey_processing_items where client_id = ${c} and transaction_id in ${list(txIds)}`,
      )
    : null;
  // The contacts surveyed recently: e-mails and phones looked up apart, each through its own index
  // ((client_id, email), (client_id, phone)). One `email in … or phone in …` cannot use either and
  // scanned every item of the client for each batch. A staff member's Send test (`manual_test`)
  // surveys no customer, so it never over-surveys one.
  const recently = (column: 'email' | 'phone', values: string[]) => sql`
    select i.email, i.phone from survey_processing_items i
    where i.client_id = ${c} and i.${sql.raw(column)} in ${list(values)} and i.source <> 'manual_test'
      and ((i.sent_at >= ${cutoff}::timestamptz) or i.status = 'scheduled'
        or exists (select 1 from survey_responses r where r.processing_item_id = i.id and r.submitted_at >= ${cutoff}::timestamptz))`;
  const recentQuery =
    emails.length && phones.length
      ? sql`${recently('email', emails)} union all ${recently('phone', phones)}`
      : emails.length
        ? recently('email', emails)
        : phones.length
          ? recently('phone', phones)
          : null;
  const recentRows = recentQuery ? await tx.execute(recentQuery) : null;
  const emailOut = emails.length
    ? await tx.execute(
        sql`select email as v from email_opt_outs where email in ${list(emails)} and (client_id is null or client_id = ${c})`,
      )
    : null;
  const phoneOut = phones.length
    ? await tx.execute(sql`select phone as v from sms_opt_outs where phone in ${list(phones)} and (client_id is null or client_id = ${c})`)
    : null;
  const suppressed = emails.length
    ? await tx.execute(sql`select email as v from email_suppressions where email in ${list(emails)} and suppressed`)
    : null;
  // What each location already has scheduled per day: only a daily cap reads it.
  const capRows =
    locationIds.length && s.dailyCap > 0
      ? await tx.execute(capCountStatement(locationIds, new Date(now.getTime() - DAY_MS), s.timeZone))
      : null;
  const values = (result: unknown) => new Set(rowsIn(result).map((r) => String(r.v)));
  const locationStatus = new Map(
    rowsIn(locationRows).map((r) => [String(r.id), Number(r.client_id) === c ? String(r.status) : 'elsewhere'] as const),
  );
  const recentEmails = new Set<string>();
  const recentPhones = new Set<string>();
  for (const r of rowsIn(recentRows)) {
    if (typeof r.email === 'string') recentEmails.add(r.email);
    if (typeof r.phone === 'string') recentPhones.add(r.phone);
  }
  const capCounts = new Map<string, number>();
  for (const r of rowsIn(capRows)) capCounts.set(`${String(r.id)}|${String(r.day)}`, Number(r.n));
  return {
    locationStatus,
    duplicates: values(dupRows),
    recentEmails,
    recentPhones,
    emailOptOuts: values(emailOut),
    phoneOptOuts: values(phoneOut),
    suppressed: values(suppressed),
    capCounts,
  };
}
