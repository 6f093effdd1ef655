import { z } from 'zod';
import { bodyId, idFilterItem } from '../api/ids.ts';
import { defineResource, type Option } from '../api/resource.ts';
import { exportMoment } from '../api/zoned-time.ts';
import { LOCATION_ID } from './locations.ts';
import { maskRecipient } from './notification-logs.ts';
import {
  PROCESSING_ITEM_CHANNELS,
  PROCESSING_ITEM_SOURCES,
  PROCESSING_ITEM_STATUSES,
  type ProcessingItemChannel,
  type ProcessingItemStatus,
} from './surveys.ts';

/**
 * Survey Processing (docs/screens.md, Survey Processing): every invitation a feed row, the ingest
 * API, a test or the demo data made, where it stands and why. Read-mostly: the list is the kit's
 * read-only list over `survey_processing_items`; Send now, Reschedule, Cancel, Retry failed and
 * Fix contact & resend are the module's own actions, each audited. E-mail and phone leave the
 * server masked in the list and the CSV (`maskRecipient`), in full only in the detail.
 */
export const PROCESSING_STATUS_LABELS: Record<ProcessingItemStatus, string> = {
  queued: 'Queued',
  scheduled: 'Scheduled',
  sent: 'Sent',
  delivered: 'Delivered',
  opened: 'Opened',
  responded: 'Responded',
  reminded: 'Reminded',
  expired: 'Expired',
  skipped_duplicate: 'Skipped: duplicate',
  skipped_over_survey: 'Skipped: over-survey',
  skipped_opt_out: 'Skipped: opted out',
  skipped_suppressed: 'Skipped: suppressed',
  skipped_paused: 'Skipped: paused',
  skipped_manual: 'Cancelled',
  invalid_contact: 'Invalid contact',
  failed: 'Failed',
};
export const PROCESSING_CHANNEL_LABELS: Record<ProcessingItemChannel, string> = { email: 'E-mail', sms: 'SMS' };

/** Statuses an invitation may still be cancelled, rescheduled or sent now from: it has not gone out. */
export const UNSENT_STATUSES = ['queued', 'scheduled', 'failed', 'invalid_contact'] as const satisfies readonly ProcessingItemStatus[];
export const isUnsent = (status: ProcessingItemStatus): boolean => UNSENT_STATUSES.some((s) => s === status);

/** The Customer column: the name as the row gave it, then the (masked) e-mail and phone. */
export const customerOf = (r: { customer: string; email: string | null; phone: string | null }): string =>
  [r.customer, r.email, r.phone].filter((v): v is string => v !== null && v !== '').join(' · ');

/** Masked contact as every list shows it (`j***@example.com`). */
export const maskedOrNull = (value: string | null): string | null => (value === null ? null : maskRecipient(value));

export const processingItemSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  client_id: z.number().int(),
  client_name: z.string().nullable(),
  /** The client's time zone (IANA): the invitation's times are shown in it (formatMoment). */
  client_timezone: z.string().nullable(),
  location_id: z.string().nullable(),
  location_name: z.string().nullable(),
  /** First and last name as the row gave them. */
  customer: z.string(),
  /** Masked (`maskRecipient`); the detail has it in full. */
  email: z.string().nullable(),
  phone: z.string().nullable(),
  transaction_id: z.string().nullable(),
  transaction_date: z.string().nullable(),
  personnel_id: z.number().int().nullable(),
  personnel_name: z.string().nullable(),
  product_name: z.string().nullable(),
  referral_source_name: z.string().nullable(),
  survey_id: z.number().int(),
  survey_name: z.string().nullable(),
  channel: z.enum(PROCESSING_ITEM_CHANNELS),
  scheduled_at: z.string().nullable(),
  sent_at: z.string().nullable(),
  attempts: z.number().int(),
  /**
   * Where the invitation stands. Not named `status`: in the console's kit a record's `status` is
   * the active/paused/archived lifecycle, which an invitation does not have.
   */
  item_status: z.enum(PROCESSING_ITEM_STATUSES),
  /** Why it was skipped, cancelled (the note) or is invalid; the provider's error when failed. */
  reason: z.string().nullable(),
  source: z.enum(PROCESSING_ITEM_SOURCES),
});
export type ProcessingItem = z.infer<typeof processingItemSchema>;

