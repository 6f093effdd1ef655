import { z } from 'zod';
import { idParamSchema } from '../api/ids.ts';
import { type ColumnDef, exportColumnsSchema, listQuerySchema, multiValue } from '../api/list.ts';
import { STATUSES } from '../constants.ts';

/** Referral Source (domain.md §16): one definition for the API, the form and the table. */
export const REFERRAL_TYPES = ['online', 'word_of_mouth', 'professional_referral', 'advertising', 'walk_in', 'repeat', 'other'] as const;
export const REFERRAL_TYPE_LABELS: Record<(typeof REFERRAL_TYPES)[number], string> = {
  online: 'Online',
  word_of_mouth: 'Word of mouth',
  professional_referral: 'Professional referral',
  advertising: 'Advertising',
  walk_in: 'Walk-in',
  repeat: 'Repeat customer',
  other: 'Other',
};

export const referralSourceSchema = z.object({
  id: z.number().int(),
  client_id: z.number().int().nullable(),
  client_name: z.string().nullable(),
  name: z.string(),
  code: z.string(),
  type: z.enum(REFERRAL_TYPES),
  status: z.enum(STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ReferralSource = z.infer<typeof referralSourceSchema>;

export const referralSourceFieldRules = {
  name: 'required|max:120',
  code: 'required|alpha_dash|max:64',
  type: { required: true, included: [...REFERRAL_TYPES] },
} as const;

const text = z.string().max(5000).nullable().optional();
/** `global: true` makes a default shared by all clients; otherwise it belongs to the current client. */
export const referralSourceCreateSchema = z.strictObject({ name: text, code: text, type: text, global: z.boolean().optional() });
export type ReferralSourceCreate = z.infer<typeof referralSourceCreateSchema>;
export const referralSourceUpdateSchema = referralSourceCreateSchema
  .omit({ global: true })
  .extend({ updated_at: z.string().max(40).optional() });
export const referralSourceIdParamSchema = idParamSchema;

export const REFERRAL_SOURCE_COLUMN_KEYS = ['name', 'code', 'client_name', 'type', 'status'] as const;
export const referralSourceColumns: ColumnDef<(typeof REFERRAL_SOURCE_COLUMN_KEYS)[number]>[] = [
  { key: 'name', label: 'Name', sortable: true, defaultVisible: true },
  { key: 'code', label: 'Code', sortable: true, defaultVisible: true },
  { key: 'client_name', label: 'Client', defaultVisible: true },
  { key: 'type', label: 'Type', sortable: true, defaultVisible: true },
  { key: 'status', label: 'Status', sortable: true, defaultVisible: true },
];

export const REFERRAL_SOURCE_SORTS = ['name', 'code', 'type', 'status'] as const;
export const referralSourceFilters = {
  status: multiValue(z.enum(STATUSES)).optional(),
  type: multiValue(z.enum(REFERRAL_TYPES)).optional(),
  /** `client` = the current client's own, `global` = the shared defaults; absent = both. */
  scope: z.enum(['client', 'global']).optional(),
};
export const referralSourceListQuerySchema = listQuerySchema(REFERRAL_SOURCE_SORTS, referralSourceFilters);
export type ReferralSourceListQuery = z.infer<typeof referralSourceListQuerySchema>;
export const referralSourceExportQuerySchema = listQuerySchema(REFERRAL_SOURCE_SORTS, {
  ...referralSourceFilters,
  columns: exportColumnsSchema(REFERRAL_SOURCE_COLUMN_KEYS).optional(),
});
