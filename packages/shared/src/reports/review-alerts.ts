import { z } from 'zod';
import { idFilterItem } from '../api/ids.ts';
import { defineResource } from '../api/resource.ts';
import { exportMoment } from '../api/zoned-time.ts';
import { REVIEW_SITES, reviewSiteLabel } from '../constants.ts';
import { LOCATION_ID } from '../resources/locations.ts';
import { ALERT_EVENT_REASON_LABELS } from '../resources/survey-alert-events.ts';

/**
 * The Review Alerts Report (domain.md §27): were review alerts delivered, and were negative reviews
 * handled? One row per alert delivery (one review, one rule, one recipient on one channel; test
 * sends left out), read from review_alert_deliveries with its review and rule. The date range is
 * the day the alert was raised, in the client's zone (docs/decisions/067-review-alerts-report.md).
 */
export const REVIEW_ALERT_DELIVERY_STATUSES = ['pending', 'sent', 'failed', 'suppressed'] as const;
export type ReviewAlertDeliveryStatus = (typeof REVIEW_ALERT_DELIVERY_STATUSES)[number];
export const REVIEW_ALERT_DELIVERY_STATUS_LABELS: Record<ReviewAlertDeliveryStatus, string> = {
  pending: 'Pending',
  sent: 'Sent',
  failed: 'Failed',
  suppressed: 'Suppressed',
};
export const reviewAlertDeliveryStatusText = (status: string): string =>
  (Object.hasOwn(REVIEW_ALERT_DELIVERY_STATUS_LABELS, status)
    ? REVIEW_ALERT_DELIVERY_STATUS_LABELS[status as ReviewAlertDeliveryStatus]
    : undefined) ?? status;

/** Why a delivery failed or was suppressed, in words: the alert engines' reasons (Survey Alert Events' labels). */
export function reviewAlertReasonText(reason: string): string {
  const label = Object.hasOwn(ALERT_EVENT_REASON_LABELS, reason)
    ? ALERT_EVENT_REASON_LABELS[reason as keyof typeof ALERT_EVENT_REASON_LABELS]
    : undefined;
  const words = reason.replaceAll('_', ' ');
  return label ?? words.charAt(0).toUpperCase() + words.slice(1);
}

/** A delivery's status with its reason when it has one: "Failed · No recipients". */
export const deliveryStatusText = (r: { delivery_status: string; reason: string | null }): string =>
  r.reason
    ? `${reviewAlertDeliveryStatusText(r.delivery_status)} · ${reviewAlertReasonText(r.reason)}`
    : reviewAlertDeliveryStatusText(r.delivery_status);

/** Who a delivery went to: "owner@acme.example (E-mail)", or "No recipients" when the rule reached nobody. */
export const deliveryRecipientText = (r: { recipient: string; channel: string }): string =>
  r.recipient === '' ? 'No recipients' : `${r.recipient} (${r.channel === 'sms' ? 'SMS' : 'E-mail'})`;

/** A negative review: two stars or fewer (domain.md §27's card). */
export const NEGATIVE_MAX_RATING = 2;
/** "% negative replied within 48 h". */
export const REPLY_WINDOW_HOURS = 48;

export const reviewAlertReportRowSchema = z.object({
  id: z.number().int(),
  review_id: z.number().int().nullable(),
  review_created_at: z.string().nullable(),
  client_id: z.number().int(),
  client_name: z.string(),
  /** The client's zone (IANA): every time of the row is shown in it, named. */
  client_timezone: z.string(),
  location_name: z.string().nullable(),
  site: z.string().nullable(),
  rating: z.number().int().nullable(),
  reviewer: z.string().nullable(),
  excerpt: z.string().nullable(),
  /** The review on its site, when the site gave a link. */
  url: z.string().nullable(),
  rule_name: z.string(),
  channel: z.string(),
  recipient: z.string(),
  sent_at: z.string().nullable(),
  /** pending, sent, failed, suppressed (named `delivery_status`: the kit's `status` is a record's Active/Paused). */
  delivery_status: z.string(),
  /** Why a delivery failed or was suppressed (alerts/reasons.ts's words). */
  reason: z.string().nullable(),
  replied_at: z.string().nullable(),
  /** Hours from the review to its reply, one decimal; null without a reply. */
  hours_to_reply: z.number().nullable(),
});
export type ReviewAlertReportRow = z.infer<typeof reviewAlertReportRowSchema>;

