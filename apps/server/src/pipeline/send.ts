import type { ProcessingItemStatus } from '@admin/shared';
import { effectiveSurveySettings } from '@admin/shared/surveys/effective-settings';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { clients, locations, personnel, smsTemplates, surveyProcessingItems, surveys } from '../db/schema/index.ts';
import { invitationEmail, invitationSms } from '../messaging/invitation.ts';
import type { Messenger, OutboundMessage, SendResult } from '../messaging/send.ts';
import { findOne, recordOf } from '../modules/survey-settings/repository.ts';
import { toSurvey } from '../modules/surveys/repository.ts';
import { itemStatusOf } from '../modules/surveys/routes.ts';
import { backoffMs } from './queue.ts';
import type { Clock } from './types.ts';

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
/** Attempts before a transport error leaves the invitation `failed`. */
export const MAX_SEND_ATTEMPTS = 3;
/** Messages in flight at once within a batch. */
const CONCURRENCY = 8;

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

type Claimed = typeof surveyProcessingItems.$inferSelect;

/** What rendering an item needs besides the item: its survey, SMS template, location, personnel and client. */
async function detailsOf(db: Db, items: Claimed[]) {
  const ids = (values: (number | string | null)[]) => [...new Set(values.filter((v) => v !== null))];
  const surveyIds = ids(items.map((i) => i.surveyId)) as number[];
  const locationIds = ids(items.map((i) => i.locationId)) as string[];
  const personnelIds = ids(items.map((i) => i.personnelId)) as number[];
  const clientIds = ids(items.map((i) => i.clientId)) as number[];
  const [surveyRows, locationRows, personnelRows, clientRows] = await Promise.all([
    db.select().from(surveys).where(inArray(surveys.id, surveyIds)),
    locationIds.length
      ? db.select({ id: locations.id, name: locations.locationname }).from(locations).where(inArray(locations.id, locationIds))
      : [],
    personnelIds.length
      ? db
          .select({ id: personnel.id, first: personnel.firstName, last: personnel.lastName })
          .from(personnel)
          .where(inArray(personnel.id, personnelIds))
      : [],
    db.select({ id: clients.id, name: clients.name }).from(clients).where(inArray(clients.id, clientIds)),
  ]);
  const templateIds = ids(surveyRows.map((s) => s.smsTemplateId)) as number[];
  const templates = templateIds.length
    ? await db
        .select({ id: smsTemplates.id, clientId: smsTemplates.clientId, name: smsTemplates.name, body: smsTemplates.body })
        .from(smsTemplates)
        .where(inArray(smsTemplates.id, templateIds))
    : [];
  const settings = new Map<number, ReturnType<typeof recordOf>>();
  for (const clientId of clientIds) {
    const found = await findOne(db, clientId);
    if (found) settings.set(clientId, recordOf(found));
  }
  return {
    surveys: new Map(surveyRows.map((s) => [s.id, s])),
    locations: new Map(locationRows.map((l) => [l.id, l.name])),
    personnel: new Map(personnelRows.map((p) => [p.id, [p.first, p.last].filter(Boolean).join(' ')])),
    clients: new Map(clientRows.map((c) => [c.id, c.name])),
    templates: new Map(templates.map((t) => [t.id, t])),
    settings,
  };
}

type Details = Awaited<ReturnType<typeof detailsOf>>;

