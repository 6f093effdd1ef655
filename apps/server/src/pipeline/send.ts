import type { ProcessingItemStatus } from '@admin/shared';
import { and, inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { surveyProcessingItems } from '../db/schema/index.ts';
import type { Messenger, OutboundMessage, SendResult } from '../messaging/send.ts';
import { itemStatusOf } from './item-status.ts';
import { backoffMs } from './queue.ts';
import { type Claimed, detailsOf, messageOf, pausedOf } from './send-render.ts';
import type { Clock, SurveySettingsAccess } from './types.ts';

/**
 * The send engine (docs/pipeline.md): on each worker poll it claims the invitations that are due
 * (`scheduled`, `scheduled_at <= now`) a batch at a time with `FOR UPDATE SKIP LOCKED`, renders
 * them (messaging/invitation.ts) and sends them through the messenger, which checks opt-outs and
 * suppressions again and writes the NotificationLog row. The claim moves `scheduled_at` a lease
 * ahead, so a second worker does not see the batch as due, and a worker that dies leaves its
 * batch due again when the lease ends (at least once). Then reminders, then expiry.
 */

const DAY_MS = 86_400_000;
/** How long a claimed invitation is its worker's before another may send it. */
const LEASE_MS = 5 * 60_000;
/**
 * Invitations the sweeps leave alone: Send test's (a test gets no reminder) and the demo data's,
 * whose story (answers, statuses) the seed wrote as of its own clock.
 */
const SWEPT_NOT = sql`('manual_test', 'demo')`;
/** How often the reminder and expiry sweeps run at most (clock time). */
const SWEEP_EVERY_MS = 30_000;
/** Attempts before a transport error leaves the invitation `failed`. */
export const MAX_SEND_ATTEMPTS = 3;

export type SendOutcome = { itemId: number; status: ProcessingItemStatus; error: string | null; notificationId: number | null };

export type SendEngine = {
  /** One pass: due invitations (a batch), due reminders (a batch), expiry; answers how many were handled. */
  run(now: Date): Promise<number>;
  /**
   * Send now / Retry failed (Survey Processing): the invitations given, if `scheduled`, `queued`
   * or `failed`, sent at once whatever their time; the others are left as they are and not answered.
   */
  sendItemsNow(ids: number[]): Promise<SendOutcome[]>;
};

export function createSendEngine(
  db: Db,
  messenger: Messenger,
  clock: Clock,
  surveySettings: SurveySettingsAccess,
  options: { batchSize?: number } = {},
): SendEngine {
  const batchSize = options.batchSize ?? 500;
  let lastSweep: number | null = null;

  /** Claims due invitations (or the ones named), moving `scheduled_at` a lease ahead. */
  async function claim(now: Date, ids: number[] | null): Promise<Claimed[]> {
    const at = now.toISOString();
    const which = ids
      ? sql`id in (select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::int) and status = 'scheduled' and scheduled_at <= ${at}::timestamptz`
      : sql`status = 'scheduled' and scheduled_at <= ${at}::timestamptz`;
    const result = await db.execute(sql`
      update survey_processing_items set scheduled_at = ${new Date(now.getTime() + LEASE_MS).toISOString()}::timestamptz,
        attempts = attempts + 1, updated_at = ${at}::timestamptz
      where id in (select id from survey_processing_items where ${which} order by scheduled_at limit ${batchSize} for update skip locked)
      returning id`);
    const claimed = rowsOf(result).map((r) => Number(r.id));
    if (claimed.length === 0) return [];
    return db.select().from(surveyProcessingItems).where(inArray(surveyProcessingItems.id, claimed)).orderBy(surveyProcessingItems.id);
  }

  /**
   * The item columns an outcome sets, written for the whole batch in one statement; only to items
   * still claimed (`scheduled`), so one cancelled on screen while its batch was out stays cancelled.
   */
  async function record(
    rows: {
      id: number;
      status: ProcessingItemStatus;
      channel: string;
      error: string | null;
      scheduledAt: Date | null;
      sentAt: Date | null;
      expiresAt: Date | null;
      nextReminderAt: Date | null;
    }[],
    now: Date,
  ) {
    for (let i = 0; i < rows.length; i += 1000) {
      const values = JSON.stringify(
        rows.slice(i, i + 1000).map((r) => ({
          id: r.id,
          status: r.status,
          channel: r.channel,
          error: r.error,
          skip: r.status.startsWith('skipped_') ? r.error : null,
          scheduled: r.scheduledAt?.toISOString() ?? null,
          sent: r.sentAt?.toISOString() ?? null,
          expires: r.expiresAt?.toISOString() ?? null,
          reminder: r.nextReminderAt?.toISOString() ?? null,
        })),
      );
      await db.execute(sql`
        update survey_processing_items i set status = v.status, channel = v.channel, last_error = v.error,
          skip_reason = coalesce(v.skip, i.skip_reason), scheduled_at = v.scheduled, sent_at = coalesce(v.sent, i.sent_at),
          expires_at = coalesce(v.expires, i.expires_at), next_reminder_at = v.reminder, updated_at = ${now.toISOString()}::timestamptz
        from jsonb_to_recordset(${values}::jsonb) as v(id int, status text, channel text, error text, skip text, scheduled timestamptz, sent timestamptz, expires timestamptz, reminder timestamptz)
        where i.id = v.id and i.status = 'scheduled'`);
    }
  }

  /** Sends claimed invitations as one batch (with the e-mail → SMS fallback) and records how each ended. */
  async function sendClaimed(items: Claimed[], now: Date): Promise<SendOutcome[]> {
    if (items.length === 0) return [];
    const d = await detailsOf(db, surveySettings, items);
    const channels = items.map((item) => item.channel);
    const paused = items.map((item) => pausedOf(item, d));
    const messages = items.map((item, i) => paused[i] ?? messageOf(item, item.channel, 'survey_invite', d, messenger));
    const results = await sendAll(messages);
    // Fallback: e-mail refused or impossible → SMS, when the survey allows it and the customer opted in.
    const fallback = items.flatMap((item, i) => {
      const result = results[i];
      const refused = paused[i] === null && (result === null || result?.status === 'suppressed');
      const survey = d.surveys.get(item.surveyId);
      return refused && item.channel === 'email' && survey?.channel === 'email_then_sms' && item.phone && item.smsOptIn ? [i] : [];
    });
    if (fallback.length > 0) {
      const sms = fallback.map((i) => messageOf(items[i] as Claimed, 'sms', 'survey_invite', d, messenger));
      const smsResults = await sendAll(sms);
      fallback.forEach((i, j) => {
        if (typeof sms[j] === 'string') return;
        messages[i] = sms[j] as OutboundMessage;
        results[i] = smsResults[j] ?? null;
        channels[i] = 'sms';
      });
    }
    const outcomes = items.map((item, i) => {
      const result = results[i] ?? null;
      const message = messages[i];
      const error = result ? result.error : typeof message === 'string' ? message : null;
      const survey = d.surveys.get(item.surveyId);
      const linkDays = survey?.linkExpiresDays ?? 30;
      let status: ProcessingItemStatus = paused[i] ? 'skipped_paused' : result ? itemStatusOf(result) : 'failed';
      let scheduledAt: Date | null = null;
      // A transport error: try again after the back-off, until the attempts run out.
      if (status === 'failed' && result !== null && item.attempts < MAX_SEND_ATTEMPTS) {
        status = 'scheduled';
        scheduledAt = new Date(now.getTime() + backoffMs(item.attempts));
      }
      const sent = status === 'sent';
      return {
        id: item.id,
        status,
        channel: channels[i] ?? item.channel,
        error,
        scheduledAt: sent ? now : scheduledAt,
        sentAt: sent ? now : null,
        expiresAt: sent ? new Date(now.getTime() + linkDays * DAY_MS) : null,
        nextReminderAt: sent && survey && survey.reminderCount > 0 ? new Date(now.getTime() + survey.reminderIntervalDays * DAY_MS) : null,
        notificationId: result?.id ?? null,
      };
    });
    await record(outcomes, now);
    return outcomes.map((o) => ({ itemId: o.id, status: o.status, error: o.error, notificationId: o.notificationId }));
  }

  /** The messages that could be made, sent in one batch; null where there was none. */
  async function sendAll(messages: (OutboundMessage | string)[]): Promise<(SendResult | null)[]> {
    const real = messages.flatMap((m) => (typeof m === 'string' ? [] : [m]));
    const sent = await messenger.sendMany(real);
    let k = 0;
    return messages.map((m) => (typeof m === 'string' ? null : (sent[k++] ?? null)));
  }

  /**
   * Reminders due (`next_reminder_at` passed, read from its partial index): sent, unanswered, not
   * expired. Each one counted moves the next due time on by the survey's interval, or clears it
   * when the survey's count is reached.
   */
  async function remind(now: Date): Promise<number> {
    const at = now.toISOString();
    const result = await db.execute(sql`
      update survey_processing_items i set reminders_sent = i.reminders_sent + 1, updated_at = ${at}::timestamptz,
        next_reminder_at = case when i.reminders_sent + 1 < s.reminder_count
          then i.sent_at + make_interval(days => s.reminder_interval_days * (i.reminders_sent + 2)) end
      from surveys s
      where s.id = i.survey_id and i.id in (
        select p.id from survey_processing_items p
        where p.next_reminder_at <= ${at}::timestamptz and p.next_reminder_at is not null
          and p.status in ('sent', 'delivered', 'opened', 'reminded')
          and p.source not in ${SWEPT_NOT}
          and p.expires_at > ${at}::timestamptz
          -- Paused or archived since the send: no reminder until active again.
          and exists (select 1 from surveys ps join clients pc on pc.id = ps.client_id
            where ps.id = p.survey_id and ps.status = 'active' and pc.status = 'active')
          and not exists (select 1 from survey_responses r where r.processing_item_id = p.id)
        order by p.next_reminder_at, p.id limit ${batchSize} for update of p skip locked)
      returning i.id`);
    const ids = rowsOf(result).map((r) => Number(r.id));
    if (ids.length === 0) return 0;
    const items = await db.select().from(surveyProcessingItems).where(inArray(surveyProcessingItems.id, ids));
    const d = await detailsOf(db, surveySettings, items);
    const results = await sendAll(items.map((item) => messageOf(item, item.channel, 'survey_reminder', d, messenger)));
    const reminded = items.filter((_item, i) => results[i]?.status === 'sent').map((item) => item.id);
    if (reminded.length > 0) {
      // Only what still waits: one answered (or opened) while its reminder went out keeps that status.
      await db
        .update(surveyProcessingItems)
        .set({ status: 'reminded', updatedAt: now })
        .where(and(inArray(surveyProcessingItems.id, reminded), inArray(surveyProcessingItems.status, ['sent', 'delivered'])));
    }
    return ids.length;
  }

  /** Links past `expires_at` that were never answered (the statuses written out, so the expiry index's condition matches). */
  async function expire(now: Date): Promise<void> {
    const at = now.toISOString();
    await db.execute(sql`
      update survey_processing_items set status = 'expired', next_reminder_at = null, updated_at = ${at}::timestamptz
      where status in ('scheduled', 'sent', 'delivered', 'opened', 'reminded') and expires_at <= ${at}::timestamptz
        and source not in ${SWEPT_NOT} and (scheduled_at is null or scheduled_at <= ${at}::timestamptz)`);
  }

  return {
    async run(now) {
      const sent = await sendClaimed(await claim(now, null), now);
      // Reminders and expiry scan the sent invitations: once the due ones are drained, and at most every 30 s.
      const drained = sent.length < batchSize;
      if (!drained || (lastSweep !== null && Math.abs(now.getTime() - lastSweep) < SWEEP_EVERY_MS)) return sent.length;
      lastSweep = now.getTime();
      const reminded = await remind(now);
      await expire(now);
      return sent.length + reminded;
    },
    async sendItemsNow(ids) {
      if (ids.length === 0) return [];
      const now = clock.now();
      await db
        .update(surveyProcessingItems)
        .set({ status: 'scheduled', scheduledAt: now, attempts: 0, updatedAt: now })
        .where(and(inArray(surveyProcessingItems.id, ids), inArray(surveyProcessingItems.status, ['scheduled', 'queued', 'failed'])));
      // A batch at a time; an item a transport error put back for later is not claimed again here.
      const outcomes: SendOutcome[] = [];
      for (;;) {
        const claimed = await claim(now, ids);
        if (claimed.length === 0) return outcomes;
        outcomes.push(...(await sendClaimed(claimed, now)));
      }
    },
  };
}
