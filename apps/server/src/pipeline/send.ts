import type { ProcessingItemStatus } from '@admin/shared';
import { and, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { surveyProcessingItems } from '../db/schema/index.ts';
import type { Messenger, OutboundMessage, SendResult } from '../messaging/send.ts';
import { itemStatusOf } from './item-status.ts';
import { keepRenewed, NO_RENEWAL, RENEW_EVERY_MS } from './lease-renewal.ts';
import { backoffMs } from './queue.ts';
import { type Claimed, type Details, detailsOf, messageOf, pausedOf } from './send-render.ts';
import { earlierSends, resumeEarlier } from './send-resume.ts';
import { createSweeps } from './send-sweeps.ts';
import type { Clock, SurveySettingsAccess } from './types.ts';

/**
 * The send engine (docs/pipeline.md): on each worker poll it claims the invitations that are due
 * (`scheduled`, `scheduled_at <= now`) a batch at a time with `FOR UPDATE SKIP LOCKED`, renders
 * them (messaging/invitation.ts) and sends them through the messenger, which checks opt-outs and
 * suppressions again and writes the NotificationLog row. The claim moves `scheduled_at` a lease
 * ahead, so a second worker does not see the batch as due, and a worker that dies leaves its
 * batch due again when the lease ends (at least once); `claimed_until` says the same to Send now,
 * which refuses an invitation a batch holds, and is renewed while the batch is out
 * (docs/decisions/075-send-claims.md). Then reminders, then expiry.
 */

const DAY_MS = 86_400_000;
/** How long a claimed invitation is its worker's before another may send it. */
const LEASE_MS = 5 * 60_000;
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
   * or `failed`, sent at once whatever their time; the others (and those a batch holds) are left
   * as they are and not answered.
   */
  sendItemsNow(ids: number[]): Promise<SendOutcome[]>;
  /** Of the invitations given, those a batch holds now (claimed, not yet sent): Send now refuses them. */
  beingSent(ids: number[]): Promise<number[]>;
};

export type SendEngineOptions = {
  batchSize?: number;
  /** How often a batch's lease is renewed while it is out (real ms); null: never (the demo seed's transaction). */
  renewEveryMs?: number | null;
};

/** The ids as a subquery's list, for statements over a batch. */
const idList = (ids: number[]) => sql`(select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::int)`;

