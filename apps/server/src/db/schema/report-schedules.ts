import type { PerformanceScheduleFilters } from '@admin/shared';
import { bigint, bigserial, date, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';

/**
 * A report and its filters e-mailed on a weekly or monthly schedule (packages/shared
 * reports/schedules.ts). `last_*` repeat the latest run so the list needs no join.
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id),
    name: text('name').notNull(),
    report: text('report').notNull(),
    /** The report's query without its date range, as the report's own reader takes it. */
    filters: jsonb('filters').$type<PerformanceScheduleFilters>().notNull().default({}),
    recipients: text('recipients').array().notNull().default([]),
    frequency: text('frequency').notNull(),
    weekday: text('weekday'),
    dayOfMonth: integer('day_of_month'),
    hour: integer('hour').notNull(),
    timezone: text('timezone').notNull(),
    status: text('status').notNull().default('active'),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    lastStatus: text('last_status'),
    lastPeriodStart: date('last_period_start'),
    lastPeriodEnd: date('last_period_end'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('report_schedules_client_idx').on(t.clientId, t.status)],
);

/**
 * One send of a schedule for one period: the claim that makes it happen once (unique on schedule
 * and period start, as the alert digests' rows are), then its outcome. `attempt` grows when a
 * person sends a sent period again; its messages are related to `<run id>.<attempt>`.
 */
export const reportScheduleRuns = pgTable(
  'report_schedule_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    scheduleId: integer('schedule_id')
      .notNull()
      .references(() => reportSchedules.id, { onDelete: 'cascade' }),
    periodStart: date('period_start').notNull(),
    periodEnd: date('period_end').notNull(),
    status: text('status').notNull(),
    attempt: integer('attempt').notNull().default(1),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    error: text('error'),
    notificationIds: bigint('notification_ids', { mode: 'number' }).array().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('report_schedule_runs_once_uq').on(t.scheduleId, t.periodStart)],
);
