import { z } from 'zod';
import { defineResource } from '../api/resource.ts';
import { exportMoment } from '../api/zoned-time.ts';
import { bounceDescription } from './ses-bounce-descriptions.ts';
import { bounceText, SES_BOUNCE_SUBTYPE_LABELS, SES_BOUNCE_SUBTYPES, SES_BOUNCE_TYPE_LABELS, SES_BOUNCE_TYPES } from './ses-events.ts';

/**
 * SES Bounce (domain.md §25): one row per address that ever bounced, drew a complaint or was
 * suppressed by hand (`email_suppressions`, kept by the SES ingest's suppression policy). The sender
 * refuses a suppressed address; staff release one (confirmed, with a reason, audited) or suppress
 * one by hand. An address spans clients, so its times are written in UTC, named.
 */
export const SUPPRESSION_REASONS = ['BOUNCE', 'COMPLAINT', 'MANUAL'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
export const SUPPRESSION_REASON_LABELS: Record<SuppressionReason, string> = {
  BOUNCE: 'Bounce',
  COMPLAINT: 'Complaint',
  MANUAL: 'Manual',
};

export const emailSuppressionSchema = z.object({
  /** The address again: a row's id, as the console's lists key rows by `id`. */
  id: z.string(),
  email: z.string(),
  suppressed: z.boolean(),
  reason: z.enum(SUPPRESSION_REASONS),
  last_bounce_type: z.string().nullable(),
  last_bounce_subtype: z.string().nullable(),
  last_diagnostic_code: z.string().nullable(),
  /** Bounce events for the address in the 30 days before the request (from SES Logs). */
  bounce_count_30d: z.number().int(),
  bounce_count: z.number().int(),
  complaint_count: z.number().int(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
  last_template: z.string().nullable(),
  /** Names of the clients whose messages to the address bounced or drew a complaint, by name. */
  clients: z.array(z.string()),
  note: z.string().nullable(),
  suppressed_at: z.string().nullable(),
  released_at: z.string().nullable(),
  released_by_name: z.string().nullable(),
  release_reason: z.string().nullable(),
});
export type EmailSuppression = z.infer<typeof emailSuppressionSchema>;

/** The Description column: the last bounce's meaning, else what put the address here. */
export function suppressionDescription(
  r: Pick<EmailSuppression, 'last_bounce_type' | 'last_bounce_subtype' | 'reason' | 'complaint_count'>,
): string | null {
  const bounce = bounceDescription(r.last_bounce_type, r.last_bounce_subtype);
  if (bounce !== null) return bounce;
  if (r.complaint_count > 0) return 'The recipient reported a message as spam (a complaint).';
  return r.reason === 'MANUAL' ? 'Suppressed by hand in SES Bounce.' : null;
}

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');
const when = (v: string | null) => (v === null ? null : exportMoment(v, 'UTC'));

export const emailSuppressionResource = defineResource({
  name: 'email_suppression',
  noun: 'address',
  plural: 'addresses',
  path: '/api/email-suppressions',
  screen: 'ses-bounce',
  // Addresses belong to no client (one row serves them all).
  scope: 'global',
  record: emailSuppressionSchema,
  fields: {},
  columns: {
    email: { label: 'Email', sortable: true },
    suppressed: { label: 'Suppressed', format: (r) => yesNo(r.suppressed) },
    reason: { label: 'Reason', format: (r) => SUPPRESSION_REASON_LABELS[r.reason] },
    last_bounce_type: { label: 'Last bounce type', format: (r) => bounceText(r.last_bounce_type, null) },
    last_bounce_subtype: {
      label: 'Last subtype',
      format: (r) => (r.last_bounce_subtype === null ? null : (bounceText(null, r.last_bounce_subtype) ?? r.last_bounce_subtype)),
    },
    description: { label: 'Description', format: suppressionDescription, defaultVisible: false },
    last_diagnostic_code: { label: 'Last diagnostic code', defaultVisible: false },
    bounce_count: { label: 'Bounce count (30d / all)', format: (r) => `${r.bounce_count_30d} / ${r.bounce_count}` },
    complaint_count: { label: 'Complaint count' },
    first_seen_at: { label: 'First seen', format: (r) => when(r.first_seen_at), defaultVisible: false },
    last_seen_at: { label: 'Last seen', sortable: true, format: (r) => when(r.last_seen_at) },
    last_template: { label: 'Last template', defaultVisible: false },
    clients: { label: 'Clients affected', format: (r) => r.clients.join(', ') },
    released: {
      label: 'Released',
      defaultVisible: false,
      format: (r) =>
        r.released_at === null ? null : `${when(r.released_at)} by ${r.released_by_name ?? 'unknown'}: ${r.release_reason ?? ''}`,
    },
  },
  filters: {
    bounce_type: {
      kind: 'multi',
      label: 'Bounce type',
      options: SES_BOUNCE_TYPES.map((t) => ({ value: t, label: SES_BOUNCE_TYPE_LABELS[t] })),
    },
    subtype: {
      kind: 'multi',
      label: 'Subtype',
      options: SES_BOUNCE_SUBTYPES.map((t) => ({ value: t, label: SES_BOUNCE_SUBTYPE_LABELS[t] })),
    },
    suppressed: {
      kind: 'choice',
      label: 'Suppressed',
      options: [
        { value: 'yes', label: 'Suppressed' },
        { value: 'no', label: 'Not suppressed' },
      ],
    },
    reason: {
      kind: 'multi',
      label: 'Reason',
      options: SUPPRESSION_REASONS.map((r) => ({ value: r, label: SUPPRESSION_REASON_LABELS[r] })),
    },
    domain: { kind: 'text', label: 'Domain', placeholder: 'e.g. @gmail.com', max: 255 },
    date: { kind: 'dateRange', label: 'Last seen' },
  },
  defaultSort: { sort: 'last_seen_at', order: 'desc' },
  search: 'Address',
  card: { title: 'email', facts: ['suppressed', 'reason', 'last_seen_at'] },
});

export type EmailSuppressionListQuery = z.infer<typeof emailSuppressionResource.listQuerySchema>;

/** The release and manual-suppression forms' fields as their dialogs label them. */
export const SUPPRESSION_ACTION_LABELS = { email: 'Email', reason: 'Reason' } as const satisfies Record<string, string>;
const L = SUPPRESSION_ACTION_LABELS;

/** The question the release dialog asks, word for word (domain.md §25, after fxa's clear-bounces). */
export const RELEASE_QUESTION = 'Are you sure? This cannot be undone.';

const reasonText = z.string().trim().max(500, `The ${L.reason} field may not be greater than 500 characters`);
const requiredText = (label: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `The ${label} field is required` : `The ${label} field must be text`) });

/** `POST /api/email-suppressions/release`: which address, and why (`required|max:500`). */
export const releaseSuppressionSchema = z.strictObject({
  email: requiredText(L.email).trim().min(1, `The ${L.email} field is required`).max(320).toLowerCase(),
  reason: requiredText(L.reason).pipe(reasonText.min(1, `The ${L.reason} field is required`)),
});
export type ReleaseSuppression = z.infer<typeof releaseSuppressionSchema>;

/** `POST /api/email-suppressions`: an address to suppress by hand (`required|email`, lower-cased) and why. */
export const manualSuppressionSchema = z.strictObject({
  email: requiredText(L.email)
    .trim()
    .min(1, `The ${L.email} field is required`)
    .pipe(z.email(`The ${L.email} field must be a valid email`).max(320, `The ${L.email} field may not be greater than 320 characters`))
    .transform((v) => v.toLowerCase()),
  reason: reasonText.optional(),
});
export type ManualSuppression = z.infer<typeof manualSuppressionSchema>;
