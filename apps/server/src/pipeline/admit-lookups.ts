import { type SendDay, SURVEY_SETTINGS_DEFAULTS } from '@admin/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { namedRows } from '../db/prepared.ts';
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
 * (an `in (select …)` is a join the planner costed at a hundred locations). The rows are counted
 * per send time first, in that index's order: a backlog piles its rows on a few send times a day,
 * so only those few are turned into days in the client's zone.
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

/** The settings; the same statement takes `lock` (an advisory lock's call) when the survey is found. */
export async function settingsOf(tx: Db, ctx: AdmitContext, lock: SQL): Promise<Settings> {
  const D = SURVEY_SETTINGS_DEFAULTS;
  // Plain SQL run as a named statement: it runs for every admitted batch (decision 081's idiom).
  const [row] = await namedRows(
    tx,
    sql`select ${lock} as locked, c.status as client_status, c.timezone, s.status as survey_status, s.channel, s.send_delay_hours,
        s.link_expires_days, s.over_survey_days as survey_over_days, cs.over_survey_days as client_over_days,
        cs.quiet_hours_start, cs.quiet_hours_end, cs.send_days, cs.daily_cap_per_location,
        (select f.status from data_feeds f where f.id = ${ctx.dataFeedId}::int) as feed_status
      from surveys s
      join clients c on c.id = s.client_id
      left join client_survey_settings cs on cs.client_id = c.id
      where s.id = ${ctx.surveyId}::int and s.client_id = ${ctx.clientId}::int`,
  );
  if (!row) throw new Error(`admitRows: survey ${ctx.surveyId} is not one of client ${ctx.clientId}'s`);
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  const whole = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const timeZone = String(row.timezone);
  return {
    clientStatus: String(row.client_status),
    timeZone,
    surveyStatus: String(row.survey_status),
    surveyChannel: String(row.channel),
    sendDelayHours: Number(row.send_delay_hours),
    linkExpiresDays: Number(row.link_expires_days),
    overSurveyDays: whole(row.survey_over_days) ?? whole(row.client_over_days) ?? D.over_survey_days,
    window: {
      timeZone,
      quietHoursStart: text(row.quiet_hours_start) ?? D.quiet_hours_start,
      quietHoursEnd: text(row.quiet_hours_end) ?? D.quiet_hours_end,
      sendDays: Array.isArray(row.send_days) ? (row.send_days as SendDay[]) : D.send_days,
    },
    dailyCap: whole(row.daily_cap_per_location) ?? D.daily_cap_per_location,
    // A feed that is gone counts as inactive; a batch of no feed (Send test) has none.
    feedStatus: ctx.dataFeedId === null ? null : (text(row.feed_status) ?? 'inactive'),
  };
}

const unique = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null && v !== ''))];

/**
 * What the batch's rows already have in the database, each looked up once for the whole batch, all
 * in ONE statement (one round trip, one plan kept per connection): each part answers rows of its
 * own kind `k`. A part whose list is empty answers nothing.
 */
export async function lookups(tx: Db, ctx: AdmitContext, rows: NormalRow[], s: Settings, now: Date) {
  const emails = unique(rows.map((r) => r.email));
  const phones = unique(rows.map((r) => r.phone));
  const txIds = unique(rows.map((r) => r.transactionId));
  const locationIds = unique(rows.map((r) => r.locationId));
  const cutoff = new Date(now.getTime() - s.overSurveyDays * DAY_MS).toISOString();
  const c = ctx.clientId;

  const found = await namedRows(
    tx,
    sql`select 'location'::text as k, _id as v, status as w, client_id as n from locations where _id in ${list(locationIds)}
      union all
      select distinct 'duplicate', transaction_id, null::text, null::int from survey_processing_items
        where client_id = ${c} and transaction_id in ${list(txIds)}
      union all
      ${recent('email', c, emails, cutoff)}
      union all
      ${recent('phone', c, phones, cutoff)}
      union all
      select 'email_opt_out', email, null::text, null::int from email_opt_outs where email in ${list(emails)} and (client_id is null or client_id = ${c})
      union all
      select 'phone_opt_out', phone, null::text, null::int from sms_opt_outs where phone in ${list(phones)} and (client_id is null or client_id = ${c})
      union all
      select 'suppressed', email, null::text, null::int from email_suppressions where email in ${list(emails)} and suppressed
      union all
      select 'cap', id, day, n from (${capCountStatement(s.dailyCap > 0 ? locationIds : [], new Date(now.getTime() - DAY_MS), s.timeZone)}) cap`,
  );
  const of = (kind: string) => found.filter((r) => r.k === kind);
  const values = (kind: string) => new Set(of(kind).map((r) => String(r.v)));
  const capCounts = new Map<string, number>();
  for (const r of of('cap')) capCounts.set(`${String(r.v)}|${String(r.w)}`, Number(r.n));
  return {
    locationStatus: new Map(of('location').map((r) => [String(r.v), Number(r.n) === c ? String(r.w) : 'elsewhere'] as const)),
    duplicates: values('duplicate'),
    recentEmails: values('recent_email'),
    recentPhones: values('recent_phone'),
    emailOptOuts: values('email_opt_out'),
    phoneOptOuts: values('phone_opt_out'),
    suppressed: values('suppressed'),
    capCounts,
  };
}

/**
 * The batch's contacts (`column`: e-mails or phones) the client surveyed recently: sent since
 * `cutoff`, still scheduled, or answered since `cutoff`. E-mails and phones are looked up apart,
 * each through its own index ((client_id, email), (client_id, phone)): one `email in … or phone in
 * …` can use neither and scanned every item of the client for each batch. A staff member's Send
 * test (`manual_test`) surveys no customer, so it never over-surveys one.
 */
function recent(column: 'email' | 'phone', clientId: number, values: string[], cutoff: string) {
  return sql`select ${sql.raw(`'recent_${column}'`)}, i.${sql.raw(column)}, null::text, null::int from survey_processing_items i
    where i.client_id = ${clientId} and i.${sql.raw(column)} in ${list(values)} and i.source <> 'manual_test'
      and ((i.sent_at >= ${cutoff}::timestamptz) or i.status = 'scheduled'
        or exists (select 1 from survey_responses r where r.processing_item_id = i.id and r.submitted_at >= ${cutoff}::timestamptz))`;
}
