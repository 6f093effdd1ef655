import { randomBytes } from 'node:crypto';
import type { ProcessingItemChannel, ProcessingItemStatus } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { lookups, settingsOf } from './admit-lookups.ts';
import { capPlacer, earliestSendTime, localDayOf } from './schedule.ts';
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

/** The channels a survey tries, in order. */
export function channelsOf(surveyChannel: string): ProcessingItemChannel[] {
  if (surveyChannel === 'sms') return ['sms'];
  if (surveyChannel === 'email_then_sms') return ['email', 'sms'];
  if (surveyChannel === 'sms_then_email') return ['sms', 'email'];
  return ['email'];
}

/** A processing item's own columns as admitRows writes them (the batch's shared ones are parameters). */
type ItemRow = {
  run_id: number | null;
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
  ['run_id', 'int'],
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
 * `count` survey tokens as `newSurveyToken` (modules/surveys/sample.ts) makes them, 32 random
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

export const admitRows: AdmitRows = (tx, ctx, rows, now) => admitRowsOfRuns(tx, ctx, rows, now, () => ctx.runId);

/**
 * admitRows with each row's item in the run `runOf(index)` names: the ingest API admits several
 * calls, each its own run, as one batch (docs/decisions/078-ingest-group-commit.md).
 */
export async function admitRowsOfRuns(
  tx: Db,
  ctx: AdmitContext,
  rows: NormalRow[],
  now: Date,
  runOf: (index: number) => number | null,
): Promise<AdmitOutcome[]> {
  if (rows.length === 0) return [];
  // One batch of a client at a time, until its transaction ends: the duplicate, over-survey and
  // daily-cap rules read what is already admitted, so two calls, a pull and an upload at once
  // would otherwise both schedule the same transaction or both take the cap's last places.
  // The statement that reads the settings takes the lock: one round trip fewer per batch. Settings
  // read as it began, before any wait for the lock, are as good as ones read a moment later; the
  // lookups, which must see what the lock's last holder admitted, are the next statement.
  const s = await settingsOf(tx, ctx, sql`pg_advisory_xact_lock(${ADMIT_LOCK}, ${ctx.clientId}::int)`);
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
  // A batch's rows share a few transaction days, and with them their earliest send time.
  const earliestOn = new Map<string, Date>();
  const earliestOf = (transactionDate: string) => {
    let earliest = earliestOn.get(transactionDate);
    if (!earliest) {
      earliest = earliestSendTime(transactionDate, now, s.sendDelayHours, s.timeZone);
      earliestOn.set(transactionDate, earliest);
    }
    return earliest;
  };
  const tokens = surveyTokens(rows.length);
  const items = rows.map((row, index) => {
    const decision = decide(row);
    if (decision.status === 'scheduled') {
      const earliest = earliestOf(row.transactionDate);
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
      run_id: runOf(index),
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
      insert into survey_processing_items (client_id, survey_id, data_feed_id, source, created_at, updated_at,
        ${sql.raw(ITEM_COLUMNS.map(([name]) => name).join(', '))})
      select ${ctx.clientId}::int, ${ctx.surveyId}::int, ${ctx.dataFeedId}::int, ${ctx.source}::text,
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
}
