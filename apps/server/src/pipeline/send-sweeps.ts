import { and, inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { surveyProcessingItems } from '../db/schema/index.ts';
import type { Messenger, OutboundMessage, SendResult } from '../messaging/send.ts';
import { detailsOf, messageOf } from './send-render.ts';
import type { SurveySettingsAccess } from './types.ts';

/**
 * The send engine's sweeps over sent invitations (pipeline/send.ts runs them once the due ones are
 * drained): reminders due, then links expired.
 */

/**
 * Invitations the sweeps leave alone: Send test's (a test gets no reminder) and the demo data's,
 * whose story (answers, statuses) the seed wrote as of its own clock.
 */
const SWEPT_NOT = sql`('manual_test', 'demo')`;

export function createSweeps(
  db: Db,
  messenger: Messenger,
  surveySettings: SurveySettingsAccess,
  batchSize: number,
  sendAll: (messages: (OutboundMessage | string)[]) => Promise<(SendResult | null)[]>,
) {
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

  return { remind, expire };
}