export function createSendEngine(
  db: Db,
  messenger: Messenger,
  clock: Clock,
  surveySettings: SurveySettingsAccess,
  options: SendEngineOptions = {},
): SendEngine {
  const batchSize = options.batchSize ?? 500;
  const renewEveryMs = options.renewEveryMs === undefined ? RENEW_EVERY_MS : options.renewEveryMs;
  let lastSweep: number | null = null;

  /** Claims due invitations (or the ones named), moving `scheduled_at` and `claimed_until` a lease ahead. */
  async function claim(now: Date, ids: number[] | null): Promise<Claimed[]> {
    const at = now.toISOString();
    const lease = new Date(now.getTime() + LEASE_MS).toISOString();
    const which = ids
      ? sql`id in ${idList(ids)} and status = 'scheduled' and scheduled_at <= ${at}::timestamptz`
      : sql`status = 'scheduled' and scheduled_at <= ${at}::timestamptz`;
    const result = await db.execute(sql`
      update survey_processing_items set scheduled_at = ${lease}::timestamptz, claimed_until = ${lease}::timestamptz,
        attempts = attempts + 1, updated_at = ${at}::timestamptz
      where id in (select id from survey_processing_items where ${which} order by scheduled_at limit ${batchSize} for update skip locked)
      returning id`);
    const claimed = rowsOf(result).map((r) => Number(r.id));
    if (claimed.length === 0) return [];
    return db.select().from(surveyProcessingItems).where(inArray(surveyProcessingItems.id, claimed)).orderBy(surveyProcessingItems.id);
  }

  /**
   * Pushes the lease of a batch's invitations still held ahead, from the clock's now, every
   * `renewEveryMs` until stopped, so a batch behind a slow transport is neither due again for
   * another worker nor open to Send now. A failed renewal is tried again at the next tick (the
   * batch's own writes report a database that stays down).
   */
  function renewLease(ids: number[]) {
    if (renewEveryMs === null || renewEveryMs <= 0) return NO_RENEWAL;
    return keepRenewed(
      async () => {
        const lease = new Date(clock.now().getTime() + LEASE_MS).toISOString();
        await db.execute(sql`
          update survey_processing_items set scheduled_at = ${lease}::timestamptz, claimed_until = ${lease}::timestamptz
          where id in ${idList(ids)} and status = 'scheduled' and claimed_until is not null`);
      },
      renewEveryMs,
      () => undefined,
    );
  }

  /**
   * The item columns an outcome sets, written for the whole batch in one statement; only to items
   * still claimed (`scheduled`), so one cancelled on screen while its batch was out stays cancelled;
   * the claim ends (`claimed_until` cleared).
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
          expires_at = coalesce(v.expires, i.expires_at), next_reminder_at = v.reminder, claimed_until = null, updated_at = ${now.toISOString()}::timestamptz
        from jsonb_to_recordset(${values}::jsonb) as v(id int, status text, channel text, error text, skip text, scheduled timestamptz, sent timestamptz, expires timestamptz, reminder timestamptz)
        where i.id = v.id and i.status = 'scheduled'`);
    }
  }

  /** Sends claimed invitations as one batch (with the e-mail → SMS fallback) and records how each ended. */
  async function sendClaimed(items: Claimed[], now: Date): Promise<SendOutcome[]> {
    if (items.length === 0) return [];
    const renewal = renewLease(items.map((item) => item.id));
    let outcomes: Awaited<ReturnType<typeof sendHeld>>;
    try {
      outcomes = await sendHeld(items, now);
    } finally {
      // Stopped before the outcomes are written (or when the batch failed), so no renewal follows them.
      await renewal.stop();
    }
    await record(outcomes, now);
    return outcomes.map((o) => ({ itemId: o.id, status: o.status, error: o.error, notificationId: o.notificationId }));
  }

  /**
   * The messages of a claimed batch sent, and how each ended (to be recorded). An invitation an
   * earlier claim already wrote (its worker died before recording it) is finished, not sent again
   * (pipeline/send-resume.ts).
   */
  async function sendHeld(claimed: Claimed[], now: Date) {
    const d = await detailsOf(db, surveySettings, claimed);
    const earlier = await earlierSends(db, claimed);
    const resumed = await resumeEarlier(messenger, claimed, earlier, d, now);
    const items = claimed.filter((item) => !earlier.has(item.id));
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
    const sent = items.map((item, i) => {
      const result = results[i] ?? null;
      const message = messages[i];
      const error = result ? result.error : typeof message === 'string' ? message : null;
      return outcomeOf(item, { result, error, channel: channels[i] ?? item.channel, paused: paused[i] !== null, sentAt: now }, d, now);
    });
    return [...sent, ...resumed.map((r) => outcomeOf(r.item, { ...r, paused: false }, d, now))];
  }

  /** How one invitation ended, as `record` writes it: a transport error is tried again after the back-off. */
  function outcomeOf(
    item: Claimed,
    o: { result: SendResult | null; error: string | null; channel: string; paused: boolean; sentAt: Date },
    d: Details,
    now: Date,
  ) {
    const survey = d.surveys.get(item.surveyId);
    const linkDays = survey?.linkExpiresDays ?? 30;
    let status: ProcessingItemStatus = o.paused ? 'skipped_paused' : o.result ? itemStatusOf(o.result) : 'failed';
    let scheduledAt: Date | null = null;
    if (status === 'failed' && o.result !== null && item.attempts < MAX_SEND_ATTEMPTS) {
      status = 'scheduled';
      scheduledAt = new Date(now.getTime() + backoffMs(item.attempts));
    }
    const sent = status === 'sent';
    return {
      id: item.id,
      status,
      channel: o.channel,
      error: o.error,
      scheduledAt: sent ? o.sentAt : scheduledAt,
      sentAt: sent ? o.sentAt : null,
      expiresAt: sent ? new Date(o.sentAt.getTime() + linkDays * DAY_MS) : null,
      nextReminderAt:
        sent && survey && survey.reminderCount > 0 ? new Date(o.sentAt.getTime() + survey.reminderIntervalDays * DAY_MS) : null,
      notificationId: o.result?.id ?? null,
    };
  }

  /** The messages that could be made, sent in one batch; null where there was none. */
  async function sendAll(messages: (OutboundMessage | string)[]): Promise<(SendResult | null)[]> {
    const real = messages.flatMap((m) => (typeof m === 'string' ? [] : [m]));
    const sent = await messenger.sendMany(real);
    let k = 0;
    return messages.map((m) => (typeof m === 'string' ? null : (sent[k++] ?? null)));
  }

  const sweeps = createSweeps(db, messenger, surveySettings, batchSize, sendAll);

  return {
    async run(now) {
      const sent = await sendClaimed(await claim(now, null), now);
      // Reminders and expiry scan the sent invitations: once the due ones are drained, and at most every 30 s.
      const drained = sent.length < batchSize;
      if (!drained || (lastSweep !== null && Math.abs(now.getTime() - lastSweep) < SWEEP_EVERY_MS)) return sent.length;
      lastSweep = now.getTime();
      const reminded = await sweeps.remind(now);
      await sweeps.expire(now);
      return sent.length + reminded;
    },
    async sendItemsNow(ids) {
      if (ids.length === 0) return [];
      const now = clock.now();
      // Not one a batch holds: it is going out already, and taking it here would send it twice. A
      // worker may still claim it between this update and the claim below; whichever claim comes
      // first holds it, and the other finds it no longer due, so exactly one of the two sends it.
      await db
        .update(surveyProcessingItems)
        .set({ status: 'scheduled', scheduledAt: now, claimedUntil: null, attempts: 0, updatedAt: now })
        .where(
          and(
            inArray(surveyProcessingItems.id, ids),
            inArray(surveyProcessingItems.status, ['scheduled', 'queued', 'failed']),
            or(isNull(surveyProcessingItems.claimedUntil), lte(surveyProcessingItems.claimedUntil, now)),
          ),
        );
      // A batch at a time; an item a transport error put back for later is not claimed again here.
      const outcomes: SendOutcome[] = [];
      for (;;) {
        const claimed = await claim(now, ids);
        if (claimed.length === 0) return outcomes;
        outcomes.push(...(await sendClaimed(claimed, now)));
      }
    },
    async beingSent(ids) {
      if (ids.length === 0) return [];
      const held = await db
        .select({ id: surveyProcessingItems.id })
        .from(surveyProcessingItems)
        .where(
          and(
            inArray(surveyProcessingItems.id, ids),
            eq(surveyProcessingItems.status, 'scheduled'),
            gt(surveyProcessingItems.claimedUntil, clock.now()),
          ),
        );
      return held.map((h) => h.id);
    },
  };
}
