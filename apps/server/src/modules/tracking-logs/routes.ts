import {
  bigIdText,
  dataEnvelope,
  listEnvelope,
  NOTIFICATION_CHANNELS,
  type NotificationStatus,
  type NotificationType,
  notificationLogDetailSchema,
  notificationLogResource,
  optionsAnswerSchema,
  optionsQuerySchema,
} from '@admin/shared';
import { resendRefusal } from '@admin/shared/surveys/preview';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notificationLogs, surveyProcessingItems } from '../../db/schema/index.ts';
import { csvFileName, exportColumns, pagedRows, sendCsv } from '../../kit/csv.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import { clientOptions, countLogs, findLog, listPage } from './repository.ts';

const def = notificationLogResource;
const EXPORT_BATCH = 2000;

/** A test message's recipient: an address for e-mail, an E.164 phone for SMS (what the sender takes). */
const testMessageSchema = z
  .strictObject({ channel: z.enum(NOTIFICATION_CHANNELS), to: z.string().trim().min(1).max(320) })
  .superRefine((v, ctx) => {
    const ok = v.channel === 'email' ? z.email().safeParse(v.to).success : /^\+[1-9]\d{6,14}$/.test(v.to);
    if (!ok) {
      const message =
        v.channel === 'email' ? 'The to field must be a valid email' : 'The to field must be a phone in E.164 form (+15555550142)';
      ctx.addIssue({ code: 'custom', path: ['to'], message });
    }
  });

/**
 * Tracking Logs: read-only over the messages the sender wrote (apps/server/src/messaging). The
 * definition (packages/shared resources/notification-logs.ts) gives the schemas, sorts, columns and
 * CSV headers; the routes are this module's own rather than the kit's `resourceRoutes`, which
 * always adds create, edit and status routes. Every client's messages, unless the Clients filter
 * narrows them. Resend is here for failed survey invitations and reminders.
 */
export const trackingLogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    def.path,
    {
      schema: {
        querystring: def.listQuerySchema,
        response: { 200: listEnvelope(def.record).extend({ totalIsEstimate: z.boolean() }) },
      },
    },
    async (request) => {
      const q = request.query;
      const [{ rows, nextCursor }, totals] = await Promise.all([listPage(app.db, q, q.perPage), countLogs(app.db, q)]);
      return { data: rows, nextCursor, ...totals };
    },
  );

  app.get(`${def.path}/export`, { schema: { querystring: def.exportQuerySchema } }, async (request, reply) => {
    const { columns: chosen, cursor: _ignored, perPage: _perPage, ...q } = request.query;
    const columns = exportColumns(def.columns, chosen);
    const batches = pagedRows((cursor) => listPage(app.db, { ...q, ...(cursor ? { cursor } : {}) }, EXPORT_BATCH), columns);
    await request.audit({
      action: 'notification_logs.export',
      message: 'Exported tracking logs as CSV',
      entityType: 'notification_log',
      after: q,
    });
    return sendCsv(reply, csvFileName(def.screen), columns, batches);
  });

  // The Clients filter pages on the server as the user types (`optionsQuerySchema`).
  app.get(
    `${def.path}/options/client`,
    { schema: { querystring: optionsQuerySchema, response: { 200: optionsAnswerSchema } } },
    async (request) => clientOptions(app.db, request.query),
  );

  app.get(
    `${def.path}/:id`,
    { schema: { params: z.object({ id: bigIdText }), response: { 200: dataEnvelope(notificationLogDetailSchema) } } },
    async (request) => {
      const log = await findLog(app.db, request.params.id);
      if (!log) throw notFound('Message');
      return { data: log };
    },
  );

  /**
   * Sends a short `system` message through the configured transport and its checks, so staff can
   * see that the transport works (and browser tests have a message to show); audited.
   */
  app.post(
    `${def.path}/test-message`,
    { schema: { body: testMessageSchema, response: { 201: dataEnvelope(notificationLogDetailSchema) } } },
    async (request, reply) => {
      const { channel, to } = request.body;
      const result = await app.messenger.send(
        channel === 'email'
          ? {
              channel,
              type: 'system',
              to,
              subject: 'Test message from the admin console',
              text: 'This is a test message from the admin console. If you can read it, e-mail sending works.',
              html: '<p>This is a test message from the admin console.</p><p>If you can read it, e-mail sending works.</p>',
            }
          : { channel, type: 'system', to, template: 'test message', text: 'Test message from the admin console: SMS sending works.' },
      );
      await request.audit({
        action: 'notification_logs.test_message',
        message: `Sent a test ${channel === 'email' ? 'e-mail' : 'SMS'}: ${result.status}`,
        entityType: 'notification_log',
        entityId: result.id,
      });
      const log = await findLog(app.db, result.id);
      if (!log) throw notFound('Message');
      return reply.code(201).send({ data: log });
    },
  );

  /**
   * Resend: a failed or undelivered survey invitation or reminder goes out again as it was
   * rendered (subject, text, HTML), to the same recipient, through the messenger and so its checks:
   * an opted-out or suppressed recipient is refused and that refusal is the new row. Anything else
   * is a 409 naming why. The invitation's attempts and status follow the new message.
   */
  app.post(
    `${def.path}/:id/resend`,
    { schema: { params: z.object({ id: bigIdText }), response: { 201: dataEnvelope(notificationLogDetailSchema) } } },
    async (request, reply) => {
      const [row] = await app.db.select().from(notificationLogs).where(eq(notificationLogs.id, request.params.id)).limit(1);
      if (!row) throw notFound('Message');
      const refusal = resendRefusal({
        type: row.type as NotificationType,
        delivery_status: row.status as NotificationStatus,
        related_type: row.relatedType,
        related_id: row.relatedId,
      });
      if (refusal !== null) throw new HttpError(409, refusal);
      const common = {
        type: row.type as NotificationType,
        to: row.recipient,
        clientId: row.clientId,
        locationId: row.locationId,
        related: row.relatedType && row.relatedId ? { type: row.relatedType, id: row.relatedId } : null,
      };
      const result = await app.messenger.send(
        row.channel === 'email'
          ? { ...common, channel: 'email', subject: row.subjectOrTemplate, text: row.bodyText ?? '', html: row.bodyHtml }
          : { ...common, channel: 'sms', template: row.subjectOrTemplate, text: row.bodyText ?? '' },
      );
      const itemId = Number(row.relatedId);
      if (Number.isSafeInteger(itemId)) {
        await app.db
          .update(surveyProcessingItems)
          .set({
            attempts: sql`${surveyProcessingItems.attempts} + 1`,
            lastError: result.error,
            updatedAt: new Date(),
            ...(result.status === 'sent' ? { status: 'sent' as const, sentAt: new Date() } : {}),
          })
          .where(eq(surveyProcessingItems.id, itemId));
      }
      await request.audit({
        action: 'notification_logs.resend',
        message: `Resent message ${row.id} (${row.type}): ${result.status}`,
        clientId: row.clientId,
        entityType: 'notification_log',
        entityId: result.id,
        after: { source_id: row.id, status: result.status, error: result.error },
      });
      const log = await findLog(app.db, result.id);
      if (!log) throw notFound('Message');
      return reply.code(201).send({ data: log });
    },
  );
};
