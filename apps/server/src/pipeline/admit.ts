import { type ProcessingItemChannel, type ProcessingItemStatus, type SendDay, SURVEY_SETTINGS_DEFAULTS } from '@admin/shared';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { clientSurveySettings, clients, dataFeeds, surveyProcessingItems, surveys } from '../db/schema/index.ts';
import { newSurveyToken } from '../modules/surveys/routes.ts';
import { earliestSendTime, localDayOf, placeWithCap, type SendWindow } from './schedule.ts';
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
/** Rows per insert: well under PostgreSQL's 65,535 parameters at ~25 columns a row. */
const INSERT_CHUNK = 1000;
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

  const [locationRows, dupRows, recentRows, emailOut, phoneOut, suppressed, capRows] = await Promise.all([
    locationIds.length ? tx.execute(sql`select _id as id, status, client_id from locations where _id in ${list(locationIds)}`) : null,
    txIds.length
      ? tx.execute(
          sql`select distinct transaction_id as v from survey_processing_items where client_id = ${c} and transaction_id in ${list(txIds)}`,
        )
      : null,
    emails.length || phones.length
      ? tx.execute(sql`
          select i.email, i.phone from survey_processing_items i
          where i.client_id = ${c} and (i.email in ${list(emails)} or i.phone in ${list(phones)})
            and ((i.sent_at >= ${cutoff}::timestamptz) or i.status = 'scheduled'
              or exists (select 1 from survey_responses r where r.processing_item_id = i.id and r.submitted_at >= ${cutoff}::timestamptz))`)
      : null,
    emails.length
      ? tx.execute(sql`select email as v from email_opt_outs where email in ${list(emails)} and (client_id is null or client_id = ${c})`)
      : null,
    phones.length
      ? tx.execute(sql`select phone as v from sms_opt_outs where phone in ${list(phones)} and (client_id is null or client_id = ${c})`)
      : null,
    emails.length ? tx.execute(sql`select email as v from email_suppressions where email in ${list(emails)}`) : null,
    locationIds.length
      ? tx.execute(sql`
          select location_id as id, to_char(scheduled_at at time zone ${s.timeZone}, 'YYYY-MM-DD') as day, count(*)::int as n
          from survey_processing_items
          where location_id in ${list(locationIds)} and scheduled_at >= ${new Date(now.getTime() - DAY_MS).toISOString()}::timestamptz
            and status in ${live}
          group by 1, 2`)
      : null,
  ]);
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

type Decision = { status: ProcessingItemStatus; reason: string | null; channel: ProcessingItemChannel; scheduledAt: Date | null };

export const admitRows: AdmitRows = async (tx, ctx, rows, now) => {
  if (rows.length === 0) return [];
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

  const items = rows.map((row) => {
    const decision = decide(row);
    if (decision.status === 'scheduled') {
      const earliest = earliestSendTime(row.transactionDate, now, s.sendDelayHours, s.timeZone);
      const key = (day: string) => `${row.locationId}|${day}`;
      const at = placeWithCap(earliest, s.window, s.dailyCap, (day) => found.capCounts.get(key(day)) ?? 0);
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
    return {
      row,
      decision,
      values: {
        clientId: ctx.clientId,
        // A location that is not the client's is not linked (the row says which it named).
        locationId: ownLocation(row.locationId) ? row.locationId : null,
        surveyId: ctx.surveyId,
        firstName: row.firstName,
        lastName: row.lastName,
        email: row.email,
        phone: row.phone,
        transactionId: row.transactionId,
        transactionDate: row.transactionDate,
        personnelId: row.personnelId,
        productId: row.productId,
        referralSourceId: row.referralSourceId,
        amount: row.amount,
        smsOptIn: row.smsOptIn,
        dataFeedId: ctx.dataFeedId,
        runId: ctx.runId,
        rowNumber: row.rowNumber,
        raw: row.raw,
        channel: decision.channel,
        status: decision.status,
        skipReason: decision.reason,
        scheduledAt: decision.scheduledAt,
        token: newSurveyToken(),
        expiresAt: new Date(expiresFrom.getTime() + s.linkExpiresDays * DAY_MS),
        source: ctx.source,
        createdAt: now,
        updatedAt: now,
      },
    };
  });

  const ids = new Map<string, number>();
  for (let i = 0; i < items.length; i += INSERT_CHUNK) {
    const inserted = await tx
      .insert(surveyProcessingItems)
      .values(items.slice(i, i + INSERT_CHUNK).map((item) => item.values))
      .returning({ id: surveyProcessingItems.id, token: surveyProcessingItems.token });
    for (const r of inserted) ids.set(r.token, r.id);
  }
  return items.map(
    ({ row, decision, values }): AdmitOutcome => ({
      rowNumber: row.rowNumber,
      itemId: ids.get(values.token) ?? 0,
      status: decision.status,
      reason: decision.reason,
      scheduledAt: decision.scheduledAt,
    }),
  );
};
