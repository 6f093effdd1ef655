import { z } from 'zod';
import { bodyId, idText, queryInt } from '../api/ids.ts';
import type { ColumnDef } from '../api/list.ts';
import { defineResource } from '../api/resource.ts';
import { exportMoment } from '../api/zoned-time.ts';
import { STATUSES } from '../constants.ts';

/**
 * Merge Personnel Data (docs/screens.md, Merge Personnel Data): suspected duplicate groups, the preview of a merge, the
 * merge itself and its history. One definition for the API, the screen and the CSV.
 */

export const MATCH_REASONS = ['name', 'email', 'phone', 'code'] as const;
export type MatchReason = (typeof MATCH_REASONS)[number];
export const MATCH_REASON_LABELS: Record<MatchReason, string> = {
  name: 'Same name',
  email: 'Same email',
  phone: 'Same phone',
  code: 'Same employee code',
};

/** A person as the merge screens show them. */
export const mergePersonSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  employee_code: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  title: z.string().nullable(),
  location_names: z.array(z.string()),
  status: z.enum(STATUSES),
});
export type MergePerson = z.infer<typeof mergePersonSchema>;

/** A person as the merge screens show them (server answers and people added by hand alike). */
export function mergePersonOf(p: Omit<MergePerson, 'location_names'>, locationNames: string[]): MergePerson {
  return {
    id: p.id,
    name: p.name,
    employee_code: p.employee_code,
    email: p.email,
    phone: p.phone,
    title: p.title,
    location_names: locationNames,
    status: p.status,
  };
}

export const mergeGroupSchema = z.object({
  /** The sorted ids, joined: a stable key for the set of people. */
  key: z.string(),
  personnel_ids: z.array(z.number().int()),
  people: z.array(mergePersonSchema),
  reasons: z.array(z.enum(MATCH_REASONS)),
});
export type MergeGroup = z.infer<typeof mergeGroupSchema>;

/** Columns of the Suggestions tab (no sorting: groups come ordered by their first name). */
export const mergeGroupColumns: ColumnDef<'names' | 'employee_codes' | 'locations' | 'reasons' | 'records'>[] = [
  { key: 'names', label: 'Names in group', defaultVisible: true },
  { key: 'employee_codes', label: 'Employee codes', defaultVisible: true },
  { key: 'locations', label: 'Locations', defaultVisible: true },
  { key: 'reasons', label: 'Match reason', defaultVisible: true },
  { key: 'records', label: 'Records', defaultVisible: true },
];

/**
 * A page of suggested groups: those matching `q`, or those holding `person` (Personnel's
 * "Merge…"); `cursor` is the previous page's `nextCursor`.
 */