const at = (value: string | null, r: Pick<ReviewAlertReportRow, 'client_timezone'>) =>
  value === null ? null : exportMoment(value, r.client_timezone);

export const reviewAlertReportResource = defineResource({
  name: 'review_alert_report',
  noun: 'review alert',
  path: '/api/reports/review-alerts',
  screen: 'review-alerts-report',
  // Every client's alerts the Clients filter chooses (the current client's by default).
  scope: 'filterable-clients',
  record: reviewAlertReportRowSchema,
  fields: {},
  columns: {
    review_created_at: { label: 'Review date', format: (r) => at(r.review_created_at, r) },
    client_name: { label: 'Client' },
    location_name: { label: 'Location' },
    site: { label: 'Site', format: (r) => (r.site === null ? null : reviewSiteLabel(r.site)) },
    rating: { label: 'Rating' },
    reviewer: { label: 'Reviewer' },
    excerpt: { label: 'Excerpt' },
    rule_name: { label: 'Rule' },
    recipient: { label: 'Recipients', format: deliveryRecipientText },
    created_at: { label: 'Alert sent at', sortable: true, format: (r) => at(r.sent_at, r) },
    delivery_status: { label: 'Delivery status', format: deliveryStatusText },
    replied_at: { label: 'Reply posted at', format: (r) => at(r.replied_at, r) },
    hours_to_reply: { label: 'Time to reply (h)' },
    url: { label: 'Review link', defaultVisible: false },
  },
  filters: {
    client: { kind: 'multi', label: 'Clients', item: idFilterItem, optionsPath: '/api/notifications-logs/options/client' },
    location: { kind: 'multi', label: 'Locations', item: z.string().regex(LOCATION_ID), optionsPath: '/api/endpoints/options' },
    site: { kind: 'multi', label: 'Sites', options: REVIEW_SITES.map((s) => ({ value: s.value, label: s.label })) },
    rating: { kind: 'multi', label: 'Rating', options: ['1', '2', '3', '4', '5'].map((v) => ({ value: v, label: `${v}★` })) },
    date: { kind: 'dateRange', label: 'Date range' },
    delivery_status: {
      kind: 'multi',
      label: 'Delivery status',
      options: REVIEW_ALERT_DELIVERY_STATUSES.map((s) => ({ value: s, label: REVIEW_ALERT_DELIVERY_STATUS_LABELS[s] })),
    },
    responded: {
      kind: 'choice',
      label: 'Responded',
      options: [
        { value: 'yes', label: 'Yes' },
        { value: 'no', label: 'No' },
      ],
    },
  },
  defaultSort: { sort: 'created_at', order: 'desc' },
  search: 'Whole reviewer name or recipient',
  card: { title: 'reviewer', facts: ['review_created_at', 'rating', 'delivery_status'] },
});

export type ReviewAlertReportQuery = z.infer<typeof reviewAlertReportResource.listQuerySchema>;

/** The cards over the whole filter (domain.md §27). */
export const reviewAlertReportCardsSchema = z.object({
  /** Distinct reviews with at least one alert delivery. */
  reviews_alerted: z.number().int(),
  /** Of them, rated ≤ 2★. */
  negative_alerted: z.number().int(),
  /** Deliveries whose status is failed. */
  delivery_failures: z.number().int(),
  /** Negative alerted reviews replied within 48 h of the review, in % (one decimal); null with none. */
  negative_replied_48h_pct: z.number().nullable(),
  /** Median hours from review to reply over alerted reviews with a reply (one decimal); null with none. */
  median_hours_to_reply: z.number().nullable(),
});
export type ReviewAlertReportCards = z.infer<typeof reviewAlertReportCardsSchema>;
