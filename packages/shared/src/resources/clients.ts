import { z } from 'zod';
import { bodyId, idParamSchema, idText } from '../api/ids.ts';
import { type ColumnDef, exportColumnsSchema, listQuerySchema, multiValue } from '../api/list.ts';
import { REVIEW_SITES, STATUSES } from '../constants.ts';

export const rootTeamSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  clientId: z.number().int(),
  clientName: z.string(),
});
export type RootTeam = z.infer<typeof rootTeamSchema>;

export const INDUSTRIES = [
  'home_services',
  'automotive',
  'healthcare',
  'dental',
  'senior_care',
  'legal',
  'financial',
  'retail',
  'hospitality',
  'other',
] as const;

export const MODULES = ['surveys', 'reputation', 'listings', 'sms'] as const;
export const MODULE_LABELS: Record<(typeof MODULES)[number], string> = {
  surveys: 'Surveys',
  reputation: 'Reputation',
  listings: 'Listings',
  sms: 'SMS',
};

export const clientSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  industry: z.enum(INDUSTRIES),
  website: z.string().nullable(),
  phone: z.string().nullable(),
  address1: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postal_code: z.string().nullable(),
  country: z.string(),
  timezone: z.string(),
  root_team_id: z.number().int().nullable(),
  account_coordinator_id: z.number().int().nullable(),
  primary_contact_name: z.string().nullable(),
  primary_contact_email: z.string().nullable(),
  modules: z.array(z.enum(MODULES)),
  default_review_site: z.string(),
  status: z.enum(STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Client = z.infer<typeof clientSchema>;

/** Path id of a client, e.g. `/api/clients/7`. */
export const clientIdParamSchema = idParamSchema;
export const switchClientParamSchema = z.object({
  clientId: idText,
});

export const INDUSTRY_LABELS: Record<(typeof INDUSTRIES)[number], string> = {
  home_services: 'Home services',
  automotive: 'Automotive',
  healthcare: 'Healthcare',
  dental: 'Dental',
  senior_care: 'Senior care',
  legal: 'Legal',
  financial: 'Financial',
  retail: 'Retail',
  hospitality: 'Hospitality',
  other: 'Other',
};

/** IANA time zones known to the runtime (Node 20 and every current browser). */
export const TIME_ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');

const PHONE = /^\+?[1-9]\d{6,14}$/;

/**
 * The Client form's rules (docs/screens.md, Client Manager), run by the form on change and blur and by the server
 * on create and update. Regexes with `{m,n}` use the object form (decision 007).
 */
export const clientFieldRules = {
  name: 'required|max:120',
  industry: { required: true, included: [...INDUSTRIES] },
  website: 'url|max:2048',
  phone: { regex: PHONE },
  address1: 'max:120',
  city: 'max:80',
  state: { regex: /^[A-Z]{2}$/ },
  postal_code: { regex: /^\d{5}(-\d{4})?$/ },
  country: 'length:2',
  timezone: { required: true, included: TIME_ZONES },
  root_team_name: 'required|max:120',
  account_coordinator_id: 'integer',
  primary_contact_name: 'max:120',
  primary_contact_email: 'email|max:254',
  modules: { included: [...MODULES] },
  default_review_site: { required: true, included: REVIEW_SITES.map((s) => s.value) },
  status: { required: true, included: [...STATUSES] },
} as const;

const text = z.string().max(5000).nullable().optional();

/** Shape of the create body; the field rules above say what is valid. Unknown fields are refused. */
export const clientCreateSchema = z.strictObject({
  name: text,
  industry: text,
  website: text,
  phone: text,
  address1: text,
  city: text,
  state: text,
  postal_code: text,
  country: text,
  timezone: text,
  root_team_name: text,
  account_coordinator_id: bodyId.nullable().optional(),
  primary_contact_name: text,
  primary_contact_email: text,
  modules: z.array(z.string().max(40)).max(10).optional(),
  default_review_site: text,
  status: text,
});
export type ClientCreate = z.infer<typeof clientCreateSchema>;

/** PATCH body: any subset, plus the version the editor saw (409 when it is stale). */
export const clientUpdateSchema = clientCreateSchema.omit({ root_team_name: true, status: true }).extend({
  updated_at: z.string().max(40).optional(),
});

export const clientListItemSchema = clientSchema.extend({
  root_team_name: z.string().nullable(),
  account_coordinator_name: z.string().nullable(),
  users_count: z.number().int(),
  /** Active locations. */
  locations_count: z.number().int(),
});
export type ClientListItem = z.infer<typeof clientListItemSchema>;

export const CLIENT_COLUMN_KEYS = [
  'id',
  'name',
  'industry',
  'root_team_name',
  'account_coordinator_name',
  'locations_count',
  'users_count',
  'modules',
  'default_review_site',
  'status',
  'created_at',
] as const;

export const clientColumns: ColumnDef<(typeof CLIENT_COLUMN_KEYS)[number]>[] = [
  { key: 'id', label: 'ID', sortable: true, defaultVisible: true },
  { key: 'name', label: 'Name', sortable: true, defaultVisible: true },
  { key: 'industry', label: 'Industry', sortable: true, defaultVisible: true },
  { key: 'root_team_name', label: 'Root team', defaultVisible: true },
  { key: 'account_coordinator_name', label: 'Account Coordinator', defaultVisible: true },
  { key: 'locations_count', label: '# Locations', defaultVisible: true },
  { key: 'users_count', label: '# Users', defaultVisible: true },
  { key: 'modules', label: 'Modules', defaultVisible: true },
  { key: 'default_review_site', label: 'Default review site', defaultVisible: false },
  { key: 'status', label: 'Status', sortable: true, defaultVisible: true },
  { key: 'created_at', label: 'Created', sortable: true, defaultVisible: true },
];

export const CLIENT_SORTS = ['name', 'id', 'industry', 'status', 'created_at'] as const;
const positiveId = idText;
export const clientFilters = {
  status: multiValue(z.enum(STATUSES)).optional(),
  industry: multiValue(z.enum(INDUSTRIES)).optional(),
  module: multiValue(z.enum(MODULES)).optional(),
  ac: multiValue(positiveId).optional(),
};
export const clientListQuerySchema = listQuerySchema(CLIENT_SORTS, clientFilters);
export type ClientListQuery = z.infer<typeof clientListQuerySchema>;
export const clientExportQuerySchema = listQuerySchema(CLIENT_SORTS, {
  ...clientFilters,
  columns: exportColumnsSchema(CLIENT_COLUMN_KEYS).optional(),
});
