import { bigint, bigserial, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { notificationLogs } from './notifications.ts';

/** A file sent with an e-mail, kept beside its NotificationLog row (the outbox's copy; Tracking Logs' detail). */
export const notificationAttachments = pgTable(
  'notification_attachments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    notificationId: bigint('notification_id', { mode: 'number' })
      .notNull()
      .references(() => notificationLogs.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    content: text('content').notNull(),
  },
  (t) => [index('notification_attachments_notification_idx').on(t.notificationId)],
);