/** The message of one item by one channel, or why it cannot be made. */
function messageOf(
  item: Claimed,
  channel: 'email' | 'sms',
  kind: 'survey_invite' | 'survey_reminder',
  d: Details,
  messenger: Messenger,
): OutboundMessage | string {
  const survey = d.surveys.get(item.surveyId);
  if (!survey) return 'The survey no longer exists';
  const values = {
    firstName: item.firstName,
    locationName: item.locationId ? (d.locations.get(item.locationId) ?? null) : null,
    personnelName: item.personnelId ? (d.personnel.get(item.personnelId) ?? null) : null,
    businessName: d.clients.get(item.clientId) ?? survey.senderName,
    surveyLink: messenger.link(`/s/${item.token}`),
    unsubscribeLink: messenger.link(`/u/${item.token}`),
  };
  const common = {
    type: kind,
    clientId: item.clientId,
    locationId: item.locationId,
    related: { type: 'survey_processing_item', id: item.id },
  };
  if (channel === 'sms') {
    if (!item.phone) return 'No phone to text';
    const template = survey.smsTemplateId === null ? undefined : d.templates.get(survey.smsTemplateId);
    if (!template || (template.clientId !== null && template.clientId !== item.clientId)) return 'The survey has no SMS template';
    const name = kind === 'survey_reminder' ? `${template.name} (reminder)` : template.name;
    return { ...common, channel: 'sms', to: item.phone, template: name, text: invitationSms(template.body, values) };
  }
  if (!item.email) return 'No e-mail address';
  if (!survey.emailSubject || !survey.emailBody) return 'The survey has no e-mail subject or body';
  const settings = d.settings.get(item.clientId);
  const sending = settings ? effectiveSurveySettings(toSurvey(survey), settings) : null;
  const rendered = invitationEmail(survey, values);
  return {
    ...common,
    channel: 'email',
    to: item.email,
    ...rendered,
    subject: kind === 'survey_reminder' ? `Reminder: ${rendered.subject}` : rendered.subject,
    sender: sending ? { name: sending.senderName, address: sending.senderAddress } : null,
    replyTo: sending?.replyTo ?? null,
  };
}