/** A message sent for the invitation (Tracking Logs' row), oldest first. */
export const processingMessageSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  channel: z.string(),
  type: z.string(),
  recipient: z.string(),
  subject_or_template: z.string(),
  delivery_status: z.string(),
  error: z.string().nullable(),
});
export type ProcessingMessage = z.infer<typeof processingMessageSchema>;

/** The detail drawer: the row as received, the mapping's result in full, the rule's outcome, the messages. */
export const processingItemDetailSchema = processingItemSchema.extend({
  first_name: z.string(),
  last_name: z.string().nullable(),
  email_full: z.string().nullable(),
  phone_full: z.string().nullable(),
  amount: z.string().nullable(),
  sms_opt_in: z.boolean(),
  data_feed_id: z.number().int().nullable(),
  run_id: z.number().int().nullable(),
  row_number: z.number().int().nullable(),
  raw: z.record(z.string(), z.string()).nullable(),
  skip_reason: z.string().nullable(),
  last_error: z.string().nullable(),
  reminders_sent: z.number().int(),
  expires_at: z.string(),
  messages: z.array(processingMessageSchema),
});
export type ProcessingItemDetail = z.infer<typeof processingItemDetailSchema>;

const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * The actions' fields as the detail's inputs label them (Send at, Email, Phone, Note) and as Retry
 * failed names what it retries: the definition has no fields, so the page's inputs, the schemas'
 * messages and the server's 422s all read these.
 */
export const PROCESSING_ACTION_LABELS = {
  scheduled_at: 'Send at',
  email: 'Email',
  phone: 'Phone',
  note: 'Note',
  ids: 'Invitations',
  filter: 'Filter',
  confirmed: 'Confirmed count',
} as const satisfies Record<string, string>;
const L = PROCESSING_ACTION_LABELS;

/** Reschedule: a moment after now (ISO 8601 with its offset, as the form sends the picked local time). */
export const rescheduleSchema = z.strictObject({
  scheduled_at: z.iso.datetime({ offset: true, message: `The ${L.scheduled_at} field must be a date and time (yyyy-MM-ddTHH:mm)` }),
});
/** Cancel: the note says why; it becomes the item's skip reason. */
export const cancelSchema = z.strictObject({
  note: z.string().trim().min(1, `The ${L.note} field is required`).max(500, `The ${L.note} field may not be greater than 500 characters`),
});
/** Fix contact & resend: a corrected e-mail and/or phone (domain rules: `email|max:254`, E.164). */
export const fixContactSchema = z
  .strictObject({
    email: z
      .email(`The ${L.email} field must be a valid email`)
      .max(254, `The ${L.email} field may not be greater than 254 characters`)
      .optional(),
    phone: z.string().regex(E164, `The ${L.phone} field must be a phone in international format, e.g. +13035550142`).optional(),
  })
  .refine((v) => v.email !== undefined || v.phone !== undefined, {
    message: `The ${L.email} or ${L.phone} field is required`,
    path: ['email'],
  });

/** Which date the date range filters on. */
export const PROCESSING_DATE_FIELDS = [
  { value: 'received', label: 'Received' },
  { value: 'sent', label: 'Sent' },
] as const satisfies readonly Option[];

