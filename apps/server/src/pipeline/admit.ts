import { randomBytes } from 'node:crypto';
import { type ProcessingItemChannel, type ProcessingItemStatus, type SendDay, SURVEY_SETTINGS_DEFAULTS } from '@admin/shared';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { clientSurveySettings, clients, dataFeeds, surveys } from '../db/schema/index.ts';
import { capPlacer, earliestSendTime, localDayOf, type SendWindow } from './schedule.ts';
import type { AdmitContext, AdmitOutcome, AdmitRows, NormalRow } from './types.ts';

/**
 * The rules of docs/pipeline.md applied to a batch of feed rows, in order, the first that matches
 * winning: 1 paused or archived client, location, survey or feed; 2 a transaction id the client
 * already sent (in the database or earlier in the batch); 3 a contact answered, sent or already
 * scheduled a survey of this client within `over_survey_days`; 4 opted out / suppressed; 5 no
 * usable contact for the survey's channel; 6 scheduled (pipeline/schedule.ts). Each rule is one
 * set-based query for the whole batch, so a 100,000-row file costs a few queries per chunk, not
 * a few per row. Every row becomes one processing item, skipped ones included, with its reason.
 */

const DAY_MS = 86_400_000;
/** Statuses an invitation has once it went out (or is about to): they count for over-surveying and the daily cap. */
const LIVE_STATUSES = ['scheduled', 'sent', 'delivered', 'opened', 'responded', 'reminded'];

/** The channels a survey tries, in order. */
export function channelsOf(surveyChannel: string): ProcessingItemChannel[] {
  if (surveyChannel === 'sms') return ['sms'];
  if (surveyChannel === 'email_then_sms') return ['email', 'sms'];
  if (surveyChannel === 'sms_then_email') return ['sms', 'email'];
  return ['email'];
}

