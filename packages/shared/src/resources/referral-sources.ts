import { z } from 'zod';
import { defineResource, statusFilter, statusLabel } from '../api/resource.ts';
import { STATUSES } from '../constants.ts';

/** Where a client's customers heard of it; a client's own, or a default every client gets. */
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

const TYPE_OPTIONS = REFERRAL_TYPES.map((t) => ({ value: t, label: REFERRAL_TYPE_LABELS[t] }));

export const referralSourceResource = defineResource({
  name: 'referral_source',
  path: '/api/referral-source',
  screen: 'referral-sources',
  scope: 'current-client-and-global',
  record: referralSourceSchema,
  fields: {
    name: { label: 'Name', rules: 'required|max:120' },
    code: { label: 'Code', rules: 'required|alpha_dash|max:64', placeholder: 'e.g. GOOGLE' },
    type: { label: 'Type', input: 'select', options: TYPE_OPTIONS, rules: { required: true, included: [...REFERRAL_TYPES] } },
    /** `true` makes a default shared by all clients; otherwise it belongs to the current client. */
    global: { label: 'Global default for all clients', input: 'checkbox', createOnly: true, schema: z.boolean().optional() },
  },
  columns: {
    name: { label: 'Name', sortable: true },
    code: { label: 'Code', sortable: true },
    client_name: { label: 'Client' },
    type: { label: 'Type', sortable: true, format: (r) => REFERRAL_TYPE_LABELS[r.type] },
    status: { label: 'Status', sortable: true, format: (r) => statusLabel(r.status) },
  },
  filters: {
    status: statusFilter,
    type: { kind: 'multi', label: 'Type', options: TYPE_OPTIONS },
    /** `client` = the current client's own, `global` = the shared defaults; absent = both. */
    scope: {
      kind: 'choice',
      label: 'Scope',
      emptyLabel: 'Client and global',
      options: [
        { value: 'client', label: 'This client only' },
        { value: 'global', label: 'Global defaults only' },
      ],
    },
  },
  defaultSort: { sort: 'name', order: 'asc' },
  search: 'Name or code',
  unique: 'code',
  statusEffects: {
    paused: 'Surveys and feeds stop offering this source until it is resumed.',
    inactive: 'The source is archived and hidden by default. You can restore it later.',
  },
});

export type ReferralSourceCreate = z.infer<typeof referralSourceResource.createSchema>;
export type ReferralSourceListQuery = z.infer<typeof referralSourceResource.listQuerySchema>;
