import { z } from 'zod';
import { bodyId, idFilterItem, idParamSchema, idText } from '../api/ids.ts';
import { defineResource, optionLabel, statusFilter, statusLabel } from '../api/resource.ts';
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
const INDUSTRY_OPTIONS = INDUSTRIES.map((i) => ({ value: i, label: INDUSTRY_LABELS[i] }));

export const MODULES = ['surveys', 'reputation', 'listings', 'sms'] as const;
export const MODULE_LABELS: Record<(typeof MODULES)[number], string> = {
  surveys: 'Surveys',
  reputation: 'Reputation',
  listings: 'Listings',
  sms: 'SMS',
};
export const MODULE_OPTIONS = MODULES.map((m) => ({ value: m, label: MODULE_LABELS[m] }));

/** IANA time zones known to the runtime (Node 22 and 24, and every current browser). */
export const TIME_ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');

/** A client as one record path answers it (`GET /api/clients/7`) and the session keeps it. */
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

/** A client with the names and counts its row shows: what the list, the record paths and the audit answer. */
export const clientListItemSchema = clientSchema.extend({
  root_team_name: z.string().nullable(),
  account_coordinator_name: z.string().nullable(),
  users_count: z.number().int(),
  /** Active locations. */
  locations_count: z.number().int(),
});
export type ClientListItem = z.infer<typeof clientListItemSchema>;

/** Path id of a client, e.g. `/api/clients/7`. */
export const clientIdParamSchema = idParamSchema;
export const switchClientParamSchema = z.object({
  clientId: idText,
});

const PHONE = /^\+?[1-9]\d{6,14}$/;
const REVIEW_SITE_OPTIONS = REVIEW_SITES.map((s) => ({ value: s.value, label: s.label }));

/**
 * Client Manager (docs/screens.md): clients belong to no client (`global`). Rules with `{m,n}`
 * regexes use the object form (decision 007). A new client gets no modules until someone turns
 * one on, whether it is created in the form or through the API.
 */
export const clientResource = defineResource({
  name: 'client',
  path: '/api/create-client',
  recordPath: '/api/clients',
  screen: 'clients',
  scope: 'global',
  record: clientListItemSchema,
  fields: {
    name: { label: 'Name', rules: 'required|max:120' },
    industry: { label: 'Industry', input: 'select', options: INDUSTRY_OPTIONS, rules: { required: true, included: [...INDUSTRIES] } },
    timezone: { label: 'Time zone', input: 'timezone', rules: { required: true, included: TIME_ZONES } },
    // Defaults to the client's name (the team is made in `afterInsert`), so the form does not require it.
    root_team_name: { label: 'Root team name', rules: 'max:120', createOnly: true },
    website: { label: 'Website', rules: 'url|max:2048', placeholder: 'e.g. https://example.com' },
    phone: { label: 'Phone', rules: { regex: PHONE }, placeholder: 'e.g. +1 555 123 4567' },
    address1: { label: 'Address', rules: 'max:120' },
    city: { label: 'City', rules: 'max:80' },
    state: { label: 'State', rules: { regex: /^[A-Z]{2}$/ }, placeholder: 'e.g. CO' },
    postal_code: { label: 'Postal code', rules: { regex: /^\d{5}(-\d{4})?$/ } },
    country: { label: 'Country', rules: 'length:2', default: 'US' },
    primary_contact_name: { label: 'Primary contact name', rules: 'max:120' },
    primary_contact_email: { label: 'Primary contact email', rules: 'email|max:254' },
    account_coordinator_id: { label: 'Account Coordinator', rules: 'integer', schema: bodyId.nullable().optional() },
    default_review_site: {
      label: 'Default review site',
      input: 'select',
      options: REVIEW_SITE_OPTIONS,
      rules: { required: true, included: REVIEW_SITES.map((s) => s.value) },
      default: 'google',
    },
    modules: {
      label: 'Modules',
      rules: { included: [...MODULES] },
      schema: z.array(z.string().max(40)).max(10).optional(),
      default: [],
    },
    status: { label: 'Status', rules: { required: true, included: [...STATUSES] }, default: 'active', createOnly: true },
  },
  columns: {
    id: { label: 'ID', sortable: true },
    name: { label: 'Name', sortable: true },
    industry: { label: 'Industry', sortable: true, format: (c) => INDUSTRY_LABELS[c.industry] },
    root_team_name: { label: 'Root team', defaultVisible: false },
    account_coordinator_name: { label: 'Account Coordinator' },
    locations_count: { label: '# Locations' },
    users_count: { label: '# Users' },
    modules: { label: 'Modules', format: (c) => c.modules.map((m) => MODULE_LABELS[m]).join(', ') },
    default_review_site: {
      label: 'Default review site',
      defaultVisible: false,
      format: (c) => optionLabel(REVIEW_SITE_OPTIONS, c.default_review_site),
    },
    status: { label: 'Status', sortable: true, format: (c) => statusLabel(c.status) },
    created_at: { label: 'Created', sortable: true },
  },
  filters: {
    status: statusFilter,
    industry: { kind: 'multi', label: 'Industry', options: INDUSTRY_OPTIONS },
    // Staff accounts page on the server: the list of people who sign in here grows with the team.
    ac: { kind: 'multi', label: 'Account coordinator', item: idFilterItem, optionsPath: '/api/staff-users/options' },
    module: { kind: 'multi', label: 'Modules', options: MODULE_OPTIONS },
  },
  defaultSort: { sort: 'name', order: 'asc' },
  search: 'Name or ID',
  card: { facts: ['industry', 'account_coordinator_name', 'locations_count'] },
  unique: 'name',
  statusEffects: {
    paused: 'All sending stops for this client until it is resumed. Nothing is deleted.',
    inactive: 'The client is archived: hidden from the client switcher and lists by default. You can restore it later.',
    active: 'The client becomes active again.',
  },
});

export type ClientCreate = z.infer<typeof clientResource.createSchema>;
export type ClientListQuery = z.infer<typeof clientResource.listQuerySchema>;