/** A JS list as one SQL parameter: `x in (select jsonb_array_elements_text(…))` works the same on PGlite and PostgreSQL. */
const list = (values: readonly string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;

type Settings = {
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

async function settingsOf(tx: Db, ctx: AdmitContext): Promise<Settings> {
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
async function lookups(tx: Db, ctx: AdmitContext, rows: NormalRow[], s: Settings, now: Date) {
  const emails = unique(rows.map((r) => r.email));
  const phones = unique(rows.map((r) => r.phone));
  const txIds = unique(rows.map((r) => r.transactionId));
  const locationIds = unique(rows.map((r) => r.locationId));
  const cutoff = new Date(now.getTime() - s.overSurveyDays * DAY_MS).toISOString();
  const c = ctx.clientId;
  const live = list(LIVE_STATUSES);

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
  const suppressed = emails.length ? await tx.execute(sql`select email as v from email_suppressions where email in ${list(emails)}`) : null;
  // What each location already has scheduled per day: only a daily cap reads it.
  const capRows =
    locationIds.length && s.dailyCap > 0
      ? await tx.execute(sql`
          select location_id as id, to_char(scheduled_at at time zone ${s.timeZone}, 'YYYY-MM-DD') as day, count(*)::int as n
          from survey_processing_items
          where location_id in ${list(locationIds)} and scheduled_at >= ${new Date(now.getTime() - DAY_MS).toISOString()}::timestamptz
            and status in ${live}
          group by 1, 2`)
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

/** A processing item's own columns as admitRows writes them (the batch's shared ones are parameters). */
type ItemRow = {
  location_id: string | null;
  first_name: string;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  transaction_id: string | null;
  transaction_date: string;
  personnel_id: number | null;
  product_id: number | null;
  referral_source_id: number | null;
  amount: string | null;
  sms_opt_in: boolean;
  row_number: number;
  raw: Record<string, string>;
  channel: ProcessingItemChannel;
  status: ProcessingItemStatus;
  skip_reason: string | null;
  scheduled_at: string | null;
  token: string;
  expires_at: string;
};

/** `ItemRow`'s columns and their SQL types, for json_to_recordset (column names of survey_processing_items). */
const ITEM_COLUMNS: readonly (readonly [keyof ItemRow, string])[] = [
  ['location_id', 'text'],
  ['first_name', 'text'],
  ['last_name', 'text'],
  ['email', 'text'],
  ['phone', 'text'],
  ['transaction_id', 'text'],
  ['transaction_date', 'text'],
  ['personnel_id', 'int'],
  ['product_id', 'int'],
  ['referral_source_id', 'int'],
  ['amount', 'numeric'],
  ['sms_opt_in', 'boolean'],
  ['row_number', 'int'],
  ['raw', 'jsonb'],
  ['channel', 'text'],
  ['status', 'text'],
  ['skip_reason', 'text'],
  ['scheduled_at', 'timestamptz'],
  ['token', 'text'],
  ['expires_at', 'timestamptz'],
];

/**
 * `count` survey tokens as `newSurveyToken` (modules/surveys/routes.ts) makes them, 32 random
 * bytes in base64url each, from one read of the random source instead of one per row.
 */
function surveyTokens(count: number): string[] {
  const bytes = randomBytes(32 * count);
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) tokens.push(bytes.subarray(i * 32, i * 32 + 32).toString('base64url'));
  return tokens;
}

type Decision = { status: ProcessingItemStatus; reason: string | null; channel: ProcessingItemChannel; scheduledAt: Date | null };

/** The first key of the advisory lock admitting a client's rows (the second is the client id). */
const ADMIT_LOCK = 7_301;

export const admitRows: AdmitRows = async (tx, ctx, rows, now) => {
  if (rows.length === 0) return [];
  // One batch of a client at a time, until its transaction ends: the duplicate, over-survey and
  // daily-cap rules read what is already admitted, so two calls, a pull and an upload at once
  // would otherwise both schedule the same transaction or both take the cap's last places.
  await tx.execute(sql`select pg_advisory_xact_lock(${ADMIT_LOCK}, ${ctx.clientId}::int)`);
  const s = await settingsOf(tx, ctx);
  const found = await lookups(tx, ctx, rows, s, now);
  const channels = channelsOf(s.surveyChannel);
  const seenTransactions = new Set<string>();

  const paused = (row: NormalRow): string | null => {
    if (s.clientStatus !== 'active') return `The client is ${s.clientStatus}`;
    if (s.feedStatus !== null && s.feedStatus !== 'active') return `The data feed is ${s.feedStatus}`;
    if (s.surveyStatus !== 'active') return `The survey is ${s.surveyStatus}`;
    const location = found.locationStatus.get(row.locationId);
    if (location === undefined || location === 'elsewhere') return 'The location is not one of the client’s';
    if (location !== 'active') return `The location is ${location}`;
    return null;
  };

  const decide = (row: NormalRow): Decision => {
    const first = channels[0] ?? 'email';
    const skip = (status: ProcessingItemStatus, reason: string): Decision => ({ status, reason, channel: first, scheduledAt: null });
    const pausedReason = paused(row);
    if (pausedReason) return skip('skipped_paused', pausedReason);
    if (row.transactionId) {
      const seen = found.duplicates.has(row.transactionId) || seenTransactions.has(row.transactionId);
      seenTransactions.add(row.transactionId);
      if (seen) return skip('skipped_duplicate', `Transaction ${row.transactionId} was already received`);
    }
    if ((row.email && found.recentEmails.has(row.email)) || (row.phone && found.recentPhones.has(row.phone))) {
      return skip('skipped_over_survey', `The contact was surveyed within the last ${s.overSurveyDays} days`);
    }
    // Rule 4 then 5, per channel in the survey's order: the first usable channel wins.
    let refusal: Decision | null = null;
    for (const channel of channels) {
      if (channel === 'email') {
        if (!row.email) continue;
        if (found.emailOptOuts.has(row.email)) refusal ??= skip('skipped_opt_out', 'The e-mail address opted out');
        else if (found.suppressed.has(row.email)) refusal ??= skip('skipped_suppressed', 'The e-mail address is on the suppression list');
        else return { status: 'scheduled', reason: null, channel, scheduledAt: null };
      } else {
        if (!row.phone) continue;
        if (found.phoneOptOuts.has(row.phone)) refusal ??= skip('skipped_opt_out', 'The phone opted out of texts');
        else if (!row.smsOptIn) continue;
        else return { status: 'scheduled', reason: null, channel, scheduledAt: null };
      }
    }
    if (refusal) return refusal;
    const needs = channels.map((c) => (c === 'email' ? 'an e-mail address' : 'a phone with SMS opt-in')).join(' or ');
    return skip('invalid_contact', `No usable contact: the survey needs ${needs}`);
  };

  const ownLocation = (id: string) => {
    const status = found.locationStatus.get(id);
    return status !== undefined && status !== 'elsewhere';
  };

  // The batch's counts only grow (each placed row is counted below), as capPlacer needs.
  const place = capPlacer(s.window, s.dailyCap);
  const tokens = surveyTokens(rows.length);
  const items = rows.map((row, index) => {
    const decision = decide(row);
    if (decision.status === 'scheduled') {
      const earliest = earliestSendTime(row.transactionDate, now, s.sendDelayHours, s.timeZone);
      const key = (day: string) => `${row.locationId}|${day}`;
      const at = place(earliest, row.locationId, (day) => found.capCounts.get(key(day)) ?? 0);
      const day = key(localDayOf(at, s.timeZone));
      found.capCounts.set(day, (found.capCounts.get(day) ?? 0) + 1);
      decision.scheduledAt = at;
    }
    // A later row of the same contact in this batch is over-surveyed by this one.
    if (decision.status === 'scheduled') {
      if (row.email) found.recentEmails.add(row.email);
      if (row.phone) found.recentPhones.add(row.phone);
    }
    const expiresFrom = decision.scheduledAt ?? now;
    const item: ItemRow = {
      // A location that is not the client's is not linked (the row says which it named).
      location_id: ownLocation(row.locationId) ? row.locationId : null,
      first_name: row.firstName,
      last_name: row.lastName,
      email: row.email,
      phone: row.phone,
      transaction_id: row.transactionId,
      transaction_date: row.transactionDate,
      personnel_id: row.personnelId,
      product_id: row.productId,
      referral_source_id: row.referralSourceId,
      amount: row.amount,
      sms_opt_in: row.smsOptIn,
      row_number: row.rowNumber,
      raw: row.raw,
      channel: decision.channel,
      status: decision.status,
      skip_reason: decision.reason,
      scheduled_at: decision.scheduledAt?.toISOString() ?? null,
      token: tokens[index] ?? '',
      expires_at: new Date(expiresFrom.getTime() + s.linkExpiresDays * DAY_MS).toISOString(),
    };
    return { row, decision, item };
  });

  // The whole batch in one statement: the rows go as one JSON parameter that json_to_recordset
  // turns back into rows (the same on PGlite and PostgreSQL). Building a multi-row VALUES of ~27
  // parameters a row took more time in the query builder than the database took to insert.
  const inserted = rowsOf(
    await tx.execute(sql`
      insert into survey_processing_items (client_id, survey_id, data_feed_id, run_id, source, created_at, updated_at,
        ${sql.raw(ITEM_COLUMNS.map(([name]) => name).join(', '))})
      select ${ctx.clientId}::int, ${ctx.surveyId}::int, ${ctx.dataFeedId}::int, ${ctx.runId}::int, ${ctx.source}::text,
        ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz,
        ${sql.raw(ITEM_COLUMNS.map(([name]) => `r.${name}`).join(', '))}
      from json_to_recordset(${JSON.stringify(items.map((i) => i.item))}::json)
        as r(${sql.raw(ITEM_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', '))})
      returning id, token`),
  );
  const ids = new Map<string, number>();
  for (const r of inserted) ids.set(String(r.token), Number(r.id));
  return items.map(
    ({ row, decision, item }): AdmitOutcome => ({
      rowNumber: row.rowNumber,
      itemId: ids.get(item.token) ?? 0,
      status: decision.status,
      reason: decision.reason,
      scheduledAt: decision.scheduledAt,
    }),
  );
};
