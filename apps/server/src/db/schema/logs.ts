import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Application and audit log (System Logs screen). Rows are only ever inserted. */
export const systemLogs = pgTable(
  'system_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    level: text('level').notNull(),
    service: text('service').notNull(),
    action: text('action').notNull(),
    message: text('message').notNull(),
    actorUserId: integer('actor_user_id'),
    clientId: integer('client_id'),
    entityType: text('entity_type'),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    requestId: text('request_id'),
    ip: text('ip'),
  },
  (t) => [index('system_logs_at_idx').on(t.at, t.id), index('system_logs_level_at_idx').on(t.level, t.at, t.id)],
);
