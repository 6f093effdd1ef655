import { dataEnvelope, idParamSchema, type ProcessingItemStatus } from '@admin/shared';
import {
  cancelSchema,
  fixContactSchema,
  PROCESSING_ACTION_LABELS,
  PROCESSING_STATUS_LABELS,
  type ProcessingItemDetail,
  processingItemDetailSchema,
  processingItemResource,
  rescheduleSchema,
  UNSENT_STATUSES,
} from '@admin/shared/resources/survey-processing';
import { and, eq, inArray, isNull, lte, or, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { surveyProcessingItems as items } from '../../db/schema/index.ts';
import { everyClient, everyLocation, everyPerson, everySurvey } from '../../kit/options.ts';
import { readOnlyRoutes } from '../../kit/read-only-routes.ts';
import { conflict, fieldsRefused, notFound } from '../../lib/http-error.ts';
import { bulkRoutes } from './bulk.ts';
import { countItems, findItem, listPage } from './repository.ts';

const def = processingItemResource;
/** The actions' fields as the detail labels them; routes with a body carry them for the input guard (plugins/input-guard.ts). */
const labels = PROCESSING_ACTION_LABELS;
const config = { labels };
const detailAnswer = { 200: dataEnvelope(processingItemDetailSchema) };
/** Statuses a send can be (re)scheduled from: not gone out yet, and with a contact to send to. */
const SCHEDULABLE: ProcessingItemStatus[] = ['queued', 'scheduled', 'failed'];
/** Send now's answer when a worker's batch holds the invitation: sending it here too would send it twice. */
const BEING_SENT = 'This invitation is being sent right now: reload it in a moment to see how it went.';

/**
 * Survey Processing: read-mostly over the invitations (survey_processing_items). The list, export,
 * filter options and detail are the kit's read-only routes (kit/read-only-routes.ts; the filters'
 * options every client's, kit/options.ts); the module's actions change one invitation's
 * schedule or status, each audited with its before and after, and refuse (409) an invitation in a
 * status the action does not apply to.
 */
export const surveyProcessingRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(
    readOnlyRoutes(def, {
      list: listPage,
      count: countItems,
      exportAudit: { action: 'survey_processing.export', message: 'Exported survey processing items as CSV' },
      options: { client: everyClient, location: everyLocation, survey: everySurvey, personnel: everyPerson },
      detail: { schema: processingItemDetailSchema, find: findItem, what: 'Invitation' },
    }),
  );
  await app.register(bulkRoutes);

  const now = () => app.clock.now();

  async function itemOf(id: number): Promise<ProcessingItemDetail> {
    const found = await findItem(app.db, id);
    if (!found) throw notFound('Invitation');
    return found;
  }

  /** Refuses an action on an invitation whose status it does not apply to. */
  function requireStatus(item: ProcessingItemDetail, allowed: readonly ProcessingItemStatus[], action: string) {
    if (!allowed.includes(item.item_status))
      throw conflict(
        `This invitation is ${PROCESSING_STATUS_LABELS[item.item_status].toLowerCase()}: ${action} applies only to ${allowed
          .map((s) => PROCESSING_STATUS_LABELS[s].toLowerCase())
          .join(', ')} invitations.`,
      );
  }

  /**
   * Writes `values` on the invitation if it is still in one of `allowed` (a concurrent change makes
   * it a 409, not a silent overwrite), audits the change and answers the invitation as it now is.
   */
  async function change(
    request: FastifyRequest,
    before: ProcessingItemDetail,
    allowed: readonly ProcessingItemStatus[],
    values: Partial<typeof items.$inferInsert>,
    audit: { action: string; message: string },
    guard?: SQL,
  ): Promise<{ data: ProcessingItemDetail }> {
    const changed = await app.db
      .update(items)
      .set({ ...values, updatedAt: now() })
      .where(and(eq(items.id, before.id), inArray(items.status, [...allowed]), guard))
      .returning({ id: items.id });
    if (changed.length === 0) {
      await refuseBeingSent(before.id);
      throw conflict('This invitation changed meanwhile: reload it and try again.');
    }
    const after = await itemOf(before.id);
    await request.audit({
      ...audit,
      entityType: 'survey_processing_item',
      entityId: before.id,
      clientId: before.client_id,
      before: { status: before.item_status, scheduled_at: before.scheduled_at, skip_reason: before.skip_reason },
      after: { status: after.item_status, scheduled_at: after.scheduled_at, skip_reason: after.skip_reason, ...values },
    });
    return { data: after };
  }

  // Reschedule: a new send time after now.
  app.post(
    `${def.path}/:id/reschedule`,
    { config, schema: { params: idParamSchema, body: rescheduleSchema, response: detailAnswer } },
    async (request) => {
      const item = await itemOf(request.params.id);
      requireStatus(item, SCHEDULABLE, 'Reschedule');
      const at = new Date(request.body.scheduled_at);
      if (at.getTime() <= now().getTime())
        throw fieldsRefused({ scheduled_at: [`The ${labels.scheduled_at} field must be a date after now`] }, labels);
      return change(
        request,
        item,
        SCHEDULABLE,
        { status: 'scheduled', scheduledAt: at },
        { action: 'survey_processing.reschedule', message: `Rescheduled invitation ${item.id} for ${at.toISOString()}` },
        // Not one a worker's batch holds: the batch's outcome would overwrite the new time (decision 075).
        or(isNull(items.claimedUntil), lte(items.claimedUntil, now())),
      );
    },
  );

  // Cancel: not sent, with a note that becomes the skip reason.
  app.post(
    `${def.path}/:id/cancel`,
    { config, schema: { params: idParamSchema, body: cancelSchema, response: detailAnswer } },
    async (request) => {
      const item = await itemOf(request.params.id);
      requireStatus(item, UNSENT_STATUSES, 'Cancel');
      const { note } = request.body;
      return change(
        request,
        item,
        UNSENT_STATUSES,
        // A batch that holds it writes nothing over a cancel (pipeline/send.ts), so it is no longer held.
        { status: 'skipped_manual', skipReason: note, scheduledAt: null, claimedUntil: null },
        { action: 'survey_processing.cancel', message: `Cancelled invitation ${item.id}: ${note}` },
      );
    },
  );

  /**
   * Sends the invitation at once through the send engine (`app.sendEngine.sendItemsNow`, which
   * takes it only from `allowed` statuses and never while a worker's batch holds it), audits how it
   * went and answers the invitation as it now is.
   */
  async function sendNow(request: FastifyRequest, item: ProcessingItemDetail, action: string, what: string) {
    const [outcome] = await app.sendEngine.sendItemsNow([item.id]);
    if (!outcome) {
      await refuseBeingSent(item.id);
      throw conflict('This invitation changed meanwhile: reload it and try again.');
    }
    const after = await itemOf(item.id);
    await request.audit({
      action,
      message: `${what} invitation ${item.id}: ${PROCESSING_STATUS_LABELS[outcome.status]}${outcome.error ? ` (${outcome.error})` : ''}`,
      entityType: 'survey_processing_item',
      entityId: item.id,
      clientId: item.client_id,
      before: { status: item.item_status, scheduled_at: item.scheduled_at },
      after: { status: outcome.status, error: outcome.error, notification_id: outcome.notificationId },
    });
    return { data: after };
  }

  /** 409 when a worker's batch holds the invitation (claimed, not yet sent). */
  async function refuseBeingSent(id: number) {
    if ((await app.sendEngine.beingSent([id])).length > 0) throw conflict(BEING_SENT);
  }

  // Send now: a queued, scheduled or failed invitation goes out at once, whatever its time.
  app.post(`${def.path}/:id/send-now`, { schema: { params: idParamSchema, response: detailAnswer } }, async (request) => {
    const item = await itemOf(request.params.id);
    requireStatus(item, SCHEDULABLE, 'Send now');
    return sendNow(request, item, 'survey_processing.send_now', 'Sent now');
  });

  // Retry failed (one): sent again at once.
  app.post(`${def.path}/:id/retry`, { schema: { params: idParamSchema, response: detailAnswer } }, async (request) => {
    const item = await itemOf(request.params.id);
    requireStatus(item, ['failed'], 'Retry');
    return sendNow(request, item, 'survey_processing.retry', 'Retried');
  });

  // Fix contact & resend: the corrected e-mail and/or phone, then sent again now.
  app.post(
    `${def.path}/:id/fix-contact`,
    { config, schema: { params: idParamSchema, body: fixContactSchema, response: detailAnswer } },
    async (request) => {
      const item = await itemOf(request.params.id);
      const fixable = [...UNSENT_STATUSES];
      requireStatus(item, fixable, 'Fix contact');
      // Fixed while its batch is out, the invitation would go to the old contact and Send now be refused.
      await refuseBeingSent(item.id);
      const { email, phone } = request.body;
      // The channel follows the contact fixed: a phone alone sends a text, an e-mail alone an e-mail.
      const channel =
        email !== undefined && phone === undefined ? 'email' : phone !== undefined && email === undefined ? 'sms' : item.channel;
      // Never text a customer who did not opt in to SMS (TCPA); the form has no opt-in to record here.
      if (channel === 'sms' && !item.sms_opt_in)
        throw fieldsRefused({ phone: [`The ${labels.phone} can be texted only when the customer opted in to SMS`] }, labels);
      // Opt-outs and suppressions are not checked here: the messenger checks every send against them
      // (messaging/send.ts, refusalsOf) and the send engine records a refused one as skipped_opt_out or
      // skipped_suppressed with the reason (and an e-mail → SMS survey still falls back to an opted-in phone).
      await change(
        request,
        item,
        fixable,
        {
          ...(email !== undefined ? { email: email.toLowerCase() } : {}),
          ...(phone !== undefined ? { phone } : {}),
          channel,
          status: 'scheduled',
          scheduledAt: now(),
          skipReason: null,
        },
        { action: 'survey_processing.fix_contact', message: `Fixed the contact of invitation ${item.id}` },
      );
      return sendNow(request, await itemOf(item.id), 'survey_processing.send_now', 'Sent (after fixing the contact)');
    },
  );
};
