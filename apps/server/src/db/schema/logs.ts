import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Application and audit log (System Logs screen). Rows are only ever inserted, except the sign-in
 * refusal summary of one address and window, which counts on in place (docs/decisions/012).
 */
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
  // One index per allowed sort and filter, each ending in (at, id), so keyset pages in time
  // order stay index walks with any one filter applied.
  (t) => [
    index('system_logs_at_idx').on(t.at, t.id),
    index('system_logs_level_at_idx').on(t.level, t.at, t.id),
    index('system_logs_service_at_idx').on(t.service, t.at, t.id),
    index('system_logs_actor_at_idx').on(t.actorUserId, t.at, t.id),
    index('system_logs_client_at_idx').on(t.clientId, t.at, t.id),
    index('system_logs_entity_at_idx').on(t.entityType, t.at, t.id),
  ],
);
