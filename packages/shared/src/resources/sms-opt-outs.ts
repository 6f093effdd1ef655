import { z } from 'zod';
import { defineResource } from '../api/resource.ts';
import { exportMoment } from '../api/zoned-time.ts';

/**
 * SMS Text's opted-out phones (domain.md §20): one row per phone in `sms_opt_outs`, made by an
 * inbound STOP (every client: the platform's one sender number serves them all,
 * docs/decisions/061-sms-callbacks-and-stop.md) or a survey's unsubscribe link (that client). The
 * sender refuses them. A phone may span clients, so its time is written in UTC, named.
 */
export const SMS_OPT_OUT_SOURCE_LABELS: Readonly<Record<string, string>> = {
  inbound: 'Text reply',
  inbound_sms: 'Text reply',
  unsubscribe_link: 'Unsubscribe link',
  manual: 'By hand',
};

/** A source in words; one not listed above (an older import) as its words, never its raw key. */
export function smsOptOutSourceLabel(source: string): string {
  const known = Object.hasOwn(SMS_OPT_OUT_SOURCE_LABELS, source) ? SMS_OPT_OUT_SOURCE_LABELS[source] : undefined;
  if (known !== undefined) return known;
  const words = source.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const smsOptOutSchema = z.object({
  /** The phone again: rows are keyed by `id` in the console's lists. */
  id: z.string(),
  phone: z.string(),
  keyword: z.string(),
  source: z.string(),
  client_id: z.number().int().nullable(),
  /** The client's name; null = every client. */
  client_name: z.string().nullable(),
  created_at: z.string(),
});
export type SmsOptOut = z.infer<typeof smsOptOutSchema>;

export const smsOptOutResource = defineResource({
  name: 'sms_opt_out',
  noun: 'opted-out phone',
  plural: 'opted-out phones',
  path: '/api/sms-opt-outs',
  screen: 'sms-opt-outs',
  // A phone opted out of every client has no client; the list shows them all.
  scope: 'global',
  record: smsOptOutSchema,
  fields: {},
  columns: {
    phone: { label: 'Phone', sortable: true },
    keyword: { label: 'Keyword' },
    created_at: { label: 'Opted out', sortable: true, format: (r) => exportMoment(r.created_at, 'UTC') },
    source: { label: 'Source', format: (r) => smsOptOutSourceLabel(r.source) },
    client_name: { label: 'Client', format: (r) => r.client_name ?? 'All clients' },
  },
  filters: {},
  defaultSort: { sort: 'created_at', order: 'desc' },
  search: 'Phone',
  card: { title: 'phone', facts: ['keyword', 'created_at', 'source', 'client_name'] },
});

export type SmsOptOutListQuery = z.infer<typeof smsOptOutResource.listQuerySchema>;