/** Runs `work` over `items` with at most `limit` at once. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}

export function createSendEngine(db: Db, messenger: Messenger, clock: Clock, options: { batchSize?: number } = {}): SendEngine {
  const batchSize = options.batchSize ?? 500;

  /** Claims due invitations (or the ones named), moving `scheduled_at` a lease ahead. */
  async function claim(now: Date, ids: number[] | null): Promise<Claimed[]> {
    const at = now.toISOString();
    const which = ids
      ? sql`id in (select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::int) and status = 'scheduled'`
      : sql`status = 'scheduled' and scheduled_at <= ${at}::timestamptz`;
    const result = await db.execute(sql`
      update survey_processing_items set scheduled_at = ${new Date(now.getTime() + LEASE_MS).toISOString()}::timestamptz,
        attempts = attempts + 1, updated_at = ${at}::timestamptz
      where id in (select id from survey_processing_items where ${which} order by scheduled_at, id limit ${batchSize} for update skip locked)
      returning id`);
    const claimed = rowsOf(result).map((r) => Number(r.id));
    if (claimed.length === 0) return [];
    return db.select().from(surveyProcessingItems).where(inArray(surveyProcessingItems.id, claimed)).orderBy(surveyProcessingItems.id);
  }

  /** Sends one claimed invitation (with the e-mail → SMS fallback) and records how it ended. */
  async function sendOne(item: Claimed, d: Details, now: Date): Promise<SendOutcome> {
    const survey = d.surveys.get(item.surveyId);
    let message = messageOf(item, item.channel, 'survey_invite', d, messenger);
    let channel = item.channel;
    let result: SendResult | null = typeof message === 'string' ? null : await messenger.send(message);
    let error = result ? result.error : (message as string);
    // Fallback: e-mail refused or impossible → SMS, when the survey allows it and the customer opted in.
    const refused = result === null || result.status === 'suppressed';
    if (refused && channel === 'email' && survey?.channel === 'email_then_sms' && item.phone && item.smsOptIn) {
      message = messageOf(item, 'sms', 'survey_invite', d, messenger);
      if (typeof message !== 'string') {
        channel = 'sms';
        result = await messenger.send(message);
        error = result.error;
      }
    }
    let status: ProcessingItemStatus = result ? itemStatusOf(result) : 'failed';
    const linkDays = survey?.linkExpiresDays ?? 30;
    const base = { channel, lastError: error, updatedAt: now };
    if (status === 'sent') {
      await db
        .update(surveyProcessingItems)
        .set({ ...base, status, sentAt: now, scheduledAt: now, expiresAt: new Date(now.getTime() + linkDays * DAY_MS) })
        .where(eq(surveyProcessingItems.id, item.id));
    } else if (status === 'failed' && result !== null && item.attempts < MAX_SEND_ATTEMPTS) {
      // A transport error: try again after the back-off.
      status = 'scheduled';
      await db
        .update(surveyProcessingItems)
        .set({ ...base, status, scheduledAt: new Date(now.getTime() + backoffMs(item.attempts)) })
        .where(eq(surveyProcessingItems.id, item.id));
    } else {
      await db
        .update(surveyProcessingItems)
        .set({ ...base, status, scheduledAt: null, ...(status.startsWith('skipped_') ? { skipReason: error } : {}) })
        .where(eq(surveyProcessingItems.id, item.id));
    }
    return { itemId: item.id, status, error, notificationId: result?.id ?? null };
  }

  async function sendClaimed(items: Claimed[], now: Date): Promise<SendOutcome[]> {
    if (items.length === 0) return [];
    const d = await detailsOf(db, items);
    return pool(items, CONCURRENCY, (item) => sendOne(item, d, now));
  }

  /** Reminders due: sent, unanswered, not expired, fewer than the survey's count, the interval passed since the send. */
  async function remind(now: Date): Promise<number> {
    const at = now.toISOString();
    const result = await db.execute(sql`
      update survey_processing_items i set reminders_sent = i.reminders_sent + 1, updated_at = ${at}::timestamptz
      where i.id in (
        select p.id from survey_processing_items p join surveys s on s.id = p.survey_id
        where p.status in ('sent', 'delivered', 'opened', 'reminded') and p.reminders_sent < s.reminder_count
          and p.expires_at > ${at}::timestamptz
          and p.sent_at + make_interval(days => s.reminder_interval_days * (p.reminders_sent + 1)) <= ${at}::timestamptz
          and not exists (select 1 from survey_responses r where r.processing_item_id = p.id)
        order by p.sent_at, p.id limit ${batchSize} for update of p skip locked)
      returning i.id`);
    const ids = rowsOf(result).map((r) => Number(r.id));
    if (ids.length === 0) return 0;
    const items = await db.select().from(surveyProcessingItems).where(inArray(surveyProcessingItems.id, ids));
    const d = await detailsOf(db, items);
    await pool(items, CONCURRENCY, async (item) => {
      const message = messageOf(item, item.channel, 'survey_reminder', d, messenger);
      if (typeof message === 'string') return;
      const sent = await messenger.send(message);
      if (sent.status === 'sent') {
        await db.update(surveyProcessingItems).set({ status: 'reminded', updatedAt: now }).where(eq(surveyProcessingItems.id, item.id));
      }
    });
    return ids.length;
  }

  /** Links past `expires_at` that were never answered. */
  async function expire(now: Date): Promise<void> {
    await db
      .update(surveyProcessingItems)
      .set({ status: 'expired', updatedAt: now })
      .where(
        and(
          inArray(surveyProcessingItems.status, ['scheduled', 'sent', 'delivered', 'opened', 'reminded']),
          sql`${surveyProcessingItems.expiresAt} <= ${now.toISOString()}::timestamptz`,
          or(isNull(surveyProcessingItems.scheduledAt), sql`${surveyProcessingItems.scheduledAt} <= ${now.toISOString()}::timestamptz`),
        ),
      );
  }

  return {
    async run(now) {
      const sent = await sendClaimed(await claim(now, null), now);
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
      return sendClaimed(await claim(now, ids), now);
    },
  };
}