export const mergeGroupsQuerySchema = z.strictObject({
  q: z.string().trim().max(200).optional(),
  person: idText.optional(),
  perPage: queryInt(1, 200).default(50),
  cursor: z.string().max(500).optional(),
});
export const mergeGroupsAnswerSchema = z.object({
  data: z.array(mergeGroupSchema),
  total: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type MergeGroupsAnswer = z.infer<typeof mergeGroupsAnswerSchema>;

const personIds = z.array(bodyId).max(50);

/** Who survives and who is merged into them; the same body previews and performs. */
export const mergeSelectionSchema = z.strictObject({
  survivor_id: bodyId,
  duplicate_ids: personIds,
});
export const mergeRequestSchema = mergeSelectionSchema.extend({
  /** The survivor's name typed again: the merge cannot be undone. */
  confirm_name: z.string().max(300),
});
export type MergeRequest = z.infer<typeof mergeRequestSchema>;

export const dismissGroupSchema = z.strictObject({ personnel_ids: personIds.min(2) });

/**
 * The merge's fields as the merge panel labels them: the Survivor and Merge columns, the
 * confirmation input; a group's people are dismissed together, and the survivor's aliases are
 * what a merge may overflow. The server's 422s name the fields by these.
 */
export const MERGE_REQUEST_LABELS = {
  survivor_id: 'Survivor',
  duplicate_ids: 'Merge',
  confirm_name: "Type the survivor's name to confirm",
  personnel_ids: 'People',
  aliases: 'Aliases',
} as const satisfies Record<string, string>;

/** Fields a merge fills or reports, in the order the preview lists them. */
export const MERGE_FIELDS = ['display_name', 'title', 'employee_code', 'email', 'phone', 'photo_url'] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];
export const MERGE_FIELD_LABELS: Record<MergeField, string> = {
  display_name: 'Display name',
  title: 'Title',
  employee_code: 'Employee code',
  email: 'Email',
  phone: 'Phone',
  photo_url: 'Photo URL',
};

/** Reference kinds a merge moves to the survivor, with their labels. */
export const MOVED_KINDS = {
  location_links: 'Location links',
  survey_responses: 'Survey responses',
  survey_processing_items: 'Survey invitations',
  amplifications: 'Review invitations',
  testimonials: 'Testimonials',
  review_mentions: 'Reviews naming them',
} as const;

export const mergePreviewSchema = z.object({
  survivor: mergePersonSchema,
  duplicates: z.array(mergePersonSchema),
  /** Empty survivor fields taken from a duplicate. */
  filled: z.array(z.object({ field: z.enum(MERGE_FIELDS), value: z.string(), from_id: z.number().int() })),
  /** Survivor fields that differ from a duplicate's: the survivor's value is kept. */
  conflicts: z.array(
    z.object({
      field: z.enum(MERGE_FIELDS),
      survivor_value: z.string(),
      others: z.array(z.object({ id: z.number().int(), value: z.string() })),
    }),
  ),
  aliases_added: z.array(z.string()),
  aliases_total: z.number().int(),
  moved_counts: z.record(z.string(), z.number().int()),
  /** The survivor's locations after the merge. */
  location_names: z.array(z.string()),
});
export type MergePreview = z.infer<typeof mergePreviewSchema>;

/** A row of the History tab. */
export const mergeRecordSchema = z.object({
  id: z.number().int(),
  performed_at: z.string(),
  /** The client's time zone: the date is shown and exported in it, named. */
  client_timezone: z.string(),
  performed_by: z.string(),
  survivor_id: z.number().int(),
  survivor_name: z.string(),
  merged_ids: z.array(z.number().int()),
  merged_names: z.array(z.string()),
  moved_counts: z.record(z.string(), z.number().int()),
  aliases_added: z.array(z.string()),
});
export type MergeRecord = z.infer<typeof mergeRecordSchema>;

/** "Location links: 2, Responses: 5" — the counts a merge moved, for the table and the CSV. */
export function describeMoved(counts: Record<string, number>): string {
  const labels: Record<string, string> = MOVED_KINDS;
  // Only what moved: a merge of people with no responses should not list "Survey responses: 0".
  // In MOVED_KINDS' order, whatever order the stored counts come back in (jsonb sorts its keys).
  const order = Object.keys(MOVED_KINDS);
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  const moved = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => rank(a) - rank(b));
  return moved.length === 0 ? 'Nothing' : moved.map(([k, n]) => `${labels[k] ?? k}: ${n}`).join(', ');
}

/**
 * The History tab: a read-only list of the current client's merges (docs/conventions.md, Adding a
 * read-only screen). Each column's `format` is the text of both the table and the CSV; lists are
 * joined with ", " in both.
 */
export const mergeHistoryResource = defineResource({
  name: 'personnel_merge',
  noun: 'merge',
  plural: 'merges',
  path: '/api/get-merge-personnel/history',
  // Also the CSV's name (`personnel-merge-history-<date>.csv`) and the column choice's key.
  screen: 'personnel-merge-history',
  scope: 'current-client',
  record: mergeRecordSchema,
  fields: {},
  columns: {
    performed_at: { label: 'Date', sortable: true, format: (r) => exportMoment(r.performed_at, r.client_timezone) },
    performed_by: { label: 'By' },
    survivor_name: { label: 'Survivor' },
    merged_names: { label: 'Merged names', format: (r) => r.merged_names.join(', ') },
    moved: { label: 'Moved', format: (r) => describeMoved(r.moved_counts) },
    aliases_added: { label: 'Aliases added', defaultVisible: false, format: (r) => r.aliases_added.join(', ') },
  },
  filters: {},
  defaultSort: { sort: 'performed_at', order: 'desc' },
  // The tab has no search box: a client's merges are few, read newest first.
  search: '',
});
export type MergeHistoryQuery = z.infer<typeof mergeHistoryResource.listQuerySchema>;
