import {
  bigIdText,
  dataEnvelope,
  NOTIFICATION_CHANNELS,
  type NotificationStatus,
  type NotificationType,
  notificationLogDetailSchema,
  notificationLogResource,
} from '@admin/shared';
import { resendRefusal } from '@admin/shared/surveys/preview';
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notificationLogs, surveyProcessingItems } from '../../db/schema/index.ts';
import { readOnlyRoutes } from '../../kit/read-only-routes.ts';
import { HttpError, notFound } from '../../lib/http-error.ts';
import { clientOptions, countLogs, findLog, listPage } from './repository.ts';

const def = notificationLogResource;

/** A test message's recipient: an address for e-mail, an E.164 phone for SMS (what the sender takes). */
const testMessageSchema = z
  .strictObject({ channel: z.enum(NOTIFICATION_CHANNELS), to: z.string().trim().min(1).max(320) })
  .superRefine((v, ctx) => {
    const ok = v.channel === 'email' ? z.email().safeParse(v.to).success : /^\+[1-9]\d{6,14}$/.test(v.to);
    if (!ok) {
      const message =
        v.channel === 'email' ? 'The To field must be a valid email' : 'The To field must be a phone in E.164 form (+15555550142)';
      ctx.addIssue({ code: 'custom', path: ['to'], message });
    }
  });

/**
 * Tracking Logs: read-only over the messages the sender wrote (apps/server/src/messaging). The
 * definition (packages/shared resources/notification-logs.ts) gives the schemas, sorts, columns and
 * CSV headers; the list, export, Clients filter options and detail are the kit's read-only routes
 * (kit/read-only-routes.ts). Every client's messages, unless the Clients filter narrows them. A
 * test message and Resend (of failed survey invitations and reminders) are this module's own.
 */
export const trackingLogRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(
    readOnlyRoutes(def, {
      list: listPage,
      count: countLogs,
      exportAudit: { action: 'notification_logs.export', message: 'Exported tracking logs as CSV' },
      options: { client: clientOptions },
      detail: { schema: notificationLogDetailSchema, params: z.object({ id: bigIdText }), find: findLog, what: 'Message' },
    }),
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
