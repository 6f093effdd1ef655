import { SURVEY_SETTINGS_DEFAULTS as D } from '@admin/shared';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { clients } from './clients.ts';
import { surveys } from './surveys.ts';

/**
 * A client's survey programme settings (docs/screens.md, Survey Admin), 1:1 with the client. A
 * client without a row has the platform defaults (`SURVEY_SETTINGS_DEFAULTS` in packages/shared,
 * which the column defaults repeat); the row is written at the first save, deleted by a reset.
 * `domain_verified` and `domain_checked_at` are the last DNS check of `sending_domain`.
 */
export const clientSurveySettings = pgTable(
  'client_survey_settings',
  {
    clientId: integer('client_id')
      .primaryKey()
      .references(() => clients.id),
    fromName: text('from_name').notNull(),
    fromEmail: text('from_email').notNull(),
    replyTo: text('reply_to'),
    sendingDomain: text('sending_domain'),
    domainVerified: boolean('domain_verified').notNull().default(false),
    domainCheckedAt: timestamp('domain_checked_at', { withTimezone: true }),
    quietHoursStart: text('quiet_hours_start').notNull().default(D.quiet_hours_start),
    quietHoursEnd: text('quiet_hours_end').notNull().default(D.quiet_hours_end),
    sendDays: text('send_days')
      .array()
      .notNull()
      .default(sql.raw(`'{${D.send_days.join(',')}}'::text[]`)),
    dailyCapPerLocation: integer('daily_cap_per_location').notNull().default(D.daily_cap_per_location),
    overSurveyDays: integer('over_survey_days').notNull().default(D.over_survey_days),
    /** One of the client's surveys, not archived (checked by the Survey Admin routes). */
    defaultSurveyId: integer('default_survey_id').references(() => surveys.id),
    logoUrl: text('logo_url'),
    brandColor: text('brand_color'),
    smsSender: text('sms_sender'),
    smsEnabled: boolean('sms_enabled').notNull().default(D.sms_enabled),
    tcpaConsentSource: text('tcpa_consent_source'),
    unsubscribeFooter: text('unsubscribe_footer').notNull().default(D.unsubscribe_footer),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('client_survey_settings_verified_idx').on(t.domainVerified)],
);