export const processingItemResource = defineResource({
  name: 'survey_processing_item',
  noun: 'invitation',
  plural: 'invitations',
  // The original's call (`GET survey-processing`), kept as its path.
  path: '/api/survey-processing',
  screen: 'survey-processing',
  // Every client's invitations unless the Clients filter narrows them (as Tracking Logs).
  scope: 'filterable-clients',
  record: processingItemSchema,
  fields: {},
  columns: {
    created_at: { label: 'Received at', sortable: true, format: (r) => exportMoment(r.created_at, r.client_timezone) },
    client_name: { label: 'Client' },
    location_name: { label: 'Location' },
    // A Send test's invitation says so in the CSV too (the screen shows a badge).
    customer: { label: 'Customer', format: (r) => (r.source === 'manual_test' ? `Test send · ${customerOf(r)}` : customerOf(r)) },
    transaction_id: { label: 'Transaction id' },
    transaction_date: { label: 'Transaction date', defaultVisible: false },
    personnel_name: { label: 'Personnel', defaultVisible: false },
    product_name: { label: 'Product', defaultVisible: false },
    referral_source_name: { label: 'Referral source', defaultVisible: false },
    survey_name: { label: 'Survey', defaultVisible: false },
    channel: { label: 'Channel', format: (r) => PROCESSING_CHANNEL_LABELS[r.channel], defaultVisible: false },
    scheduled_at: { label: 'Scheduled for', defaultVisible: false, format: (r) => exportMoment(r.scheduled_at, r.client_timezone) },
    sent_at: { label: 'Sent at', defaultVisible: false, format: (r) => exportMoment(r.sent_at, r.client_timezone) },
    attempts: { label: 'Attempts', defaultVisible: false },
    status: { label: 'Status', format: (r) => PROCESSING_STATUS_LABELS[r.item_status] },
    reason: { label: 'Skip/error reason' },
  },
  filters: {
    // Their options are paged on the server: `GET /api/survey-processing/options/<filter>`.
    client: { kind: 'multi', label: 'Clients', item: idFilterItem },
    location: { kind: 'multi', label: 'Locations', item: z.string().regex(LOCATION_ID) },
    survey: { kind: 'multi', label: 'Surveys', item: idFilterItem },
    status: {
      kind: 'multi',
      label: 'Status',
      options: PROCESSING_ITEM_STATUSES.map((s) => ({ value: s, label: PROCESSING_STATUS_LABELS[s] })),
    },
    channel: {
      kind: 'choice',
      label: 'Channel',
      options: PROCESSING_ITEM_CHANNELS.map((c) => ({ value: c, label: PROCESSING_CHANNEL_LABELS[c] })),
    },
    personnel: { kind: 'multi', label: 'Personnel', item: idFilterItem },
    // Send test's invitations are listed and marked; the reports never count them (Performance Report's drill-down sets `no`).
    test: {
      kind: 'choice',
      label: 'Test sends',
      options: [
        { value: 'no', label: 'Real invitations only' },
        { value: 'yes', label: 'Test sends only' },
      ],
    },
    date_on: { kind: 'choice', label: 'Date of', options: PROCESSING_DATE_FIELDS, emptyLabel: 'Received' },
    date: { kind: 'dateRange', label: 'Date range' },
  },
  defaultSort: { sort: 'created_at', order: 'desc' },
  // A prefix search (modules/survey-processing/repository.ts, searchWhere): the start of any of these.
  search: 'Start of name, e-mail, phone or transaction id',
  card: { title: 'customer', facts: ['created_at', 'survey_name', 'location_name'] },
});

export type ProcessingItemListQuery = z.infer<typeof processingItemResource.listQuerySchema>;
/** The filters of a list query, without paging or sort (bulk Retry failed over a filter). */
export type ProcessingItemFilters = Omit<ProcessingItemListQuery, 'sort' | 'order' | 'perPage' | 'cursor'>;

/** Which invitations a bulk action is over: the chosen ones, or every one the list's filter finds. */
export const bulkTargetSchema = z.strictObject({
  ids: z.array(bodyId).min(1).max(1000).optional(),
  filter: z.record(z.string(), z.unknown()).optional(),
});
/**
 * Retry failed in bulk. `confirmed` is the count the user confirmed (`POST …/retry/preview`): when
 * the filter finds another number by then, nothing changes and the answer is 409.
 */
export const bulkRetrySchema = bulkTargetSchema.extend({ confirmed: z.number().int().min(0).optional() });
/** How many invitations a bulk action changed. */
export const bulkResultSchema = z.object({ changed: z.number().int() });
/**
 * What a bulk Retry failed would change, for its confirmation: how many, the clients it reaches
 * ("all clients", "Lakeside Dental") and the other filters in words ("Surveys: Post-visit NPS").
 */
export const bulkPreviewSchema = z.object({ count: z.number().int(), scope: z.string(), filters: z.array(z.string()) });
export type BulkPreview = z.infer<typeof bulkPreviewSchema>;

/** "3 failed invitations in all clients": a bulk Retry failed as its confirmation and its audit row say it. */
export const failedInScope = (count: number, scope: string): string =>
  `${count.toLocaleString('en-US')} failed invitation${count === 1 ? '' : 's'} in ${scope}`;
